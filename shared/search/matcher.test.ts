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

describe('matchShare', () => {
  it('counts a stack once however many matching frames it holds', async () => {
    const p = await folded('a;x;b;x 3\na;c 1\nx 2\n');
    const s = matchShare(p, matchFrames(p, compileQuery('x').match));
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
        const m = matchFrames(p, compileQuery(q).match);
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
