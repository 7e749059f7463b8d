/**
 * The folded importer reads lines in place, skips the frames a line shares with the one before and
 * finds known frames among a node's children; none of that may change what a file imports. Checked
 * against the plain reading (each line split as `splitFoldedLine` splits it, frames by `;`) on
 * files made to stress it: few frame names, so that prefixes are shared and frames look alike;
 * lines sorted, repeated or shuffled; line breaks other than `\n` inside stacks; blank, bad and
 * white-space lines; every chunk size.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_WEIGHT, type Profile } from '../../../model/types';
import { bytesSource, openSource } from '../../io/source';
import { foldedImporter, splitFoldedLine } from './folded';

/** What the file holds, read the plain way: stack → summed weight (as `collapse` prints it). */
function reference(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const parts = splitFoldedLine(line);
    if (!parts) continue;
    const weight = Number(parts[1]);
    if (!(weight <= MAX_WEIGHT)) continue;
    out.set(parts[0], (out.get(parts[0]) ?? 0) + weight);
  }
  for (const [k, v] of out) if (v === 0) out.delete(k);
  return out;
}

/** The imported profile's stacks by their labels, with their exact weights. */
function imported(p: Profile): Map<string, number> {
  const t = p.tree;
  const path: string[] = [''];
  const out = new Map<string, number>();
  for (let i = 1; i < t.length; i++) {
    const label = p.frames.label[t.frame[i]!]!;
    path[i] = t.parent[i] === 0 ? label : `${path[t.parent[i]!]!};${label}`;
    if (t.self[i] !== 0) out.set(path[i]!, (out.get(path[i]!) ?? 0) + t.self[i]!);
  }
  return out;
}

// Frame names that share beginnings and ends, differ by one character, hold spaces, are empty or
// break lines in ways other than `\n`.
const NAMES = ['a', 'b', 'ab', 'ba', 'aab', 'a b', ' a', 'x_[k]', '', 'a\r', 'b\u2028', 'main', 'mainx', 'ma', 'é', 'a\u2029a'];
const frameArb = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...NAMES.slice(0, 8), 'main', 'mainx', 'ma', 'é') }, { weight: 1, arbitrary: fc.constantFrom(...NAMES) });
const stackArb = fc.array(frameArb, { minLength: 1, maxLength: 12 }).map((f) => f.join(';'));
const lineArb = fc.oneof(
  { weight: 20, arbitrary: fc.tuple(stackArb, fc.integer({ min: 0, max: 30 })).map(([s, n]) => `${s} ${n}`) },
  { weight: 1, arbitrary: fc.constantFrom('', '   ', 'not a line', 'a;b', 'a;b 1.5', 'a;b 9007199254740993', ' \t 3', 'a;b\t7') },
);
const fileArb = fc
  .tuple(fc.array(lineArb, { minLength: 1, maxLength: 60 }), fc.constantFrom('as-is', 'sorted', 'twice', 'sorted-twice'), fc.boolean())
  .map(([lines, order, crlf]) => {
    let ls = order.startsWith('sorted') ? [...lines].sort() : lines;
    if (order.endsWith('twice')) ls = [...ls, ...ls];
    return ls.join(crlf ? '\r\n' : '\n') + (crlf ? '\r\n' : '\n');
  });

describe('folded import agrees with the plain reading', () => {
  it('on files made to share prefixes and look alike, read in chunks of any size', async () => {
    await fc.assert(
      fc.asyncProperty(fileArb, fc.integer({ min: 1, max: 64 }), async (text, chunk) => {
        const want = reference(text);
        let got: Map<string, number>;
        try {
          const source = await openSource(bytesSource('t.folded', text, chunk));
          got = imported(await foldedImporter.parse({ file: 't.folded', source, options: {} }));
        } catch (e) {
          // no line gives a stack: the importer says so
          expect(want.size === 0 || [...want.values()].every((v) => v === 0), String(e)).toBe(true);
          return;
        }
        expect(got).toEqual(want);
      }),
      { numRuns: 400 },
    );
  });
});
