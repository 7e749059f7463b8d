import type { StateCreator } from 'zustand';
import type { Normalize } from '../../../shared/diff/diff';
import type { DiffStatus } from '../../../shared/diff/diff';
import type { AppState } from './store';

/**
 * How run panes are drawn against the baseline:
 * - `off`: frame categories;
 * - `diff`: each run's own tree, coloured by how much wider (red) or narrower (blue) each frame
 *   is than in the baseline, new frames in their own colour;
 * - `removed`: the opposite view — each pane draws the baseline's tree coloured against that run,
 *   so frames the run no longer has show up;
 * - `merged`: one merged tree per run (the union of both, as wide as the wider side).
 */
export type DiffView = 'off' | 'diff' | 'removed' | 'merged';

export interface DiffSlice {
  diffView: DiffView;
  normalize: Normalize;
  diffMeasure: 'total' | 'self';
  /** noise threshold in percent (relative: percentage points; absolute: % of the baseline's total) */
  noisePercent: number;
  /** whether each run's entry script is matched with the baseline's as the same frame (shared/diff/entry-script) */
  matchEntry: boolean;
  /** the run whose functions the diff table lists */
  tableRunId: string | undefined;
  tableStatus: DiffStatus | 'all';
  diffViewChosen(v: DiffView): void;
  normalizeChosen(n: Normalize): void;
  diffMeasureChosen(m: 'total' | 'self'): void;
  noiseChosen(percent: number): void;
  entryMatchingChosen(on: boolean): void;
  tableRunChosen(id: string): void;
  tableStatusChosen(s: DiffStatus | 'all'): void;
}

export const createDiffSlice: StateCreator<AppState, [], [], DiffSlice> = (set) => ({
  diffView: 'off',
  normalize: 'absolute',
  diffMeasure: 'total',
  noisePercent: 0.1,
  matchEntry: true,
  tableRunId: undefined,
  tableStatus: 'all',
  diffViewChosen: (diffView) => set({ diffView }),
  normalizeChosen: (normalize) => set({ normalize }),
  diffMeasureChosen: (diffMeasure) => set({ diffMeasure }),
  noiseChosen: (p) => set({ noisePercent: Number.isFinite(p) && p >= 0 ? p : 0 }),
  entryMatchingChosen: (matchEntry) => set({ matchEntry }),
  tableRunChosen: (tableRunId) => set({ tableRunId }),
  tableStatusChosen: (tableStatus) => set({ tableStatus }),
});
