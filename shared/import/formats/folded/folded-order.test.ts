/**
 * A folded file is a set of lines: in whatever order they come, sorted as collapsers write them
 * or shuffled, it must import to the same profile (the same stacks, frames and weights), with the
 * line scanner and without it. The scanner reuses the previous line's path for the frames a line
 * shares with it, and makes the nodes it walks to without looking for them in the tree while the
 * tree holds nothing else: a line read as text, or two labels that decode to one frame, end that.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { checkProfile } from '../../../model/integrity';
import type { Profile } from '../../../model/types';
import { setLineScannerEnabled } from '../../io/line-scanner';
import { bytesSource, openSource } from '../../io/source';
import { foldedImporter } from './folded';

afterEach(() => setLineScannerEnabled(true));

async function read(bytes: Uint8Array | string, scanner = true, chunk = 1 << 16): Promise<Profile> {
  setLineScannerEnabled(scanner);
  try {
    const source = await openSource(bytesSource('t.folded', bytes, chunk));
    return await foldedImporter.parse({ file: 't.folded', source, options: {} });
  } finally {
    setLineScannerEnabled(true);
  }
}

/**
 * The profile without what depends on the order things were met in (node and frame numbers):
 * every node as its path of frames (each with all its fields), its self and total weights, sorted.
 */
function canonical(p: Profile): { nodes: string[]; frames: string[]; total: number } {
  const f = p.frames;
  const frame = (id: number) =>
    JSON.stringify([f.name[id], f.file[id], f.line[id], f.column[id], f.category[id], f.tier[id], f.pkg[id], f.key[id], f.label[id]]);
  const t = p.tree;
  const path: string[] = [''];
  for (let i = 1; i < t.length; i++) path[i] = `${path[t.parent[i]!]!}/${frame(t.frame[i]!)}`;
  const nodes = path.map((s, i) => `${s} ${t.self[i]} ${t.total[i]}`).sort();
  const frames = Array.from({ length: f.length }, (_, i) => frame(i)).sort();
  return { nodes, frames, total: t.total[0]! };
}

const NAMES = ['main', 'ma', 'mainx', 'a', 'b', 'ab', 'a b', 'x_[k]', '', 'é', 'fn1_app_lib_', 'fn12_app_lib_'];
const stackArb = fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 10 }).map((s) => s.join(';'));
const lineArb = fc.oneof(
  { weight: 30, arbitrary: fc.tuple(stackArb, fc.integer({ min: 0, max: 500 })).map(([s, n]) => `${s} ${n}`) },
  // lines the scanner leaves to the importer's reading of text
  { weight: 1, arbitrary: fc.tuple(stackArb, fc.constantFrom('1.5', '0.25')).map(([s, n]) => `${s} ${n}`) },
  { weight: 1, arbitrary: fc.constantFrom('', 'not a line', 'a;b\t7') },
);

/** What a file imports to, as `canonical` tells it, or the error it gives. */
async function outcome(text: string, scanner: boolean, chunk: number): Promise<unknown> {
  let p: Profile;
  try {
    p = await read(text, scanner, chunk);
  } catch (e) {
    return String(e);
  }
  expect(checkProfile(p)).toEqual([]);
  return canonical(p);
}

/** A permutation of `n` items from sort keys. */
const shuffle = <T>(items: T[], keys: number[]): T[] =>
  items
    .map((x, i) => [x, keys[i % keys.length]! + i / items.length] as const)
    .sort((a, b) => a[1] - b[1])
    .map(([x]) => x);

describe('folded stacks in any order', () => {
  it('import to the same profile sorted and shuffled, with the line scanner and without', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineArb, { minLength: 1, maxLength: 80 }),
        fc.array(fc.nat(1000), { minLength: 1, maxLength: 80 }),
        fc.integer({ min: 1, max: 200 }),
        async (lines, keys, chunk) => {
          const sorted = `${[...lines].sort().join('\n')}\n`;
          const shuffled = `${shuffle(lines, keys).join('\n')}\n`;
          const want = await outcome(sorted, false, 1 << 16);
          for (const text of [sorted, shuffled])
            for (const scanner of [true, false]) expect(await outcome(text, scanner, chunk)).toEqual(want);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a large file of distinct stacks: sorted and shuffled alike', async () => {
    // the shape of the UI benchmark's files: every line a new stack, deep and branching
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const lines = new Set<string>();
    while (lines.size < 5000) {
      const depth = 1 + Math.floor(next() * 12);
      const frames = Array.from({ length: depth }, () => `fn${Math.floor(next() ** 2 * 300)}_lib_`);
      lines.add(`${frames.join(';')} ${1 + Math.floor(next() * 50)}`);
    }
    const all = [...lines];
    const shuffled = `${all.join('\n')}\n`;
    const sorted = `${[...all].sort().join('\n')}\n`;
    const want = canonical(await read(shuffled, false));
    for (const text of [sorted, shuffled]) expect(canonical(await read(text))).toEqual(want);
  });

  it('line breaks and marks anywhere in a long stack send its line to the text reader', async () => {
    // the scanner reads a new stack 16 bytes at a time: each odd character at each place around
    // the ends of those blocks, and as many frames as there are semicolons in them
    const lines: string[] = [];
    for (const odd of ['\r', '\u2028', '\u2029', '\ufeff', '\u00e9', ' '])
      for (let at = 0; at < 40; at++) {
        const stack = 'ab;cd;efghij;k;lmnopqrstuvwxyz;0123456789;ABCDEFG'.split('');
        stack.splice(at, 0, odd);
        lines.push(`${stack.join('')} ${at + 1}`);
      }
    const text = `${lines.join('\n')}\n`;
    const p = await read(text, true, 7);
    expect(checkProfile(p)).toEqual([]);
    expect(canonical(p)).toEqual(canonical(await read(text, false)));
  });

  it('labels that decode to one frame make one node', async () => {
    // two different invalid bytes both decode to U+FFFD: the scanner numbers two labels, the
    // profile has one frame, and under it one node (not two for the same frame)
    const bytes = new Uint8Array([0xff, 0x3b, 0x61, 0x20, 0x31, 0x0a, 0xfe, 0x3b, 0x61, 0x20, 0x32, 0x0a]);
    const p = await read(bytes);
    expect(checkProfile(p)).toEqual([]);
    expect(p.tree.length).toBe(3);
    expect(canonical(p)).toEqual(canonical(await read(bytes, false)));
  });

  it('nodes made by a line read as text are found again by the lines the scanner walks', async () => {
    // the scanner meets frames b and a; the fraction sends `a;b 1.5` to the text reader, which
    // makes nodes a and a;b of those frames; the next line's walk reaches them in the scanner's
    // own tree for the first time
    const text = 'b;a 1\na;b 1.5\na;b;c 2\nz 1\na;b;c 1\n';
    const p = await read(text);
    expect(checkProfile(p)).toEqual([]);
    expect(p.tree.length).toBe(7);
    expect(p.tree.total[0]).toBe(6.5);
    expect(canonical(p)).toEqual(canonical(await read(text, false)));
  });
});
