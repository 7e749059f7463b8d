/**
 * Derived data, computed by shared/ functions and memoized per profile (and per time range) —
 * never stored.
 */
import {
  type DiffOptions,
  type DiffSummary,
  type Normalize,
  type ProfileDiff,
  DiffError,
  diffProfiles,
  summarizeDiff,
} from '../../../shared/diff/diff';
import { commonUnit } from '../../../shared/diff/measure';
import { type DiffIndex, indexDiff } from '../../../shared/diff/diff-query';
import { type EntryMatch, entryMatch, withEntryMatched } from '../../../shared/diff/entry-script';
import { mergedProfile } from '../../../shared/diff/merged-profile';
import {
  type Density,
  type Heatmap,
  type RangeWeights,
  coarserDensity,
  density,
  heatmap,
  idleNodes,
  rangeWeights,
  selectionWeights,
} from '../../../shared/heatmap/heatmap';
import type { Profile } from '../../../shared/model/types';
import { weighProfile, weighable } from '../../../shared/model/weigh';
import { type Totals, busyWeights, runTotals } from '../../../shared/search/busy';
import { type MatchShare, compileQuery, matchFrames, matchShare } from '../../../shared/search/matcher';
import { type FunctionStats, functionStats } from '../../../shared/view/function-stats';
import { type ViewOptions, type ViewTree, buildViewTree, filteredTotals } from '../../../shared/view/view-tree';
import type { TimeRange } from './ranges-slice';
import type { FilterMode } from './search-slice';

export interface SearchResult {
  matches?: Uint8Array;
  share?: MatchShare;
  /** per-node totals to draw when the filter is "only" or "hide" */
  totals?: Float64Array;
  error?: string;
}

/** A one-entry cache per object: the last key asked for and its value. */
function lastOf<K extends object, V>() {
  const cache = new WeakMap<K, { key: unknown; value: V }>();
  return (obj: K, key: unknown, make: () => V): V => {
    const hit = cache.get(obj);
    if (hit && hit.key === key) return hit.value;
    const value = make();
    cache.set(obj, { key, value });
    return value;
  };
}

const rangeCache = lastOf<Profile, RangeWeights | undefined>();
const heatmapCache = lastOf<Profile, Heatmap>();
const densityCache = lastOf<Profile, Density>();

export function heatmapFor(p: Profile, rows: number, includeIdle = false): Heatmap {
  return heatmapCache(p, `${rows}:${includeIdle}`, () => heatmap(p, { rows, includeIdle }));
}

/**
 * The run's sample density in `buckets` bars (a divisor of `DENSITY_BUCKETS`, see
 * `densityBucketsNear`): summed from the density the import worker worked out, so the window
 * never walks every sample for it; worked out here only for profiles made without it.
 */
export function densityFor(p: Profile, buckets: number): Density {
  return densityCache(p, buckets, () => (p.density ? coarserDensity(p.density, buckets) : density(p, buckets)));
}

/** The run's weights within its time range (undefined: the whole run). */
export function rangeFor(p: Profile, range: TimeRange | undefined): RangeWeights | undefined {
  return rangeCache(p, range, () => {
    if (!range) return undefined;
    if (range.cells) return selectionWeights(p, heatmapFor(p, range.cells.rows, range.cells.includeIdle), range.cells.a, range.cells.b);
    return rangeWeights(p, range.start, range.end);
  });
}

const totalsCache = lastOf<Profile, Totals>();

/** The run's total, idle and busy weight (within its time range when there is one). */
export function totalsFor(p: Profile, rw?: RangeWeights): Totals {
  return totalsCache(p, rangeId(rw), () => runTotals(p, rw?.self, idleNodes(p)));
}

const busyCache = lastOf<Profile, Float64Array>();

/** Per-node self weights with idle samples left out (within the time range when there is one). */
export function busyFor(p: Profile, rw?: RangeWeights): Float64Array {
  return busyCache(p, rangeId(rw), () => busyWeights(p, rw?.self, idleNodes(p)));
}

const searchCache = lastOf<Profile, SearchResult>();

/** Search matches, and the share they own of the run's busy CPU (idle samples left out). */
export function searchFor(p: Profile, query: string, mode: FilterMode, rw?: RangeWeights): SearchResult {
  return searchCache(p, `${mode}\u0000${query}\u0000${rangeId(rw)}`, () => {
    const q = compileQuery(query);
    if (!q) return {};
    const matches = matchFrames(p, q.match);
    const result: SearchResult = { matches, share: matchShare(p, matches, busyFor(p, rw)) };
    if (q.error) result.error = q.error;
    if (mode !== 'highlight') result.totals = filteredTotals(p, matches, mode, rw?.self);
    return result;
  });
}

/** A stable id per range-weights object, for cache keys. */
const rangeIds = new WeakMap<RangeWeights, number>();
let nextRangeId = 1;
function rangeId(rw: RangeWeights | undefined): number {
  if (!rw) return 0;
  let id = rangeIds.get(rw);
  if (id === undefined) rangeIds.set(rw, (id = nextRangeId++));
  return id;
}

const statsCache = new WeakMap<Profile, FunctionStats>();

export function statsFor(p: Profile): FunctionStats {
  let s = statsCache.get(p);
  if (!s) statsCache.set(p, (s = functionStats(p)));
  return s;
}

/** A pane's view tree, timed with a User Timing entry (DevTools; scripts/bench-ui.mjs reads it). */
export function viewTreeFor(p: Profile, opts: ViewOptions): ViewTree {
  const t0 = performance.now();
  const tree = buildViewTree(p, opts);
  performance.measure('flamelens:view-tree', { start: t0 });
  return tree;
}

const comparedCache = new WeakMap<Profile, { baseline: Profile; match: EntryMatch | undefined; profile: Profile }>();

function comparedEntry(run: Profile, baseline: Profile): { match: EntryMatch | undefined; profile: Profile } {
  const hit = comparedCache.get(run);
  if (hit?.baseline === baseline) return hit;
  const match = entryMatch(baseline, run);
  const out = { baseline, match, profile: match ? withEntryMatched(run, match) : run };
  comparedCache.set(run, out);
  return out;
}

/**
 * A run as it is compared with the baseline: with entry scripts matched (the default), its
 * entry script's frames carry the baseline's keys, so that the diff, the diff table, zoom and
 * hover take them for the same frames; otherwise, and for the baseline itself, the run as it is.
 */
export function comparedProfile(run: Profile, baseline: Profile | undefined, matchEntry: boolean): Profile {
  if (!baseline || !matchEntry || run === baseline) return run;
  return comparedEntry(run, baseline).profile;
}

/** The entry scripts matched between the baseline and a run, when there are any to match. */
export function entryMatchFor(run: Profile, baseline: Profile): EntryMatch | undefined {
  return run === baseline ? undefined : comparedEntry(run, baseline).match;
}

export interface DiffResult {
  diff?: ProfileDiff;
  index?: DiffIndex;
  /** largest |delta| over the merged tree, the scale of colour intensity */
  maxDelta: { total: number; self: number };
  /** why there is no diff (units that cannot be compared) */
  error?: string;
}

/** One value per pair of profiles (baseline, run), made again when the key it was made for changes. */
class PairCache<T> {
  private readonly byBase = new WeakMap<Profile, WeakMap<Profile, { key: string; value: T }>>();
  /** the value kept for the pair, whatever its key */
  entry(a: Profile, b: Profile): { key: string; value: T } | undefined {
    return this.byBase.get(a)?.get(b);
  }
  get(a: Profile, b: Profile, key: string, make: () => T): T {
    const hit = this.entry(a, b);
    if (hit?.key === key) return hit.value;
    let byRun = this.byBase.get(a);
    if (!byRun) this.byBase.set(a, (byRun = new WeakMap()));
    const value = make();
    byRun.set(b, { key, value });
    return value;
  }
}

const diffCache = new PairCache<{ pair: string; result: DiffResult }>();

/** What a comparison's totals depend on: the normalization and each side's range. */
const pairKey = (normalize: Normalize, baseRange?: RangeWeights, runRange?: RangeWeights) =>
  `${normalize}:${rangeId(baseRange)}:${rangeId(runRange)}`;

/**
 * How the app compares two runs, each within its time range: idle left out ("what does the
 * agent cost" is about the time the process worked, and idle, 60% of a lightly loaded baseline,
 * would swamp it); entry scripts matched by the caller, on the run it passes (`comparedProfile`);
 * a run weighed by time against one that can only count samples (folded stacks, perf script
 * without periods) compared whole by sample count.
 */
function comparedPair(
  baseline: Profile,
  run: Profile,
  normalize: Normalize,
  noisePercent: number,
  baseRange?: RangeWeights,
  runRange?: RangeWeights,
) {
  const opts: DiffOptions = { normalize, threshold: noisePercent / 100, excludeIdle: true, matchEntry: false };
  if (baseRange) opts.baselineWeights = baseRange.self;
  if (runRange) opts.runWeights = runRange.self;
  const counted =
    !commonUnit(baseline.unit, run.unit) && !baseRange && !runRange && weighable(baseline, 'samples') && weighable(run, 'samples');
  return counted ? { b: weighProfile(baseline, 'samples'), r: weighProfile(run, 'samples'), opts } : { b: baseline, r: run, opts };
}

/** The run against the baseline (`comparedPair`): the aligned trees, their index and the colour scale. */
export function diffFor(
  baseline: Profile,
  run: Profile,
  normalize: Normalize,
  noisePercent: number,
  baseRange?: RangeWeights,
  runRange?: RangeWeights,
): DiffResult {
  const pair = pairKey(normalize, baseRange, runRange);
  return diffCache.get(baseline, run, `${pair}:${noisePercent}`, () => {
    try {
      const { b, r, opts } = comparedPair(baseline, run, normalize, noisePercent, baseRange, runRange);
      const diff = diffProfiles(b, r, opts);
      let total = 0;
      let self = 0;
      for (let i = 1; i < diff.tree.length; i++) {
        total = Math.max(total, Math.abs(diff.tree.deltaTotal[i]!));
        self = Math.max(self, Math.abs(diff.tree.deltaSelf[i]!));
      }
      return { pair, result: { diff, index: indexDiff(diff), maxDelta: { total, self } } };
    } catch (e) {
      if (!(e instanceof DiffError)) throw e;
      return { pair, result: { maxDelta: { total: 0, self: 0 }, error: e.message } };
    }
  }).result;
}

export interface CostResult {
  summary?: DiffSummary;
  /** why the runs do not compare (units that cannot be compared) */
  error?: string;
}

const costCache = new PairCache<CostResult>();

/**
 * The run's cost against the baseline and why they may not compare, as `diffFor` would give them,
 * without aligning the trees: a pane states it whether or not it draws the diff. The diff's own
 * figures where it has been made.
 */
export function costFor(
  baseline: Profile,
  run: Profile,
  normalize: Normalize,
  baseRange?: RangeWeights,
  runRange?: RangeWeights,
): CostResult {
  const key = pairKey(normalize, baseRange, runRange);
  const made = diffCache.entry(baseline, run)?.value;
  if (made?.pair === key) return made.result.diff ? { summary: made.result.diff } : { error: made.result.error };
  return costCache.get(baseline, run, key, () => {
    try {
      const { b, r, opts } = comparedPair(baseline, run, normalize, 0, baseRange, runRange);
      return { summary: summarizeDiff(b, r, opts) };
    } catch (e) {
      if (!(e instanceof DiffError)) throw e;
      return { error: e.message };
    }
  });
}

const mergedCache = new WeakMap<ProfileDiff, Profile>();

/** The merged diff tree of a diff, as a profile to draw. */
export function mergedFor(d: ProfileDiff, baseline: Profile, run: Profile): Profile {
  let m = mergedCache.get(d);
  if (!m) mergedCache.set(d, (m = mergedProfile(d, baseline, run)));
  return m;
}
