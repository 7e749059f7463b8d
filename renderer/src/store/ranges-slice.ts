import type { StateCreator } from 'zustand';
import type { Cell } from '../../../shared/heatmap/heatmap';
import type { AppState } from './store';

/**
 * A time range of one run, in seconds on its profile's clock, [start, end). A range picked on the
 * heatmap also keeps its cells: the samples drawn in those cells are then exactly the ones used.
 */
export interface TimeRange {
  start: number;
  end: number;
  cells?: { a: Cell; b: Cell; rows: number; includeIdle: boolean };
}

export interface RangesSlice {
  /** each run's own range (steady state of the baseline against steady state of an agent run) */
  ranges: Record<string, TimeRange>;
  /** the run whose heatmap is open */
  heatmapRunId: string | undefined;
  rangeSelected(runId: string, range: TimeRange): void;
  rangeCleared(runId: string): void;
  heatmapOpened(runId: string | undefined): void;
}

export const createRangesSlice: StateCreator<AppState, [], [], RangesSlice> = (set) => ({
  ranges: {},
  heatmapRunId: undefined,
  rangeSelected: (runId, range) => set((s) => ({ ranges: { ...s.ranges, [runId]: range } })),
  rangeCleared: (runId) =>
    set((s) => {
      const ranges = { ...s.ranges };
      delete ranges[runId];
      return { ranges };
    }),
  heatmapOpened: (heatmapRunId) => set({ heatmapRunId }),
});
