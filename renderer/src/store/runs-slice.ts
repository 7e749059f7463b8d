import type { StateCreator } from 'zustand';
import { annotationStep } from '../../../shared/annotate/annotations';
import type { Profile } from '../../../shared/model/types';
import type { AppState } from './store';

export const MAX_RUNS = 6;

export interface Run {
  id: string;
  /** pane title, the file name unless the user renamed it */
  title: string;
  fileName: string;
  status: 'loading' | 'ready' | 'error';
  bytesRead?: number;
  size?: number;
  profile?: Profile;
  error?: string;
}

export interface RunsSlice {
  runs: Run[];
  baselineId: string | undefined;
  /** set when a drop or open would exceed MAX_RUNS */
  notice: string | undefined;
  runAdded(id: string, fileName: string): void;
  runProgressed(id: string, bytesRead: number, size: number | undefined): void;
  runLoaded(id: string, profile: Profile): void;
  runFailed(id: string, message: string): void;
  runRemoved(id: string): void;
  runMoved(id: string, by: -1 | 1): void;
  runRenamed(id: string, title: string): void;
  baselineChosen(id: string): void;
  noticeShown(text: string | undefined): void;
}

const looksLikeBaseline = (name: string) => /base[-_ ]?line|\bbase\b|\bcontrol\b|\bbefore\b/i.test(name);

/** First run by default; a file whose name says baseline wins when it arrives. */
function pickBaseline(runs: Run[], current: string | undefined): string | undefined {
  const named = runs.find((r) => looksLikeBaseline(r.fileName));
  if (named) return named.id;
  if (current && runs.some((r) => r.id === current)) return current;
  return runs[0]?.id;
}

export const createRunsSlice: StateCreator<AppState, [], [], RunsSlice> = (set) => ({
  runs: [],
  baselineId: undefined,
  notice: undefined,
  runAdded: (id, fileName) =>
    set((s) => {
      const runs = [...s.runs, { id, title: fileName, fileName, status: 'loading' as const }];
      return { runs, baselineId: s.userChoseBaseline ? s.baselineId : pickBaseline(runs, s.baselineId) };
    }),
  runProgressed: (id, bytesRead, size) =>
    set((s) => ({ runs: s.runs.map((r) => (r.id === id ? { ...r, bytesRead, ...(size !== undefined ? { size } : {}) } : r)) })),
  runLoaded: (id, profile) =>
    set((s) => ({ runs: s.runs.map((r) => (r.id === id ? { ...r, status: 'ready' as const, profile } : r)) })),
  runFailed: (id, message) =>
    set((s) => ({ runs: s.runs.map((r) => (r.id === id ? { ...r, status: 'error' as const, error: message } : r)) })),
  runRemoved: (id) =>
    set((s) => {
      const runs = s.runs.filter((r) => r.id !== id);
      const ranges = { ...s.ranges };
      delete ranges[id];
      // Notes pinned to this run's pane alone go with it (undo brings them back).
      const annotationHistory = annotationStep(s.annotationHistory, { type: 'runRemoved', runId: id });
      return { runs, ranges, annotationHistory, baselineId: s.baselineId === id ? runs[0]?.id : s.baselineId };
    }),
  runMoved: (id, by) =>
    set((s) => {
      const i = s.runs.findIndex((r) => r.id === id);
      const j = i + by;
      if (i < 0 || j < 0 || j >= s.runs.length) return {};
      const runs = [...s.runs];
      [runs[i], runs[j]] = [runs[j]!, runs[i]!];
      return { runs };
    }),
  runRenamed: (id, title) =>
    set((s) => ({ runs: s.runs.map((r) => (r.id === id ? { ...r, title: title.trim() || r.fileName } : r)) })),
  baselineChosen: (id) => set({ baselineId: id, userChoseBaseline: true }),
  noticeShown: (notice) => set({ notice }),
});
