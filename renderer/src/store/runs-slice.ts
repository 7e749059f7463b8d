import type { StateCreator } from 'zustand';
import type { Profile } from '../../../shared/model/types';
import { type RemovedRun, runRemovedStep } from './run-removal';
import { pickBaseline, withNames } from './run-titles';
import type { AppState } from './store';

export { MAX_RUNS } from './run-titles';

export interface Run {
  id: string;
  /** pane title: what tells this run's path apart from the other runs' (see shared/runs/run-names), or the user's */
  title: string;
  fileName: string;
  /** where the run came from: a full path (Open…, command line), a path within a drop; the file name when absent */
  path?: string;
  /** the user gave the run its title; it is no longer derived from the paths */
  renamed?: boolean;
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
  /** runs taken away with ✕, kept while undo or redo can reach their removal */
  removedRuns: RemovedRun[];
  runAdded(id: string, fileName: string, path?: string): void;
  runProgressed(id: string, bytesRead: number, size: number | undefined): void;
  runLoaded(id: string, profile: Profile): void;
  runFailed(id: string, message: string): void;
  runRemoved(id: string): void;
  importCancelled(id: string): void;
  runMoved(id: string, by: -1 | 1): void;
  runRenamed(id: string, title: string): void;
  baselineChosen(id: string): void;
  noticeShown(text: string | undefined): void;
}

export const createRunsSlice: StateCreator<AppState, [], [], RunsSlice> = (set) => ({
  runs: [],
  baselineId: undefined,
  notice: undefined,
  removedRuns: [],
  runAdded: (id, fileName, path) =>
    set((s) => {
      const runs = withNames([
        ...s.runs,
        { id, title: fileName, fileName, ...(path !== undefined ? { path } : {}), status: 'loading' as const },
      ]);
      return { runs, baselineId: pickBaseline(runs, s.baselineId, s.userChoseBaseline) };
    }),
  runProgressed: (id, bytesRead, size) =>
    set((s) => ({ runs: s.runs.map((r) => (r.id === id ? { ...r, bytesRead, ...(size !== undefined ? { size } : {}) } : r)) })),
  runLoaded: (id, profile) => set((s) => ({ runs: s.runs.map((r) => (r.id === id ? { ...r, status: 'ready' as const, profile } : r)) })),
  runFailed: (id, message) =>
    set((s) => ({ runs: s.runs.map((r) => (r.id === id ? { ...r, status: 'error' as const, error: message } : r)) })),
  runRemoved: (id) => set((s) => runRemovedStep(s, id)),
  // A cancelled import leaves nothing behind: no pane, no undo step.
  importCancelled: (id) =>
    set((s) => {
      if (!s.runs.some((r) => r.id === id)) return {};
      const runs = withNames(s.runs.filter((r) => r.id !== id));
      return { runs, baselineId: pickBaseline(runs, s.baselineId === id ? undefined : s.baselineId, s.userChoseBaseline) };
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
    set((s) => {
      const t = title.trim();
      // An empty title gives the run back its derived name.
      const runs = s.runs.map((r) =>
        r.id !== id ? r : t === '' ? { ...r, renamed: false } : t === r.title ? r : { ...r, title: t, renamed: true },
      );
      return { runs: withNames(runs) };
    }),
  baselineChosen: (id) => set({ baselineId: id, userChoseBaseline: true }),
  noticeShown: (notice) => set({ notice }),
});
