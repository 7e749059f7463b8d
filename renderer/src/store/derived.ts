/**
 * Derived data, computed by shared/ functions and memoized per profile — never stored.
 */
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
