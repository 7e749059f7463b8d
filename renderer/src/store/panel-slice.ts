import type { StateCreator } from 'zustand';
import type { AppState } from './store';

/**
 * The app's views of the open runs (tabs): synchronized flamegraphs, one function's sandwich, heap
 * classes, trace statistics, and every run's samples in time order.
 */
export type AppView = 'flamegraphs' | 'sandwich' | 'heap' | 'trace-stats' | 'time-order';

export interface PanelSlice {
  appView: AppView;
  /** the frame key of the function the sandwich view shows */
  sandwichKey: string | undefined;
  appViewChosen(view: AppView): void;
  /** shows the sandwich of the function with this frame key */
  sandwichShown(key: string): void;
}

export const createPanelSlice: StateCreator<AppState, [], [], PanelSlice> = (set) => ({
  appView: 'flamegraphs',
  sandwichKey: undefined,
  appViewChosen: (appView) => set({ appView }),
  sandwichShown: (sandwichKey) => set({ sandwichKey, appView: 'sandwich' }),
});
