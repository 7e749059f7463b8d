/** One thread out of a profile that holds them all, and one profile made of per-thread files. */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importProfile } from '../import/import-profile';
import { fileSource, fixturePath } from '../../test/support/files';
import { checkProfile } from './integrity';
import { collapse } from './collapse';
import { ALL_THREADS, THREADS_TOGETHER, mergeThreads, threadKey, threadView } from './threads';
import type { Profile } from './types';
import { weighByDefault } from './weigh';
import { timeColumn } from './sample-times';

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
  expect(Array.from(timeColumn(got.samples!))).toEqual(Array.from(timeColumn(want.samples!)));
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

/**
 * Folded lines, except where Java frames make the import of every thread label frames otherwise:
 * `stackcollapse-perf.pl` keeps a Java class's leading `L` with `--tid` (`Lorg/apache/…:::sendbb`)
 * and drops it by default, and the import of every thread labels frames as `--tid` does
 * (FlameGraph's perf-java-faults-01 results): the Java captures' call paths are compared by name.
 */
const folded = (f: string, p: Profile) => (/java|vertx/.test(f) ? [] : collapse(p));

describe('threadView: every thread together', () => {
  it("gives a perf capture's threads together, or one thread, as the import without thread roots gives them", async () => {
    const files = [
      'samples/ddtrace/perf.script.txt',
      ...readdirSync(fixturePath('corpus/FlameGraph/test'))
        .filter((n) => n.startsWith('perf-') && n.endsWith('.txt'))
        .map((n) => `corpus/FlameGraph/test/${n}`),
    ];
    let several = 0;
    for (const f of files) {
      const plain = await importProfile(fileSource(fixturePath(f)));
      const all = await importProfile(fileSource(fixturePath(f)), { options: { thread: ALL_THREADS } });
      if ((all.meta.threads?.length ?? 0) > 1) several++;
      const together = threadView(all, THREADS_TOGETHER)!;
      expect(checkProfile(together), f).toEqual([]);
      expect(folded(f, together), f).toEqual(folded(f, plain));
      expect(byPath(together), f).toEqual(byPath(plain));
      expect(Array.from(timeColumn(together.samples!)), f).toEqual(Array.from(timeColumn(plain.samples!)));
      expect(together.samples!.thread && Array.from(together.samples!.thread), f).toEqual(
        plain.samples!.thread && Array.from(plain.samples!.thread),
      );
      expect(together.meta.thread, f).toBe(plain.meta.thread);
      expect(together.meta.threads, f).toEqual(plain.meta.threads);
      // The app reads a capture once, as perf script is read by default: every view comes from that.
      const many = (all.meta.threads?.length ?? 0) > 1;
      expect(plain.meta.defaultThread, f).toBe(many ? THREADS_TOGETHER : undefined);
      if (many) {
        expect(threadView(plain, THREADS_TOGETHER), f).toBe(plain);
        const roots = threadView(plain, ALL_THREADS)!;
        expect(checkProfile(roots), f).toEqual([]);
        // a root per thread named as --tid names it (Java frames keep the names of the default reading)
        expect(folded(f, roots), f).toEqual(folded(f, all));
        if (!/java|vertx/.test(f)) expect(byPath(roots), f).toEqual(byPath(all));
        expect(Array.from(roots.samples!.thread!), f).toEqual(Array.from(all.samples!.thread!));
        expect(roots.meta.defaultThread, f).toBeUndefined();
        expect(threadView(roots, THREADS_TOGETHER)!.meta.defaultThread, f).toBe(THREADS_TOGETHER);
      }
      // and each thread alone as its import alone gives it, its process name at the root
      for (const t of (all.meta.threads ?? []).slice(0, 3)) {
        const one = await importProfile(fileSource(fixturePath(f)), { options: { thread: threadKey(t) } });
        for (const view of [threadView(all, threadKey(t))!, threadView(plain, threadKey(t))!]) {
          expect(checkProfile(view), f).toEqual([]);
          expect(folded(f, view), `${f} ${threadKey(t)}`).toEqual(folded(f, one));
          // (an import of one thread keeps the other threads' call paths, weighing nothing)
          const nonZero = (m: Map<string, number>) => new Map([...m].filter(([, v]) => v !== 0));
          expect(nonZero(byPath(view)), `${f} ${threadKey(t)}`).toEqual(nonZero(byPath(one)));
          expect(view.meta.thread).toBe(one.meta.thread);
          expect(view.meta.threads).toEqual(one.meta.threads);
          expect([view.meta.startTime, view.meta.endTime]).toEqual([one.meta.startTime, one.meta.endTime]);
        }
      }
    }
    expect(several).toBeGreaterThan(2);
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
    const times = Array.from(timeColumn(merged.samples!));
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expectSameProfile(threadView(merged, '6118:0')!, weighByDefault(a));
    expectSameProfile(threadView(merged, '6118:1')!, weighByDefault(b));
    expect(threadView(merged, '6118:1')!.meta.thread).toBe('worker (6118/1)');
  });
});
