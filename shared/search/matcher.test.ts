import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { folded } from '../test/folded';
import { compileQuery, matchFrames, matchShare } from './matcher';

/** The definition, node by node: a node is under a match when its frame matches or its parent is. */
function naiveShare(t: { length: number; frame: Int32Array | number[]; parent: Int32Array | number[] }, m: Uint8Array, w: Float64Array) {
  const under = new Uint8Array(t.length);
  let inc = 0;
  let self = 0;
  let total = w[0]!;
  for (let i = 1; i < t.length; i++) {
    const own = m[t.frame[i]!]!;
    under[i] = own | under[t.parent[i]!]!;
    total += w[i]!;
    if (under[i]) inc += w[i]!;
    if (own) self += w[i]!;
  }
  return { inc, self, total };
}

describe('compileQuery', () => {
  it('plain text is a case-insensitive substring of the name or the file, special characters and all', () => {
    const q = compileQuery('(Anonymous) [x]')!;
    expect(q.match('foo (anonymous) [X] bar', '')).toBe(true);
    expect(q.match('anonymous x', '')).toBe(false);
    expect(compileQuery('DD-TRACE')!.match('wrap', '/app/node_modules/dd-trace/src/x.js')).toBe(true);
    expect(compileQuery('a.b')!.match('axb', '')).toBe(false);
  });

  it('/regex/ is tried on the name and on the file', () => {
    const q = compileQuery('/^send.*Trace$/')!;
    expect(q.match('sendWithTrace', '')).toBe(true);
    expect(q.match('x', 'sendTrace')).toBe(true);
    expect(compileQuery('/[/')!.error).toMatch(/invalid regular expression/);
  });
});

describe('matchFrames', () => {
  it('gives the same flags with the per-file shortcut as frame by frame', async () => {
    const p = await folded('a;b;c 1\n');
    const q = compileQuery('/^$/')!; // matches an empty name or an empty file: every frame here has no file
    const plain = (name: string, file: string) => q.match(name, file);
    expect([...matchFrames(p, q.match)]).toEqual([...matchFrames(p, plain)]);
  });
});

describe('matchShare', () => {
  it('counts a stack once however many matching frames it holds', async () => {
    const p = await folded('a;x;b;x 3\na;c 1\nx 2\n');
    const s = matchShare(p, matchFrames(p, compileQuery('x')!.match));
    expect(s.inclusiveWeight).toBe(5);
    expect(s.selfWeight).toBe(5);
    expect(s.inclusive).toBeCloseTo(5 / 6);
  });

  it('agrees with the node-by-node definition on random trees and queries', async () => {
    const names = ['a', 'b', 'c', 'ab', 'x'];
    const stack = fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(stack, fc.integer({ min: 1, max: 50 })), { minLength: 1, maxLength: 40 }), fc.constantFrom(...names), async (lines, q) => {
        const p = await folded(lines.map(([s, n]) => `${s.join(';')} ${n}`).join('\n'));
        const m = matchFrames(p, compileQuery(q)!.match);
        const got = matchShare(p, m);
        const want = naiveShare(p.tree, m, p.tree.self);
        expect(got.inclusiveWeight).toBe(want.inc);
        expect(got.selfWeight).toBe(want.self);
        expect(got.inclusive).toBe(want.total > 0 ? want.inc / want.total : 0);
      }),
      { numRuns: 300 },
    );
  });
});
