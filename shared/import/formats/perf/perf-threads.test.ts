/** Threads of perf script captures: listed, one chosen, or all with a root frame each as `stackcollapse-perf.pl --tid` names them. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collapse } from '../../../model/collapse';
import { checkProfile } from '../../../model/integrity';
import { fileSource, fixturePath } from '../../../../test/support/files';
import { ImportError } from '../../errors';
import { importProfile } from '../../import-profile';

const PERF = fixturePath('samples/ddtrace/perf.script.txt');
const load = (path: string, thread?: string) => importProfile(fileSource(path), thread === undefined ? {} : { options: { thread } });

/** Samples and summed periods per thread id, read from the header lines (`node  6794  3297.854037:   10101010 cpu-clock:pppH:`). */
function rawThreads(path: string): Map<string, { comm: string; samples: number; period: number }> {
  const out = new Map<string, { comm: string; samples: number; period: number }>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^(\S.*?)\s+(\d+)\s+\d+\.\d+:\s+(\d+)\s+\S+:/.exec(line);
    if (!m) continue;
    const t = out.get(m[2]!) ?? { comm: m[1]!, samples: 0, period: 0 };
    t.samples++;
    t.period += Number(m[3]);
    out.set(m[2]!, t);
  }
  return out;
}

describe('perf script threads', () => {
  it('lists every thread with samples, counted as in the file, and shows them all by default', async () => {
    const p = await load(PERF);
    expect(checkProfile(p)).toEqual([]);
    const raw = rawThreads(PERF);
    expect(p.meta.thread).toBe(`all ${raw.size} threads`);
    expect(p.meta.threads!.map((t) => [t.tid, t.name, t.samples]).sort()).toEqual(
      [...raw].map(([tid, t]) => [tid, t.comm, t.samples]).sort(),
    );
    expect(p.meta.threads![0]!.tid).toBe('6794'); // the busiest first
    expect(p.samples!.length).toBe([...raw.values()].reduce((n, t) => n + t.samples, 0));
  });

  it('keeps one thread when asked, by its id or by name', async () => {
    const raw = rawThreads(PERF).get('6802')!;
    const p = await load(PERF, '6802');
    expect(checkProfile(p)).toEqual([]);
    expect(p.meta.thread).toBe('node (6802)');
    expect(p.samples!.length).toBe(raw.samples);
    expect(p.tree.total[0]).toBe(raw.period);
    expect(p.meta.warnings.at(-1)).toMatch(/^samples of \d+ other thread\(s\) are not shown: node \(6794\)/);
    expect((await load(PERF, 'node')).meta.thread).toBe('node (6794)');
    const e = await load(PERF, '1').then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ImportError);
    expect((e as Error).message).toMatch(/no thread "1" has samples in this file; its threads: node 6794 \(188 samples\)/);
  });

  it("names each thread's root as stackcollapse-perf.pl --tid does, with all threads", async () => {
    for (const f of ['perf-iperf-stacks-pidtid-01', 'perf-numa-stacks-01', 'perf-java-stacks-02']) {
      const p = await load(fixturePath(`corpus/FlameGraph/test/${f}.txt`), 'all');
      expect(checkProfile(p)).toEqual([]);
      const want = new Map(
        readFileSync(fixturePath(`corpus/FlameGraph/test/results/${f}-collapsed-tid.txt`), 'utf8')
          .trim()
          .split('\n')
          .map((l) => [l.slice(0, l.lastIndexOf(' ')), Number(l.slice(l.lastIndexOf(' ') + 1))]),
      );
      const got = new Map(collapse(p).map((l) => [l.slice(0, l.lastIndexOf(' ')), Number(l.slice(l.lastIndexOf(' ') + 1))]));
      // as on the default output, Flamelens keeps a last sample the script drops: at most one more
      let extra = 0;
      for (const [k, v] of got) extra += v - (want.get(k) ?? 0);
      expect(extra, f).toBeLessThanOrEqual(1);
      for (const [k, v] of want) expect(got.get(k)! - v, `${f}: ${k}`).toBeGreaterThanOrEqual(0);
    }
  });
});
