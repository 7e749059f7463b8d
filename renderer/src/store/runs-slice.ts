import type { StateCreator } from 'zustand';
import { ALL_THREADS, hasThreadRoots, threadView } from '../../../shared/model/threads';
import type { Profile } from '../../../shared/model/types';
import type { Measured } from '../../../shared/runs/measured';
import type { ImportedRepeats } from '../import/protocol';
import { type RemovedRun, runRemovedStep } from './run-removal';
import { pickBaseline, withNames } from './run-titles';
import type { AppState } from './store';

/** A run of several repeats (a folder of profiles of one variant): each repeat, and their mean. */
export interface Repeats extends ImportedRepeats {
  /** the mean of `profiles` (shared/model/mean): what the pane draws unless one repeat is chosen */
  mean: Profile;
}

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
  /** the profile shown: the whole file's, or the chosen thread's (`threadView(allThreads, thread)`) */
  profile?: Profile;
  /**
   * where the file has samples of several threads: all of them, each under a root frame of its
   * own (shared/model/threads), so that another thread is shown without reading the file again
   */
  allThreads?: Profile;
  /** with `allThreads`: the thread shown, `PID:TID`, or `all` */
  thread?: string;
  error?: string;
  /** where the run is several repeats of one variant: each of them and their mean */
  repeats?: Repeats;
  /** with `repeats`: the repeat shown alone (its index), or undefined for the mean */
  repeat?: number;
  /** what `flamelens record` measured of this variant under load, from the workspace it wrote */
  measured?: Measured;
}

export interface RunsSlice {
  runs: Run[];
  baselineId: string | undefined;
  /** the user picked the baseline (Make baseline): it is no longer found from the paths */
  userChoseBaseline: boolean;
  /** set when a drop or open would exceed MAX_RUNS */
  notice: string | undefined;
  /** runs taken away with ✕, kept while undo or redo can reach their removal */
  removedRuns: RemovedRun[];
  runAdded(id: string, fileName: string, path?: string): void;
  runProgressed(id: string, bytesRead: number, size: number | undefined): void;
  /** `thread`: `profile` holds every thread of the file and this one (`PID:TID` or `all`) is shown */
  runLoaded(id: string, profile: Profile, thread?: string, repeats?: ImportedRepeats): void;
  /** the user picked one repeat of a run of several to show alone, or (undefined) their mean again */
  repeatChosen(id: string, repeat: number | undefined): void;
  /** the user picked which thread of a run's file its pane shows */
  threadChosen(id: string, thread: string): void;
  runFailed(id: string, message: string): void;
  runRemoved(id: string): void;
  importCancelled(id: string): void;
  runMoved(id: string, by: -1 | 1): void;
  runRenamed(id: string, title: string): void;
  /** the figures measured of the run's variant under load (a recorded comparison's workspace) */
  runMeasured(id: string, measured: Measured): void;
  baselineChosen(id: string): void;
  noticeShown(text: string | undefined): void;
}

/**
 * What a run holds for a profile of every thread shown as `thread`; a profile of one thread (no
 * `thread`) as it is. A thread the profile does not have shows them all.
 */
function withThread(profile: Profile, thread: string | undefined): Pick<Run, 'profile' | 'allThreads' | 'thread'> {
  if (thread === undefined || !hasThreadRoots(profile)) return { profile, allThreads: undefined, thread: undefined };
  const view = threadView(profile, thread);
  return view ? { profile: view, allThreads: profile, thread } : { profile, allThreads: profile, thread: ALL_THREADS };
}

export const createRunsSlice: StateCreator<AppState, [], [], RunsSlice> = (set) => ({
  runs: [],
  baselineId: undefined,
  userChoseBaseline: false,
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
  runLoaded: (id, profile, thread, repeats) =>
    set((s) => ({
      runs: s.runs.map((r) =>
        r.id === id
          ? {
              ...r,
              status: 'ready' as const,
              ...withThread(profile, thread),
              ...(repeats ? { repeats: { ...repeats, mean: profile } } : {}),
            }
          : r,
      ),
    })),
  // A time range belongs to the profile it was picked on: it is cleared.
  repeatChosen: (id, repeat) =>
    set((s) => {
      const run = s.runs.find((r) => r.id === id);
      const all = run?.repeats;
      if (!all || run.repeat === repeat || (repeat !== undefined && !all.profiles[repeat])) return {};
      const ranges = { ...s.ranges };
      delete ranges[id];
      const shown = repeat === undefined ? { profile: all.mean, repeat: undefined } : { profile: all.profiles[repeat]!, repeat };
      return { runs: s.runs.map((r) => (r === run ? { ...r, ...shown } : r)), ranges };
    }),
  // A time range was picked on the samples of the thread shown before: it is cleared.
  threadChosen: (id, thread) =>
    set((s) => {
      const run = s.runs.find((r) => r.id === id);
      if (!run?.allThreads || run.thread === thread) return {};
      const ranges = { ...s.ranges };
      delete ranges[id];
      return { runs: s.runs.map((r) => (r === run ? { ...r, ...withThread(run.allThreads!, thread) } : r)), ranges };
    }),
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
  runMeasured: (id, measured) => set((s) => ({ runs: s.runs.map((r) => (r.id === id ? { ...r, measured } : r)) })),
  baselineChosen: (id) => set({ baselineId: id, userChoseBaseline: true }),
  noticeShown: (notice) => set({ notice }),
});
