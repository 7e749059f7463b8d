/**
 * Changes across repeated runs: where the baseline and a run are both several repeats (and both
 * draw their mean), every function's change with its 95% interval and whether it holds up
 * against run-to-run noise (shared/diff/repeats), computed once per pair and setting. The
 * weights are the diff's: busy CPU (idle left out), absolute or as shares of each repeat's
 * total as the diff's normalization says, self or total as its measure says, entry scripts
 * matched as the diff matches them.
 */
import type { Normalize } from '../../../shared/diff/diff';
import { type FunctionChange, type RepeatsComparison, compareRepeats } from '../../../shared/diff/repeats';
import { loadedTDistribution, tDistributionSettled } from '../../../shared/diff/t-distribution';
import type { Profile } from '../../../shared/model/types';
import { baselineRunOf } from './compared-with';
import { busyFor, comparedProfile } from './derived';
import type { Repeats, Run } from './runs-slice';

export interface RepeatsResult {
  stats: RepeatsComparison;
  /** each function's change by frame key */
  byKey: Map<string, FunctionChange>;
}

/** The repeats a run compares with: two or more, and the run draws their mean (not one repeat alone). */
export function comparableRepeats(run: Run | undefined): Repeats | undefined {
  const r = run?.repeats;
  return r && r.profiles.length >= 2 && run.repeat === undefined ? r : undefined;
}

const cache = new WeakMap<Repeats, WeakMap<Repeats, { key: string; result: RepeatsResult }>>();

/**
 * Resolves once runs of repeats can be compared across them (their statistics' code is loaded
 * on demand, ../../../shared/diff/t-distribution): a run of repeats enters the store after it.
 * Where it fails to load, such runs show as others do, without intervals.
 */
export const repeatStatisticsLoaded = tDistributionSettled;

/**
 * The run's repeats against the baseline's, or undefined where either side is not several
 * repeats (or the statistics' code is not loaded: see `repeatStatisticsLoaded`).
 */
export function repeatsFor(
  baseline: Run | undefined,
  run: Run,
  normalize: Normalize,
  measure: 'total' | 'self',
  matchEntry: boolean,
): RepeatsResult | undefined {
  const base = comparableRepeats(baseline);
  const own = comparableRepeats(run);
  const t = loadedTDistribution();
  if (!base || !own || base === own || !t) return undefined;
  const key = `${normalize}:${measure}:${matchEntry}`;
  let byRun = cache.get(base);
  if (!byRun) cache.set(base, (byRun = new WeakMap()));
  const hit = byRun.get(own);
  if (hit?.key === key) return hit.result;
  const runProfiles = own.profiles.map((p) => comparedProfile(p, base.mean, matchEntry));
  const stats = compareRepeats(t, base.profiles, runProfiles, {
    measure,
    relative: normalize === 'relative',
    weights: (p: Profile) => busyFor(p),
  });
  const result = { stats, byKey: new Map(stats.functions.map((f) => [f.key, f])) };
  byRun.set(own, { key, result });
  return result;
}

/** Whether a function's change holds up across the repeats; true where there are no repeats to say otherwise. */
export function beyondNoise(r: RepeatsResult | undefined, key: string): boolean {
  if (!r) return true;
  return r.byKey.get(key)?.significant === true;
}

/**
 * How many repeats the runs compared across repeats have, in words (`5 runs each`; several pairs
 * that differ joined by `; `), or undefined where no run is: what the diff legend says.
 */
export function repeatsCounts(
  runs: readonly Run[],
  baselineId: string | undefined,
  normalize: Normalize,
  measure: 'total' | 'self',
  matchEntry: boolean,
): string | undefined {
  const counts = new Set<string>();
  for (const r of runs) {
    // each run with the run it is compared with (./compared-with)
    const baseline = baselineRunOf({ runs, baselineId }, r.id);
    const rep = baseline ? repeatsFor(baseline, r, normalize, measure, matchEntry) : undefined;
    if (rep) counts.add(countWords(rep.stats.repeats));
  }
  return counts.size > 0 ? [...counts].join('; ') : undefined;
}

/** `5 runs each`, or `5 and 4 runs` where the sides differ. */
export function countWords(r: RepeatsComparison['repeats']): string {
  return r.baseline === r.run ? `${r.baseline} runs each` : `${r.baseline} and ${r.run} runs`;
}
