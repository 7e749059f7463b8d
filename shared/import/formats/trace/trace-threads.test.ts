/** Every thread of a trace with samples: listed, chosen, or all shown, on DevTools' two-workers recording. */
import { describe, expect, it } from 'vitest';
import { collapse } from '../../../model/collapse';
import { checkProfile } from '../../../model/integrity';
import type { Profile } from '../../../model/types';
import { weighProfile } from '../../../model/weigh';
import { fileSource, fixturePath } from '../../../../test/support/files';
import { rawDurations, readV8Profiles } from '../../../../test/support/v8-raw';
import { ImportError } from '../../errors';
import { importProfile } from '../../import-profile';

const FILE = fixturePath('corpus/devtools-frontend/two-workers.json.gz');
const load = (thread?: string) => importProfile(fileSource(FILE), thread === undefined ? {} : { options: { thread } });
const raw = readV8Profiles(FILE);
const rawOf = (tid: string) => raw.find((r) => r.tid === tid)!;
const span = (tid: string) => Math.max(...rawOf(tid).times) - Math.min(...rawOf(tid).times);

function rootNames(p: Profile): string[] {
  const out: string[] = [];
  for (let i = 1; i < p.tree.length; i++) if (p.tree.parent[i] === 0) out.push(p.frames.name[p.tree.frame[i]!]!);
  return out;
}

describe('threads of a trace', () => {
  it('shows the main thread by default and lists every thread with its raw sample count and span', async () => {
    const p = await load();
    expect(checkProfile(p)).toEqual([]);
    expect(p.meta.thread).toBe('CrRendererMain (71044/259)');
    expect(p.meta.threads!.map((t) => [t.pid, t.tid, t.name, t.samples])).toEqual([
      ['71044', '259', 'CrRendererMain', 16881],
      ['71044', '37651', 'DedicatedWorker thread', 8104],
      ['71044', '35351', 'DedicatedWorker thread', 8103],
    ]);
    for (const t of p.meta.threads!) {
      expect(t.samples).toBe(rawOf(t.tid).ids.length);
      expect(t.seconds).toBeCloseTo(span(t.tid) / 1e6, 6);
    }
  });

  it('shows the thread asked for, by ids or by name', async () => {
    const worker = await load('71044:37651');
    expect(worker.meta.thread).toBe('DedicatedWorker thread (71044/37651)');
    expect(worker.samples!.length).toBe(8104);
    expect(worker.meta.threads![0]!.tid).toBe('37651');
    expect(worker.meta.warnings).toContain(
      'samples of 2 other thread(s) are not shown: CrRendererMain (71044/259) (16881 samples), DedicatedWorker thread (71044/35351) (8103 samples)',
    );
    const named = await load('DedicatedWorker thread');
    expect(named.meta.thread).toMatch(/^DedicatedWorker thread \(71044\/(37651|35351)\)$/);
    expect((await load('CrRendererMain')).meta.thread).toBe('CrRendererMain (71044/259)');
  });

  it('shows all threads, each under a root frame, each weighed by its own samples', async () => {
    const p = await load('all');
    expect(checkProfile(p)).toEqual([]);
    expect(p.meta.thread).toBe('all 3 threads');
    expect(rootNames(p)).toEqual(['CrRendererMain 71044/259', 'DedicatedWorker thread 71044/37651', 'DedicatedWorker thread 71044/35351']);
    expect(p.samples!.length).toBe(16881 + 8104 + 8103);
    const t = weighProfile(p, 'time');
    expect(checkProfile(t)).toEqual([]);
    for (let i = 1; i < t.tree.length; i++) {
      if (t.tree.parent[i] !== 0) continue;
      const tid = /\/(\d+)$/.exec(t.frames.name[t.tree.frame[i]!]!)![1]!;
      // the thread's own samples in time order, the last one its own mean interval
      const want = rawDurations(rawOf(tid)).reduce((a, b) => a + b, 0);
      expect(Math.abs(t.tree.total[i]! - want)).toBeLessThanOrEqual(0.001 * want);
    }
  });

  it('keeps every thread when asked to keep them, naming the one shown without a choice; a file of one thread as it is', async () => {
    const kept = await importProfile(fileSource(FILE), { options: { keepThreads: true } });
    const all = await load('all');
    expect(checkProfile(kept)).toEqual([]);
    expect(kept.meta.thread).toBe('all 3 threads');
    expect(kept.meta.defaultThread).toBe('71044:259');
    expect(rootNames(kept)).toEqual(rootNames(all));
    expect(Array.from(kept.samples!.thread!)).toEqual(Array.from(all.samples!.thread!));
    const ONE = fixturePath('corpus/devtools-frontend/recursive-counting-js.json.gz');
    const one = await importProfile(fileSource(ONE), { options: { keepThreads: true } });
    const plain = await importProfile(fileSource(ONE));
    expect(one.meta).toEqual(plain.meta);
    expect(collapse(one)).toEqual(collapse(plain));
  });

  it('names the threads there are when the one asked for is not there', async () => {
    const e = await load('9:9').then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ImportError);
    expect((e as Error).message).toContain(
      'no thread "9:9" has samples in this file; its threads: CrRendererMain 71044:259 (16881 samples)',
    );
  });
});
