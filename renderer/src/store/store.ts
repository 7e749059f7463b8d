/** The app's one store, built from slices; actions are named as events. */
import { create } from 'zustand';
import { type AnnotationsSlice, createAnnotationsSlice } from './annotations-slice';
import { type DiffSlice, createDiffSlice } from './diff-slice';
import { type PanelSlice, createPanelSlice } from './panel-slice';
import { type RangesSlice, createRangesSlice } from './ranges-slice';
import { type RunsSlice, createRunsSlice } from './runs-slice';
import { type SearchSlice, createSearchSlice } from './search-slice';
import { type ViewSlice, createViewSlice } from './view-slice';

export type AppState = RunsSlice & ViewSlice & SearchSlice & DiffSlice & RangesSlice & AnnotationsSlice & PanelSlice;

export const useStore = create<AppState>()((...a) => ({
  ...createRunsSlice(...a),
  ...createViewSlice(...a),
  ...createSearchSlice(...a),
  ...createDiffSlice(...a),
  ...createRangesSlice(...a),
  ...createAnnotationsSlice(...a),
  ...createPanelSlice(...a),
}));
