/**
 * The time-order view (a flame chart, as speedscope's "Time Order" and Chrome DevTools'
 * Performance panel draw it): a run's samples in time order, each stack drawn downwards from its
 * outermost frame; consecutive samples with the same call path down to a depth are one box at
 * that depth. Times are microseconds from the run's start (`TimeAxis.origin`), so the start-up
 * phases of several runs line up on one axis.
 *
 * Nothing is worked out ahead for the whole run: a draw looks at no more samples than it has
 * columns of pixels. Where a window holds more samples than columns, each column stands for the
 * sample taken at its middle, so a box narrower than a column is either drawn a column wide or
 * not at all (the boxes a person can see are exact to a column); where it holds fewer, every
 * sample is drawn with its own extent. A draw is O(columns × depth) whatever the run's size, and
 * `boxExtent` finds a box's exact time span when asked (a click, a tooltip).
 *
 * A sample lasts until the next one (the last one the mean interval), as `sample-time.ts` weighs
 * samples, except where samples have a period and the next one is more than `LATE` periods away:
 * then it lasts one period, and a gap follows. perf's `cpu-clock` samples are taken only while
 * the thread runs, each standing for one period of CPU time (its weight), so a thread asleep for
 * seconds between two of them shows a gap, not the sample before it stretched over the sleep
 * (speedscope draws that stretch); a next sample a little late (the clock's jitter, a short
 * preemption) still continues the stack. The period of samples weighed in events or counted
 * (perf's `cycles`, a capture without periods) is the usual interval between a thread's samples;
 * V8's profiles have none (V8 samples idle time too). Idle samples (`idleNodes`) are gaps too.
 */
import type { Profile } from '../model/types';
import { inTimeOrder } from '../model/sample-time';
import { timeReader } from '../model/sample-times';
import { sampleWeights } from '../model/sample-weights';

/** A run's samples as the chart reads them. */
export interface TimeAxis {
  /** the run's start in µs on its clock: `meta.startTime`, else its first sample's time */
  origin: number;
  /** sample `i`'s time in µs on the run's clock, ascending (`timeReader`) */
  time: (i: number) => number;
  /** each sample's leaf node */
  node: Int32Array;
  /** sample `i`'s period, µs (see the file's comment); absent: every sample lasts until the next */
  period?: (i: number) => number;
  /** how long the last sample lasts (the mean interval, or its period where less), µs */
  lastDuration: number;
  /** µs from `origin` to the end of the last sample */
  span: number;
  /** per call-tree node: 1 for idle samples' leaves */
  idle: Uint8Array;
  /** per call-tree node, pre-order (a node's descendants are `i+1 … end[i]-1`) */
  parent: Int32Array;
  depth: Int32Array;
  end: Int32Array;
}

/** Why a run has no time-order chart. */
export interface NoTimeAxis {
  reason: string;
}

/** The run's samples on a time axis, or why it has none. `idle`: `idleNodes(p)`. */
export function timeAxis(p: Profile, idle: Uint8Array): TimeAxis | NoTimeAxis {
  const s = p.samples;
  if (p.kind === 'heap' || p.kind === 'allocations') return { reason: 'no times: allocations are not samples in time' };
  if (!s || s.length === 0)
    return { reason: p.kind === 'spans' ? 'no sample times: this file has spans only' : 'no sample times in this format' };
  // every time known, and so in time order (the model sorts them): one look at them, kept
  if (!inTimeOrder(s)) return { reason: 'no sample times: some samples have no timestamp' };
  const time = timeReader(s);
  const first = time(0);
  const start = p.meta.startTime;
  const origin = start !== undefined && start <= first ? start : first;
  const period = periodOf(p, time);
  // the mean interval (`meanInterval`), from the ends
  const mean = s.length > 1 ? (time(s.length - 1) - first) / (s.length - 1) : 0;
  const lastDuration = period ? Math.min(mean || Infinity, period(s.length - 1)) : mean;
  return {
    origin,
    time,
    node: s.node,
    ...(period ? { period } : {}),
    lastDuration,
    span: time(s.length - 1) + lastDuration - origin,
    idle,
    parent: p.tree.parent,
    depth: p.tree.depth,
    end: p.tree.end,
  };
}

export function hasTimeAxis(a: TimeAxis | NoTimeAxis): a is TimeAxis {
  return 'time' in a;
}

/** A sample whose next comes more than this many periods later lasts one period (see the file's comment). */
export const LATE = 1.5;

/** How many samples' intervals `usualInterval` looks at: enough for a steady median, from the start. */
const USUAL_OF = 100_000;

/**
 * Each sample's period (see the file's comment), or undefined where samples last until the next
 * one: only perf samples a thread while it runs; V8's profilers (.cpuprofile, a trace's samples)
 * sample idle time too.
 */
function periodOf(p: Profile, time: (i: number) => number): ((i: number) => number) | undefined {
  const s = p.samples!;
  if (p.format !== 'perf-script') return undefined;
  if (p.unit === 'nanoseconds') {
    const w = sampleWeights(s, p.unit);
    return (i) => w[i]! / 1000;
  }
  const usual = usualInterval(time, s.length, s.thread);
  return usual > 0 ? () => usual : undefined;
}

/**
 * The median interval between consecutive samples of one thread, µs, over the first `USUAL_OF`
 * samples (0 with none): the sampling period where the file does not say it. Intervals between
 * samples of different threads (taken at the same tick on several processors) are not intervals.
 */
function usualInterval(time: (i: number) => number, n: number, thread: ArrayLike<number> | undefined): number {
  const m = Math.min(n, USUAL_OF);
  const lastOf = new Map<number, number>();
  const gaps = new Float64Array(m);
  let k = 0;
  for (let i = 0; i < m; i++) {
    const th = thread ? thread[i]! : 0;
    const before = lastOf.get(th);
    const t = time(i);
    if (before !== undefined && t > before) gaps[k++] = t - before;
    lastOf.set(th, t);
  }
  if (k === 0) return 0;
  const sorted = gaps.subarray(0, k).sort();
  return sorted[k >> 1]!;
}

/** When sample `i` starts and ends, µs from the origin. */
export function sampleSpan(a: TimeAxis, i: number): [number, number] {
  const t = a.time(i) - a.origin;
  if (i + 1 >= a.node.length) return [t, t + a.lastDuration];
  const next = a.time(i + 1) - a.origin;
  if (!a.period) return [t, next];
  const period = a.period(i);
  return [t, next - t > LATE * period ? t + period : next];
}

/**
 * The last sample that starts at or before `t` (µs from the origin), -1 when none. Samples come
 * at a steady rate, so the search starts where the rate puts `t` and widens from there: a few
 * looks into a column of 10 M times instead of 24 far-apart ones, which is what a draw of a long
 * run costs (one search per column of pixels).
 */
export function sampleAt(a: TimeAxis, t: number): number {
  const abs = t + a.origin;
  const time = a.time;
  const n = a.node.length;
  if (n === 0 || time(0) > abs) return -1;
  if (time(n - 1) <= abs) return n - 1;
  // time[lo] <= abs < time[hi], found by steps that double from the guess
  const guess = Math.min(n - 2, Math.max(0, Math.floor(((abs - time(0)) / (time(n - 1) - time(0))) * (n - 1))));
  let lo: number;
  let hi: number;
  if (time(guess) <= abs) {
    lo = guess;
    let step = 1;
    hi = Math.min(n - 1, guess + step);
    while (time(hi) <= abs) {
      lo = hi;
      step *= 2;
      hi = Math.min(n - 1, guess + step);
    }
  } else {
    hi = guess;
    let step = 1;
    lo = Math.max(0, guess - step);
    while (time(lo) > abs) {
      hi = lo;
      step *= 2;
      lo = Math.max(0, guess - step);
    }
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (time(mid) <= abs) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** A box of the chart: the call-tree node at `depth` of consecutive samples, from `x0` to `x1` µs. */
export interface ChartBox {
  depth: number;
  node: number;
  x0: number;
  x1: number;
  /** a sample the box holds, for `boxExtent` */
  sample: number;
}

/** A sample standing for a stretch of the window: its index and the stretch, µs from the origin. */
interface Rep {
  sample: number;
  x0: number;
  x1: number;
}

/** The samples the window [t0, t1) is drawn from with `columns` columns (see the file's comment). */
function representatives(a: TimeAxis, t0: number, t1: number, columns: number): Rep[] {
  const reps: Rep[] = [];
  const from = Math.max(0, sampleAt(a, t0));
  const to = sampleAt(a, t1);
  if (to < 0) return reps;
  if (to - from + 1 <= columns) {
    for (let i = from; i <= to; i++) {
      const [x0, x1] = sampleSpan(a, i);
      if (x1 > t0 && x0 < t1 && !a.idle[a.node[i]!]) reps.push({ sample: i, x0, x1 });
    }
    return reps;
  }
  const w = (t1 - t0) / columns;
  let lastSample = -1;
  let lastColumn = -2;
  for (let c = 0; c < columns; c++) {
    const mid = t0 + (c + 0.5) * w;
    const i = sampleAt(a, mid);
    if (i < 0 || sampleSpan(a, i)[1] <= mid || a.idle[a.node[i]!]) continue;
    // the same sample as the column before: one stretch
    if (i === lastSample && c === lastColumn + 1) reps[reps.length - 1]!.x1 = t0 + (c + 1) * w;
    else reps.push({ sample: i, x0: t0 + c * w, x1: t0 + (c + 1) * w });
    lastSample = i;
    lastColumn = c;
  }
  return reps;
}

/** The path of a sample: `path[d]` its node at depth d (1 … its leaf's depth). Returns the leaf's depth. */
function pathOf(a: TimeAxis, leaf: number, path: Int32Array): number {
  const deepest = a.depth[leaf]!;
  for (let n = leaf; n > 0; n = a.parent[n]!) path[a.depth[n]!] = n;
  return deepest;
}

/**
 * The boxes of the window [t0, t1) (µs from the origin) drawn `columns` wide, each clipped to the
 * window, down to `maxDepth` (the rows in view). Consecutive stretches merge at a depth where they
 * have the same node (the same call path down to it); a gap (idle, no sample) ends every box.
 */
export function chartBoxes(a: TimeAxis, t0: number, t1: number, columns: number, maxDepth = Infinity): ChartBox[] {
  const out: ChartBox[] = [];
  if (!(t1 > t0) || columns < 1) return out;
  const reps = representatives(a, t0, t1, Math.floor(columns));
  let deepestLeaf = 0;
  for (const r of reps) deepestLeaf = Math.max(deepestLeaf, a.depth[a.node[r.sample]!]!);
  const path = new Int32Array(deepestLeaf + 1);
  // the box open at each depth (index into `out`), -1 when none
  const open = new Int32Array(deepestLeaf + 1).fill(-1);
  let openDepth = 0;
  let prevEnd = NaN;
  for (const r of reps) {
    const deepest = Math.min(maxDepth, pathOf(a, a.node[r.sample]!, path));
    const joined = r.x0 === prevEnd;
    let d = 1;
    // the boxes this stretch continues: same node at each depth from the top, with no gap between
    if (joined) while (d <= deepest && d <= openDepth && out[open[d]!]!.node === path[d]) d++;
    for (let k = 1; k < d; k++) out[open[k]!]!.x1 = Math.min(r.x1, t1);
    for (; d <= deepest; d++) {
      open[d] = out.length;
      out.push({ depth: d, node: path[d]!, x0: Math.max(r.x0, t0), x1: Math.min(r.x1, t1), sample: r.sample });
    }
    openDepth = deepest;
    prevEnd = r.x1;
  }
  return out;
}

/**
 * The exact time span of the box of `node` holding sample `sample`: the consecutive non-idle
 * samples around it, with no gap between, whose stacks pass through `node`. µs from the origin,
 * and how many samples.
 */
export function boxExtent(a: TimeAxis, node: number, sample: number): { x0: number; x1: number; samples: number } {
  const end = a.end[node]!;
  const inside = (i: number) => {
    const leaf = a.node[i]!;
    return leaf >= node && leaf < end && !a.idle[leaf];
  };
  // (a sample that ends before the next starts leaves a gap, which ends the box)
  const joined = (i: number) => sampleSpan(a, i)[1] === sampleSpan(a, i + 1)[0];
  let lo = sample;
  let hi = sample;
  while (lo > 0 && inside(lo - 1) && joined(lo - 1)) lo--;
  while (hi + 1 < a.node.length && inside(hi + 1) && joined(hi)) hi++;
  return { x0: sampleSpan(a, lo)[0], x1: sampleSpan(a, hi)[1], samples: hi - lo + 1 };
}

/** The deepest stack of the run's call tree: how many rows its lane may have. */
export function maxDepthOf(a: TimeAxis): number {
  let m = 0;
  for (let i = 0; i < a.depth.length; i++) if (a.depth[i]! > m) m = a.depth[i]!;
  return m;
}
