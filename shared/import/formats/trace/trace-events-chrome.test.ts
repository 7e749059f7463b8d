/** Trace events importer on Chrome traces with CPU samples: the sampled thread, sample and event counts, and speedscope's totals. */
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../model/types';
import { readText } from '../../../../test/support/files';
import { type RawEvent, SPEEDSCOPE, frameName, load, speedscopeProfiles } from '../../../../test/support/trace-events';
import { readV8Profiles } from '../../../../test/support/v8-raw';
import { timeColumn } from '../../../model/sample-times';

/**
 * speedscope's weighting of Chrome samples (chrome.ts): consecutive samples of one node are one
 * run; a run lasts until the next run's time (times held back from going backwards); `(idle)`
 * and `(root)` runs are idle; the profile's total is its recorded duration or, when longer, the
 * time of the last stack change.
 */
function speedscopeChromeWeights(
  p: Profile,
  s: { length: number; node: ArrayLike<number>; time: ArrayLike<number> },
): { total: number; nonIdle: number } {
  const idle = (node: number) => {
    const name = frameName(p, node);
    return node === 0 || name === '(idle)' || name === '(root)' || p.frames.file[p.tree.frame[node]!] === 'native dummy.js';
  };
  const runs: { node: number; time: number }[] = [];
  let lastValid = -Infinity;
  const push = (node: number, t: number) => {
    if (t < lastValid) t = lastValid;
    else lastValid = t;
    runs.push({ node, time: t });
  };
  let maxTime = -Infinity;
  for (let i = 0; i < s.length; i++) {
    if (i === 0 || s.node[i] !== s.node[i - 1]) push(s.node[i]!, s.time[i]!);
    maxTime = Math.max(maxTime, s.time[i]!);
  }
  // speedscope closes with the node of the sample before the last, at the last time.
  if (s.length > 1) push(s.node[s.length - 2]!, s.time[s.length - 1]!);
  let nonIdle = 0;
  let prev = -1;
  let lastChange = -Infinity;
  for (let k = 0; k < runs.length; k++) {
    const stack = idle(runs[k]!.node) ? -1 : runs[k]!.node;
    if (stack !== prev) lastChange = runs[k]!.time;
    prev = stack;
    if (k + 1 < runs.length && stack >= 0) nonIdle += runs[k + 1]!.time - runs[k]!.time;
  }
  // Frames still open at the end close at the last time.
  if (prev >= 0) lastChange = runs[runs.length - 1]!.time;
  const start = p.meta.startTime!;
  const recordedEnd = p.meta.endTime! > maxTime ? p.meta.endTime! : -Infinity;
  return { total: Math.max(recordedEnd, lastChange) - start, nonIdle };
}

/**
 * The thread's samples in the order the file has them: the model keeps them in time order (a
 * stable sort of the file's times), and speedscope reads them as recorded. The raw times come
 * from the file's own JSON; the same stable sort maps each to its place in the model.
 */
function recordedOrder(p: Profile, path: string, pid: string, tid: string) {
  const s = p.samples!;
  const raw = readV8Profiles(path).filter((r) => r.pid === pid && r.tid === tid);
  const times = raw.flatMap((r) => r.times);
  if (times.length !== s.length) return { ...s, time: timeColumn(s) }; // (old CpuProfile events: written in time order)
  const sorted = times.map((_, i) => i).sort((a, b) => times[a]! - times[b]! || a - b);
  const node = new Int32Array(s.length);
  sorted.forEach((i, k) => (node[i] = s.node[k]!));
  return { length: s.length, node, time: times };
}

describe('trace events: Chrome traces with CPU samples', () => {
  const chrome = [
    ['Chrome/65/simple-timeline.json', 'simple-timeline.json'],
    ['Chrome/66/worker.json', 'worker.json - CrRendererMain'],
    ['Chrome/69/simple.json', 'simple.json'],
    ['Chrome/70/worker.json', 'worker.json - CrRendererMain'],
    ['Chrome/116/Trace-20230603T221323.json', 'Trace-20230603T221323.json'],
    // speedscope also lists an empty second profile on the same thread (an artefact; see MANIFEST).
    ['Chrome/141/no-arg-data.json', 'no-arg-data.json - CrRendererMain'],
    ['source-maps/chrome-85-esbuild.json', 'chrome-85-esbuild.json'],
  ] as const;

  /** Events in the file, and samples of the chosen thread, counted straight from the JSON. */
  function countInFile(path: string, pid: string, tid: string): { events: number; samples: number } {
    const raw = JSON.parse(readText(path));
    const events: RawEvent[] = raw.traceEvents ?? raw;
    const ids = new Set<string>();
    let samples = 0;
    for (const e of events) {
      if (String(e.pid) !== pid || String(e.tid) !== tid) continue;
      if (e.name === 'CpuProfile') samples += e.args!.data!.cpuProfile!.samples!.length;
      if (e.name === 'Profile') ids.add(`${e.pid}:${e.id}`);
    }
    for (const e of events) {
      if (e.name === 'ProfileChunk' && ids.has(`${e.pid}:${e.id}`)) samples += e.args?.data?.cpuProfile?.samples?.length ?? 0;
    }
    return { events: events.length, samples };
  }

  for (const [f, profileName] of chrome) {
    it(`matches speedscope's totals for ${f}`, async () => {
      const path = `${SPEEDSCOPE}/${f}`;
      const want = speedscopeProfiles(path).find((e) => e.name === profileName)!;
      for (const name of [f.split('/').pop()!, '']) {
        const p = await load(path, name, 4096);
        expect([p.kind, p.unit]).toEqual(['sampled', 'samples']);
        expect(p.meta.producer).toBe('Chrome DevTools trace');
        expect(p.meta.thread).toMatch(/^CrRendererMain \(/);
        const [pid, tid] = /\((\S+)\/(\S+)\)$/.exec(p.meta.thread!)!.slice(1) as [string, string];
        const inFile = countInFile(path, pid, tid);
        expect(p.samples!.length).toBe(inFile.samples);
        expect(p.traceStats!.reduce((n, st) => n + st.count, 0)).toBe(inFile.events);
        expect(p.tree.total[0]).toBe(p.samples!.length);
        const got = speedscopeChromeWeights(p, recordedOrder(p, path, pid, tid));
        expect(got.nonIdle).toBeCloseTo(want.total_non_idle_weight, 3);
        expect(got.total).toBeCloseTo(want.total_weight, 3);
      }
    });
  }

  it('shows the main thread of a trace with a worker and warns about the worker', async () => {
    const p = await load(`${SPEEDSCOPE}/Chrome/70/worker.json`, '');
    expect(p.meta.thread).toBe('CrRendererMain (29018/775)');
    expect(p.meta.warnings).toContain('samples of 1 other thread(s) are not shown: DedicatedWorker thread (29018/7443) (1400 samples)');
  });

  it('skips chunks without data (Chrome 141)', async () => {
    const p = await load(`${SPEEDSCOPE}/Chrome/141/no-arg-data.json`, '');
    expect(p.meta.warnings).toContain('2 CPU profile event(s) without data were skipped');
  });
});
