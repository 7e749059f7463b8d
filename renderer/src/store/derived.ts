/**
 * Derived data, computed by shared/ functions and memoized per profile — never stored.
 */
import { type Normalize, type ProfileDiff, DiffError, diffProfiles } from '../../../shared/diff/diff';
import { type DiffIndex, indexDiff } from '../../../shared/diff/diff-query';
import type { Profile } from '../../../shared/model/types';
import { type MatchShare, compileQuery, matchFrames, matchShare } from '../../../shared/search/matcher';
import { type FunctionStats, functionStats } from '../../../shared/view/function-stats';
import { type ViewOptions, type ViewTree, buildViewTree, filteredTotals } from '../../../shared/view/view-tree';
import type { FilterMode } from './search-slice';

export interface SearchResult {
  matches?: Uint8Array;
  share?: MatchShare;
  /** per-node totals to draw when the filter is "only" or "hide" */
  totals?: Float64Array;
  error?: string;
}

const searchCache = new WeakMap<Profile, { key: string; result: SearchResult }>();
const statsCache = new WeakMap<Profile, FunctionStats>();

export function searchFor(p: Profile, query: string, mode: FilterMode): SearchResult {
  const key = `${mode}\u0000${query}`;
  const hit = searchCache.get(p);
  if (hit?.key === key) return hit.result;
  const q = compileQuery(query);
  let result: SearchResult = {};
  if (q) {
    const matches = matchFrames(p, q.match);
    result = { matches, share: matchShare(p, matches) };
    if (q.error) result.error = q.error;
    if (mode !== 'highlight') result.totals = filteredTotals(p, matches, mode);
  }
  searchCache.set(p, { key, result });
  return result;
}

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

export interface DiffResult {
  diff?: ProfileDiff;
  index?: DiffIndex;
  /** largest |delta| over the merged tree, the scale of colour intensity */
  maxDelta: { total: number; self: number };
  /** why there is no diff (units that cannot be compared) */
  error?: string;
}

const diffCache = new WeakMap<Profile, WeakMap<Profile, { key: string; result: DiffResult }>>();

/**
 * The run against the baseline. Idle samples are left out: "what does the agent cost" is about
 * the time the process worked, and idle (60% of a lightly loaded baseline) would swamp it.
 */
export function diffFor(baseline: Profile, run: Profile, normalize: Normalize, noisePercent: number): DiffResult {
  const key = `${normalize}:${noisePercent}`;
  let byRun = diffCache.get(baseline);
  if (!byRun) diffCache.set(baseline, (byRun = new WeakMap()));
  const hit = byRun.get(run);
  if (hit?.key === key) return hit.result;
  let result: DiffResult;
  try {
    const diff = diffProfiles(baseline, run, { normalize, threshold: noisePercent / 100, excludeIdle: true });
    let total = 0;
    let self = 0;
    for (let i = 1; i < diff.tree.length; i++) {
      total = Math.max(total, Math.abs(diff.tree.deltaTotal[i]!));
      self = Math.max(self, Math.abs(diff.tree.deltaSelf[i]!));
    }
    result = { diff, index: indexDiff(diff), maxDelta: { total, self } };
  } catch (e) {
    if (!(e instanceof DiffError)) throw e;
    result = { maxDelta: { total: 0, self: 0 }, error: e.message };
  }
  byRun.set(run, { key, result });
  return result;
}
