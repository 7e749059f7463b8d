/**
 * What the statistics view shows: grouping, threshold, filter, sort, which columns. Plain React
 * state behind a reducer whose actions are named as events, like the store's, so that moving it
 * into a store slice later (to keep it across tab switches) changes no caller.
 */
import { useReducer } from 'react';
import { DEFAULT_THRESHOLD, type Grouping, type SortKey, type SortOrder } from '../../../shared/stats/trace-table';

export interface StatsViewState {
  grouping: Grouping;
  /** the difference threshold in percent, as the user typed it (validated when used) */
  thresholdText: string;
  query: string;
  /** undefined: the table's own order (largest count in any run first) */
  sort: SortOrder | undefined;
  showBytes: boolean;
  showDuration: boolean;
  /** hide rows whose cells are all within the threshold */
  onlyDifferences: boolean;
}

export type StatsViewAction =
  | { type: 'groupingChosen'; grouping: Grouping }
  | { type: 'thresholdTyped'; text: string }
  | { type: 'queryTyped'; query: string }
  | { type: 'sortClicked'; key: SortKey }
  | { type: 'bytesToggled' }
  | { type: 'durationToggled' }
  | { type: 'onlyDifferencesToggled' };

export const INITIAL_STATS_VIEW: StatsViewState = {
  grouping: 'name',
  thresholdText: String(DEFAULT_THRESHOLD * 100),
  query: '',
  sort: undefined,
  showBytes: true,
  showDuration: true,
  onlyDifferences: false,
};

export function sameSortKey(a: SortKey, b: SortKey): boolean {
  if (a.by !== b.by) return false;
  if (a.by === 'value' || a.by === 'change') {
    const o = b as typeof a;
    return a.run === o.run && a.measure === o.measure;
  }
  return true;
}

/** Labels the grouping has: sorting by a column it no longer shows falls back to the default. */
function labelKept(key: SortKey, g: Grouping): boolean {
  if (key.by === 'name') return g === 'name';
  if (key.by === 'phase') return true; // every grouping shows phases
  if (key.by === 'category') return g !== 'phase';
  return true;
}

export function statsViewReducer(s: StatsViewState, a: StatsViewAction): StatsViewState {
  switch (a.type) {
    case 'groupingChosen':
      return { ...s, grouping: a.grouping, sort: s.sort && labelKept(s.sort.key, a.grouping) ? s.sort : undefined };
    case 'thresholdTyped':
      return { ...s, thresholdText: a.text };
    case 'queryTyped':
      return { ...s, query: a.query };
    case 'sortClicked': {
      // The same column again reverses it; a new one starts where a reader looks first:
      // names A→Z, figures largest first.
      if (s.sort && sameSortKey(s.sort.key, a.key)) return { ...s, sort: { key: a.key, descending: !s.sort.descending } };
      const label = a.key.by === 'category' || a.key.by === 'name' || a.key.by === 'phase';
      return { ...s, sort: { key: a.key, descending: !label } };
    }
    case 'bytesToggled':
      return { ...s, showBytes: !s.showBytes };
    case 'durationToggled':
      return { ...s, showDuration: !s.showDuration };
    case 'onlyDifferencesToggled':
      return { ...s, onlyDifferences: !s.onlyDifferences };
  }
}

/** The threshold as a fraction; the default when the text is not a number of 0 or more. */
export function thresholdOf(s: StatsViewState): number {
  const text = s.thresholdText.trim();
  const p = Number(text);
  return text !== '' && p >= 0 ? p / 100 : DEFAULT_THRESHOLD;
}

export function useStatsView() {
  return useReducer(statsViewReducer, INITIAL_STATS_VIEW);
}
