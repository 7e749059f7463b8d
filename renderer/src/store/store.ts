/** The app's one store, built from slices; actions are named as events. */
import { create } from 'zustand';
import { type RunsSlice, createRunsSlice } from './runs-slice';
import { type SearchSlice, createSearchSlice } from './search-slice';
import { type ViewSlice, createViewSlice } from './view-slice';

export type AppState = RunsSlice & ViewSlice & SearchSlice;

export const useStore = create<AppState>()((...a) => ({
  ...createRunsSlice(...a),
  ...createViewSlice(...a),
  ...createSearchSlice(...a),
}));
