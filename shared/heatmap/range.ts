/**
 * Range views: the samples of a time range, as weights a flame graph can draw. Times are seconds
 * on the profile's clock, as in `heatmap.ts`.
 */
import { inTimeOrder } from '../model/sample-time';
import { addRangeWeights, sampleWeightReader } from '../model/sample-weights';
import { TIME_PIECE, timeReader, timeScratch, timeSlice } from '../model/sample-times';
import type { Profile, SampleTable } from '../model/types';
import { idleNodes } from './idle';

const US_PER_S = 1e6;

export interface RangeOptions {
  /** count idle samples too; left out by default, as in the heatmap */
  includeIdle?: boolean;
  /** `idleNodes(profile)` when already at hand */
  idle?: Uint8Array;
}

export interface RangeWeights {
  /** per call-tree node: weight of the selected samples whose stack ends there (profile's unit) */
  self: Float64Array;
  /** per call-tree node: `self` plus all descendants' (the width a flame graph draws) */
  total: Float64Array;
  /** samples selected */
  sampleCount: number;
}

/**
 * Sample indices selected by `keep(seconds)` among samples `from` … `to - 1` (all of them by
 * default); idle and untimed samples never pass.
 */
export function selectSamples(
  profile: Profile,
  options: RangeOptions,
  keep: (t: number) => boolean,
  from = 0,
  to = profile.samples?.length ?? 0,
): Int32Array {
  const s = profile.samples;
  if (!s || to <= from) return new Int32Array(0);
  const idle = options.includeIdle ? undefined : (options.idle ?? idleNodes(profile));
  const out = new Int32Array(to - from);
  let n = 0;
  const scratch = timeScratch();
  for (let lo = from; lo < to; lo += TIME_PIECE) {
    const time = timeSlice(s, lo, Math.min(to, lo + TIME_PIECE), scratch);
    for (let i = lo; i < lo + time.length; i++) {
      const us = time[i - lo]!;
      if (!Number.isFinite(us) || (idle && idle[s.node[i]!])) continue;
      if (keep(us / US_PER_S)) out[n++] = i;
    }
  }
  return out.slice(0, n);
}

/** The first index from which `before(seconds)` is false, for times where it is true up to some index. */
function firstNotBefore(s: SampleTable, before: (t: number) => boolean): number {
  const time = timeReader(s);
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(time(mid) / US_PER_S)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Sums the given samples' weights into per-node self and total weights. */
export function weightsOfSamples(profile: Profile, indices: ArrayLike<number>): RangeWeights {
  const { tree } = profile;
  const s = profile.samples;
  const self = new Float64Array(tree.length);
  const weight = s && sampleWeightReader(s, profile.unit);
  if (s) for (let k = 0; k < indices.length; k++) self[s.node[indices[k]!]!]! += weight!(indices[k]!);
  // Children come after their parent in pre-order, so one backward pass adds subtrees up.
  const total = self.slice();
  for (let i = tree.length - 1; i > 0; i--) total[tree.parent[i]!]! += total[i]!;
  return { self, total, sampleCount: indices.length };
}

/**
 * Indices (into `profile.samples`) of the samples taken in [t0, t1), in seconds on the profile's
 * clock, in recorded order; idle samples left out unless asked for.
 */
export function samplesInRange(profile: Profile, t0: number, t1: number, options: RangeOptions = {}): Int32Array {
  const keep = (t: number) => t >= t0 && t < t1;
  const s = profile.samples;
  // samples in time order: only those between the range's ends are looked at (a range of a
  // 10 M-sample capture is picked while the pointer is still on it)
  if (!s || !inTimeOrder(s)) return selectSamples(profile, options, keep);
  return selectSamples(
    profile,
    options,
    keep,
    firstNotBefore(s, (t) => t < t0),
    firstNotBefore(s, (t) => t < t1),
  );
}

/** The profile as if only the samples taken in [t0, t1) seconds existed: per-node self and total weights. */
export function rangeWeights(profile: Profile, t0: number, t1: number, options: RangeOptions = {}): RangeWeights {
  const s = profile.samples;
  if (!s || !inTimeOrder(s)) return weightsOfSamples(profile, samplesInRange(profile, t0, t1, options));
  // In time order, the samples between the range's ends are the range: their weights are summed
  // in one pass, in the order `weightsOfSamples` sums them, without a list of them in between.
  const from = firstNotBefore(s, (t) => t < t0);
  const to = firstNotBefore(s, (t) => t < t1);
  const idle = options.includeIdle ? undefined : (options.idle ?? idleNodes(profile));
  const { tree } = profile;
  const self = new Float64Array(tree.length);
  const sampleCount = addRangeWeights(s, profile.unit, from, to, self, idle);
  const total = self.slice();
  for (let i = tree.length - 1; i > 0; i--) total[tree.parent[i]!]! += total[i]!;
  return { self, total, sampleCount };
}
