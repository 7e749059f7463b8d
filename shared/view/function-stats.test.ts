import { describe, expect, it } from 'vitest';
import { frameKey } from '../model/frame-key';
import { folded } from '../../test/support/folded';
import { load } from '../../test/support/cpuprofile';
import { fixturePath } from '../../test/support/files';
import { rawStacks } from '../../test/support/raw-cpuprofile';
import { functionShares } from './function-stats';

describe('functionShares', () => {
  it('gives each function its self and total share once (recursion counted once), leaves weightless ones out, and keeps only marked frames when asked', async () => {
    const p = await folded('main;a;F;b 3\nmain;F;F;c 2\nx;F 1\nmain;a;b 4\nsleep 5');
    // the weights a run is read by: "sleep" (idle, say) weighs nothing
    const w = Float64Array.from(p.tree.self);
    for (let i = 0; i < p.tree.length; i++) if (p.frames.name[p.tree.frame[i]!] === 'sleep') w[i] = 0;
    const byName = new Map(functionShares(p, w).map((f) => [f.name, f]));
    expect([...byName.keys()].sort()).toEqual(['F', 'a', 'b', 'c', 'main', 'x']);
    expect(byName.get('F')).toMatchObject({ self: 1 / 10, total: 6 / 10 });
    expect(byName.get('main')).toMatchObject({ self: 0, total: 9 / 10 });
    expect(byName.get('b')).toMatchObject({ self: 7 / 10, total: 7 / 10 });

    const marks = new Uint8Array(p.frames.length);
    marks[p.frames.name.indexOf('F')] = 1;
    expect(functionShares(p, w, marks).map((f) => f.name)).toEqual(['F']);
    expect(functionShares(p, new Float64Array(p.tree.length))).toEqual([]);
  });

  it("agrees with the samples of a real dd-trace run, read from the file's JSON", async () => {
    const file = fixturePath('samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile');
    const p = await load(file);
    // weighed by sample count, as the file has its samples; (idle) left out
    const w = new Float64Array(p.tree.length);
    const samples = p.samples!;
    for (let i = 0; i < samples.length; i++) w[samples.node[i]!]! += 1;
    for (let i = 0; i < p.tree.length; i++) if (p.frames.name[p.tree.frame[i]!] === '(idle)') w[i] = 0;

    const keyOf = (f: { name: string; url: string }) => frameKey(f.name === '' ? '(anonymous)' : f.name, f.url);
    const self = new Map<string, number>();
    const total = new Map<string, number>();
    let busy = 0;
    for (const stack of rawStacks(file)) {
      const keys = stack.map(keyOf);
      if (stack[stack.length - 1]?.name === '(idle)') continue;
      busy++;
      const leaf = keys[keys.length - 1]!;
      self.set(leaf, (self.get(leaf) ?? 0) + 1);
      for (const k of new Set(keys)) total.set(k, (total.get(k) ?? 0) + 1);
    }
    expect(busy).toBeGreaterThan(1000);
    const shares = functionShares(p, w);
    expect(new Set(shares.map((f) => f.key))).toEqual(new Set(total.keys()));
    for (const f of shares) {
      expect(f.total).toBeCloseTo(total.get(f.key)! / busy, 12);
      expect(f.self).toBeCloseTo((self.get(f.key) ?? 0) / busy, 12);
    }
  });
});
