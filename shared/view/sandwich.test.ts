import { describe, expect, it } from 'vitest';
import { frameKey } from '../model/frame-key';
import { folded } from '../../test/support/folded';
import { load } from '../../test/support/cpuprofile';
import { fixturePath } from '../../test/support/files';
import { rawStacks } from '../../test/support/raw-cpuprofile';
import { type SandwichNode, sandwich, sandwichRows } from './sandwich';

/** Every path of a caller or callee tree (names joined by ">") with its weight. */
function paths(n: SandwichNode, prefix = ''): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of n.children.values()) {
    const here = prefix ? `${prefix}>${c.key}` : c.key;
    out.set(here, c.weight);
    for (const [k, v] of paths(c, here)) out.set(k, v);
  }
  return out;
}

describe('sandwich of one function', () => {
  it('counts each sample once where the function recurses, callers inverted, callees merged', async () => {
    const p = await folded('main;a;F;b 3\nmain;F;F;c 2\nx;F 1\nmain;a;b 4');
    const key = p.frames.key[p.frames.name.indexOf('F')]!;
    const s = sandwich(p, key)!;
    expect(s.total).toBe(6);
    expect(s.self).toBe(1);
    const k = (n: string) => p.frames.key[p.frames.name.indexOf(n)]!;
    expect(paths(s.callers)).toEqual(
      new Map([
        [k('a'), 3],
        [`${k('a')}>${k('main')}`, 3],
        [k('main'), 2],
        [k('x'), 1],
      ]),
    );
    expect(paths(s.callees)).toEqual(
      new Map([
        [k('b'), 3],
        [key, 2],
        [`${key}>${k('c')}`, 2],
      ]),
    );
    expect(sandwich(p, 'no such function')).toBeUndefined();
  });

  it("agrees with the samples of a real dd-trace run, read from the file's JSON", async () => {
    const file = fixturePath('samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile');
    const p = await load(file);
    // weighed by sample count: each sample's stack, as the file has it
    const self = new Float64Array(p.tree.length);
    const samples = p.samples!;
    for (let i = 0; i < samples.length; i++) self[samples.node[i]!]! += 1;
    const emit = p.frames.key.find((k, f) => p.frames.name[f] === 'emit' && p.frames.file[f]!.includes('dd-trace'))!;
    expect(emit).toBeDefined();
    const s = sandwich(p, emit, self)!;

    const keyOf = (f: { name: string; url: string }) => frameKey(f.name === '' ? '(anonymous)' : f.name, f.url);
    const callers = new Map<string, number>();
    const callees = new Map<string, number>();
    let total = 0;
    let selfCount = 0;
    for (const stack of rawStacks(file)) {
      const keys = stack.map(keyOf);
      if (keys[keys.length - 1] === emit) selfCount++;
      const j = keys.indexOf(emit);
      if (j < 0) continue;
      total++;
      for (let up = j - 1, path = ''; up >= 0; up--) {
        path = path ? `${path}>${keys[up]}` : keys[up]!;
        callers.set(path, (callers.get(path) ?? 0) + 1);
      }
      for (let down = j + 1, path = ''; down < keys.length; down++) {
        path = path ? `${path}>${keys[down]}` : keys[down]!;
        callees.set(path, (callees.get(path) ?? 0) + 1);
      }
    }
    expect(total).toBeGreaterThan(500);
    expect(s.total).toBe(total);
    expect(s.self).toBe(selfCount);
    expect(paths(s.callers)).toEqual(callers);
    expect(paths(s.callees)).toEqual(callees);
  });
});

describe('several runs in one table', () => {
  it('lines paths up by key, heaviest first, with a zero where a run lacks the path', async () => {
    const base = await folded('main;a;F 3\nmain;b;F 1');
    const run = await folded('main;a;F 3\nmain;agent;wrap;F 5');
    const key = base.frames.key[base.frames.name.indexOf('F')]!;
    const rows = sandwichRows([sandwich(base, key)!.callers, sandwich(run, key)!.callers]);
    expect(rows.map((r) => [r.name, r.depth, r.weights])).toEqual([
      ['wrap', 0, [0, 5]],
      ['agent', 1, [0, 5]],
      ['main', 2, [0, 5]],
      ['a', 0, [3, 3]],
      ['main', 1, [3, 3]],
      ['b', 0, [1, 0]],
      ['main', 1, [1, 0]],
    ]);
    const collapsed = sandwichRows([sandwich(base, key)!.callers, sandwich(run, key)!.callers], { expanded: new Set() });
    expect(collapsed.map((r) => r.name)).toEqual(['wrap', 'a', 'b']);
    expect(collapsed.every((r) => r.hasChildren)).toBe(true);
    const big = sandwichRows([sandwich(base, key)!.callers, sandwich(run, key)!.callers], { minShare: 0.5 });
    expect(big.map((r) => r.name)).toEqual(['wrap', 'agent', 'main']);
  });
});
