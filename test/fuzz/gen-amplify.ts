/**
 * Inputs whose model grows much faster than their bytes: a pprof sample's location list makes a
 * node for each inlined line of each location it names (one byte names a location of a thousand
 * lines), a folded line a node for every two bytes of one deep stack (~40 bytes of model each).
 * Other formats spend more of their file on each node: 0x's preprocessed ticks four bytes a frame
 * (~21 bytes of model per byte), the JSON formats tens of bytes a node or span. `scale` sets how many: past a few
 * million the import must end with the build budget's error (model/budget.ts), not grow on.
 */
import fc from 'fast-check';
import { Proto } from './gen-pprof';

export interface Amplifier {
  name: string;
  file: string;
  /** the input for `scale` (≥ 1) */
  make(scale: number): Uint8Array;
}

const utf8 = (s: string) => new TextEncoder().encode(s);

/**
 * pprof: one location of `lines` inlined functions and a sample naming that location `repeats`
 * times (one byte each): `lines × repeats` frames, each a node deeper than the last.
 */
export function pprofInlineChain(lines: number, repeats: number): Uint8Array {
  const p = new Proto();
  p.message(1, new Proto().uint(1, 1).uint(2, 2));
  p.message(2, new Proto().packed(1, new Array<number>(repeats).fill(1)).packed(2, [1]));
  const location = new Proto().uint(1, 1);
  for (let f = 1; f <= lines; f++) location.message(4, new Proto().uint(1, f).uint(2, f));
  p.message(4, location);
  for (let f = 1; f <= lines; f++) p.message(5, new Proto().uint(1, f).uint(2, 3).uint(4, 4));
  for (const s of ['', 'samples', 'count', 'f', 'a.js']) p.string(6, s);
  return p.finish();
}

/** Folded stacks: one line of `depth` one-letter frames (`a;a;…;a 1`). */
export function deepFoldedLine(depth: number): Uint8Array {
  return utf8(`${'a;'.repeat(depth - 1)}a 1\n`);
}

export const AMPLIFIERS: Amplifier[] = [
  { name: 'pprof: a sample repeating a location of many inlined lines', file: 'chain.pb', make: (k) => pprofInlineChain(1000, 1000 * k) },
  { name: 'folded: one deep line of one-letter frames', file: 'deep.folded', make: (k) => deepFoldedLine(1_000_000 * k) },
];

/** An amplifier and a scale, for the fuzz suite. */
export const amplified: fc.Arbitrary<{ a: Amplifier; scale: number }> = fc.record({
  a: fc.constantFrom(...AMPLIFIERS),
  scale: fc.integer({ min: 4, max: 8 }),
});
