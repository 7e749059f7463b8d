/** One thread out of a profile that holds them all, and one profile made of per-thread files. */
import { describe, expect, it } from 'vitest';
import { importProfile } from '../import/import-profile';
import { fileSource, fixturePath } from '../test/files';
import { checkProfile } from './integrity';
import { ALL_THREADS, mergeThreads, threadKey, threadView } from './threads';
import type { Profile } from './types';
import { weighByDefault } from './weigh';

const TRACE = fixturePath('corpus/devtools-frontend/two-workers.json.gz');
const CPU_A = fixturePath('samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile');
const CPU_B = fixturePath('samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile');

/** Total weight by call path (frame names from the root), the way the panes compare runs. */
function byPath(p: Profile): Map<string, number> {
  const path: string[] = [''];
  const out = new Map<string, number>();
  for (let i = 1; i < p.tree.length; i++) {
    path[i] = `${path[p.tree.parent[i]!]!};${p.frames.name[p.tree.frame[i]!]!}`;
    out.set(path[i]!, (out.get(path[i]!) ?? 0) + p.tree.total[i]!);
  }
  return out;
}

function expectSameProfile(got: Profile, want: Profile): void {
  expect(checkProfile(got)).toEqual([]);
  expect(got.samples!.length).toBe(want.samples!.length);
  expect(got.tree.total[0]).toBeCloseTo(want.tree.total[0]!, 3);
  const a = byPath(got);
  const b = byPath(want);
  expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
  for (const [k, v] of b) expect(a.get(k)!).toBeCloseTo(v, 3);
  expect(Array.from(got.samples!.time)).toEqual(Array.from(want.samples!.time));
}

describe('threadView', () => {
  it('gives each thread of a trace as the import of that thread alone gives it', async () => {
    const all = weighByDefault(await importProfile(fileSource(TRACE), { options: { thread: ALL_THREADS } }));
    expect(all.meta.threads).toHaveLength(3);
    expect(threadView(all, ALL_THREADS)).toBe(all);
    for (const t of all.meta.threads!) {
      const one = weighByDefault(await importProfile(fileSource(TRACE), { options: { thread: threadKey(t) } }));
      const view = threadView(all, threadKey(t))!;
      expectSameProfile(view, one);
      expect(view.meta.thread).toBe(one.meta.thread);
      expect(view.meta.threads![0]).toEqual(t);
      expect(view.samples!.thread).toBeUndefined();
    }
    expect(threadView(all, '1:2')).toBeUndefined();
  });
});

describe('mergeThreads', () => {
  it('puts each file under its thread root, and gives each back weighed by its own samples', async () => {
    const a = await importProfile(fileSource(CPU_A));
    const b = await importProfile(fileSource(CPU_B));
    const infos = [
      { pid: '6118', tid: '0', name: 'main', samples: a.samples!.length, seconds: 1 },
      { pid: '6118', tid: '1', name: 'worker', samples: b.samples!.length, seconds: 1 },
    ];
    const merged = weighByDefault(
      mergeThreads('CPU.6118', [
        { profile: a, info: infos[0]! },
        { profile: b, info: infos[1]! },
      ]),
    );
    expect(checkProfile(merged)).toEqual([]);
    expect(merged.unit).toBe('microseconds');
    expect(merged.samples!.length).toBe(a.samples!.length + b.samples!.length);
    const roots: string[] = [];
    for (let i = 1; i < merged.tree.length; i++) if (merged.tree.parent[i] === 0) roots.push(merged.frames.name[merged.tree.frame[i]!]!);
    expect(roots).toEqual(['main 6118/0', 'worker 6118/1']);
    const times = Array.from(merged.samples!.time);
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expectSameProfile(threadView(merged, '6118:0')!, weighByDefault(a));
    expectSameProfile(threadView(merged, '6118:1')!, weighByDefault(b));
    expect(threadView(merged, '6118:1')!.meta.thread).toBe('worker (6118/1)');
  });
});
