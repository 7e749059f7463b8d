import type { StateCreator } from 'zustand';
import type { AppState } from './store';

export type Layout = 'rows' | 'columns';
export type Orientation = 'flame' | 'icicle';
export type SortMode = 'name' | 'weight';
export type Palette = 'default' | 'colorblind';

export interface ViewSlice {
  /** frame keys from the root to the focused frame, shared by every pane */
  focus: string[];
  /** frame key under the pointer in any pane, outlined in every pane (panes subscribe; React does not re-render on it) */
  hoveredKey: string | null;
  layout: Layout;
  orientation: Orientation;
  sort: SortMode;
  palette: Palette;
  /** the run whose pane fills the comparison while the others shrink to their headers and figures */
  maximizedRunId: string | null;
  /** heights the user dragged panes to in the rows layout, in pixels, by run (the others share the rest) */
  paneHeights: Record<string, number>;
  pathFocused(keys: string[]): void;
  frameHovered(key: string | null): void;
  focusReset(): void;
  focusUp(): void;
  layoutChosen(layout: Layout): void;
  orientationChosen(o: Orientation): void;
  sortChosen(s: SortMode): void;
  paletteChosen(p: Palette): void;
  /** maximises a run's pane, or (null) gives every pane its share again */
  paneMaximized(runId: string | null): void;
  /** sets a pane's height, or (null) gives it its share again */
  paneResized(runId: string, height: number | null): void;
}

export const createViewSlice: StateCreator<AppState, [], [], ViewSlice> = (set) => ({
  focus: [],
  hoveredKey: null,
  layout: 'rows',
  orientation: 'flame',
  sort: 'name',
  palette: 'default',
  maximizedRunId: null,
  paneHeights: {},
  pathFocused: (keys) => set({ focus: keys }),
  frameHovered: (hoveredKey) => set({ hoveredKey }),
  focusReset: () => set({ focus: [] }),
  focusUp: () => set((s) => ({ focus: s.focus.slice(0, -1) })),
  layoutChosen: (layout) => set({ layout }),
  orientationChosen: (orientation) => set({ orientation }),
  sortChosen: (sort) => set({ sort }),
  paletteChosen: (palette) => set({ palette }),
  paneMaximized: (maximizedRunId) => set({ maximizedRunId }),
  paneResized: (runId, height) =>
    set((s) => {
      const paneHeights = { ...s.paneHeights };
      if (height === null) delete paneHeights[runId];
      else paneHeights[runId] = Math.round(height);
      return { paneHeights };
    }),
});
