/**
 * Sample times, and the one rule that turns them into time weights.
 *
 * Samples are kept in time order: V8 writes some out of order (a negative `timeDeltas` entry,
 * `…,1203,-35,1270,…` in Chrome's ProfileChunk events), and Chrome DevTools'
 * `CPUProfileDataModel.sortSamples` puts them back in order, stably, before anything is weighed.
 * `CallTreeBuilder.finish` does the same with `timeOrder`, for every importer.
 *
 * A sample stands for its stack from its own time until the next sample's; the last sample has no
 * successor and lasts the mean interval, (last − first) / (n − 1), as in DevTools'
 * `normalizeTimestamps`. So a thread's time total is its sampled span plus one mean interval.
 * speedscope weighs differently (a run of equal samples kept at its first time, times clamped
 * instead of sorted, the last sample 0), so its totals can be a little lower.
 */
import { TIME_PIECE, timeReader, timeScratch, timeSlice } from './sample-times';
import { timeSummary } from './time-summary';
import type { Profile, SampleTable } from './types';

/**
 * The stable permutation that puts `time` in ascending order, or undefined when it already is
 * (the usual case, checked in one pass) or when some time is unknown (NaN: such a sample has no
 * place in time, and the recorded order is the best there is).
 */
export function timeOrder(time: ArrayLike<number>): Int32Array | undefined {
  const n = time.length;
  let sorted = true;
  for (let i = 0; i < n; i++) {
    const t = time[i]!;
    if (Number.isNaN(t)) return undefined;
    if (i > 0 && t < time[i - 1]!) sorted = false;
  }
  if (sorted) return undefined;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  // Ties keep their recorded order: Array.prototype.sort is stable, and the index breaks ties anyway.
  order.sort((a, b) => time[a]! - time[b]! || a - b);
  return order;
}

/**
 * The mean interval between samples in microseconds, over the samples with a time (of thread
 * `thread` only, when given); 0 with fewer than two.
 */
export function meanInterval(s: SampleTable, thread?: number): number {
  if (thread === undefined || (!s.thread && thread === 0)) {
    const { known, first, last } = timeSummary(s);
    return known > 1 ? (last - first) / (known - 1) : 0;
  }
  const threads = s.thread;
  if (!threads) return 0;
  let first = NaN;
  let last = NaN;
  let known = 0;
  const scratch = timeScratch();
  for (let lo = 0; lo < s.length; lo += TIME_PIECE) {
    const time = timeSlice(s, lo, Math.min(s.length, lo + TIME_PIECE), scratch);
    for (let i = lo; i < lo + time.length; i++) {
      const t = time[i - lo]!;
      if (Number.isNaN(t) || threads[i] !== thread) continue;
      if (known++ === 0) first = t;
      last = t;
    }
  }
  return known > 1 ? (last - first) / (known - 1) : 0;
}

/**
 * How long each sample lasted, in microseconds: until the next sample of its thread, the last
 * one of each thread that thread's mean interval. Samples must be in time order (as the model
 * keeps them); a sample with an unknown time, or followed by one, lasts 0. Reads only the times,
 * so `into` may be the table's own weight column.
 */
export function sampleDurations(s: SampleTable, into?: Float64Array): Float64Array {
  // `into`: where to write them (the table's own weight column, when nothing else holds it)
  const d = into ? into.fill(0) : new Float64Array(s.length);
  const n = s.length;
  const time = timeReader(s);
  if (!s.thread) {
    // One thread (the usual case, and millions of samples in a big profile): a plain pass.
    const scratch = timeScratch();
    for (let lo = 0; lo + 1 < n; lo += TIME_PIECE) {
      const hi = Math.min(n - 1, lo + TIME_PIECE);
      const t = timeSlice(s, lo, hi + 1, scratch);
      for (let i = lo; i < hi; i++) {
        const w = t[i - lo + 1]! - t[i - lo]!;
        d[i] = w > 0 ? w : 0;
      }
    }
    if (n > 0 && !Number.isNaN(time(n - 1))) d[n - 1] = meanInterval(s);
    return d;
  }
  // the latest sample of each thread so far
  const prev = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const k = s.thread?.[i] ?? 0;
    const p = prev.get(k);
    if (p !== undefined) {
      const w = time(i) - time(p);
      d[p] = w > 0 ? w : 0;
    }
    prev.set(k, i);
  }
  for (const [k, last] of prev) if (!Number.isNaN(time(last))) d[last] = meanInterval(s, s.thread ? k : undefined);
  return d;
}

/**
 * Self weight of every call-tree node in microseconds, from the sample table; usable wherever a
 * weight column is taken (`collapse(p, sampleTimeSelf(p)!)`). Undefined when the profile has no
 * samples.
 */
export function sampleTimeSelf(p: Profile): Float64Array | undefined {
  const s = p.samples;
  if (!s) return undefined;
  const self = new Float64Array(p.tree.length);
  const d = sampleDurations(s);
  for (let i = 0; i < s.length; i++) self[s.node[i]!]! += d[i]!;
  return self;
}

/**
 * Whether every time is known and none is before the one before it: what the model keeps when
 * every sample has a time (see `timeOrder`). Worked out once per column of times.
 */
export function inTimeOrder(s: SampleTable): boolean {
  return timeSummary(s).ascending;
}

/** Whether every sample has a time, so that time weights can be worked out. */
export function hasSampleTimes(s: SampleTable | undefined): s is SampleTable {
  return !!s && s.length > 0 && timeSummary(s).known === s.length;
}

/** Earliest and latest timestamps in µs (Infinity / -Infinity when none). */
export function timeBounds(s: SampleTable): [number, number] {
  const { lo, hi } = timeSummary(s);
  return [lo, hi];
}
