/**
 * Removing a run (✕) as a step of the comparison's one undo history, so that one Ctrl/Cmd+Z
 * brings back the run — profile, place among the panes, baseline status, time range, title —
 * together with the notes pinned to its pane, which the same step took away.
 *
 * The annotation history keeps snapshots of the notes; a removal commits a snapshot of its own
 * (a fresh object even when no note went with the run) and remembers, next to it, what the run
 * was. Undoing to before that snapshot puts the run back; redoing to it takes it away again. The
 * runs themselves stay out of the snapshots: loading progress, new runs and renames are not undo
 * steps, and undoing a note must not touch them.
 */
import { type AnnotationDoc, annotationStep } from '../../../shared/annotate/annotations';
import { type History, commit, redo, undo } from '../../../shared/annotate/history';
import type { TimeRange } from './ranges-slice';
import { MAX_RUNS } from '../../../shared/runs/group-sources';
import { pickBaseline, withNames } from './run-titles';
import type { Run } from './runs-slice';
import type { AppState } from './store';

export interface RemovedRun {
  /** the annotation snapshot the removal committed: the history's present while the run is gone */
  doc: AnnotationDoc;
  run: Run;
  index: number;
  wasBaseline: boolean;
  userChoseBaseline: boolean;
  range?: TimeRange;
}

type Patch = Partial<AppState>;

function inHistory(h: History<AnnotationDoc>, doc: AnnotationDoc): boolean {
  return h.present === doc || h.past.includes(doc) || h.future.includes(doc);
}

/** The run taken out of the state, without any undo step. */
function without(s: AppState, id: string): Patch {
  const runs = s.runs.filter((r) => r.id !== id);
  const ranges = { ...s.ranges };
  delete ranges[id];
  const baselineId = pickBaseline(runs, s.baselineId === id ? undefined : s.baselineId, s.userChoseBaseline);
  return { runs: withNames(runs), ranges, baselineId, heatmapRunId: s.heatmapRunId === id ? undefined : s.heatmapRunId };
}

/** ✕ on a pane: the run goes, as one undo step with the notes pinned to it. */
export function runRemovedStep(s: AppState, id: string): Patch {
  const index = s.runs.findIndex((r) => r.id === id);
  const run = s.runs[index];
  if (!run) return {};
  // Notes pinned to this run's pane alone go with it.
  let annotationHistory = annotationStep(s.annotationHistory, { type: 'runRemoved', runId: id });
  if (run.status === 'loading') return { ...without(s, id), annotationHistory };
  if (annotationHistory === s.annotationHistory) annotationHistory = commit(s.annotationHistory, { ...s.annotationHistory.present });
  const removed: RemovedRun = {
    doc: annotationHistory.present,
    run,
    index,
    wasBaseline: s.baselineId === id,
    userChoseBaseline: s.userChoseBaseline,
  };
  const range = s.ranges[id];
  if (range) removed.range = range;
  // Removals no longer reachable by undo or redo are forgotten, and their profiles with them.
  const removedRuns = [...s.removedRuns.filter((r) => inHistory(annotationHistory, r.doc)), removed];
  return { ...without(s, id), annotationHistory, removedRuns };
}

/** The removal the next undo would take back, if the last step was one. */
export function undoableRemoval(s: Pick<AppState, 'removedRuns' | 'annotationHistory'>): RemovedRun | undefined {
  return s.removedRuns.find((r) => r.doc === s.annotationHistory.present);
}

/** Ctrl/Cmd+Z: the last step undone; a removed run comes back where it was. */
export function undoStep(s: AppState): Patch {
  const removed = undoableRemoval(s);
  const annotationHistory = undo(s.annotationHistory);
  if (!removed || s.runs.some((r) => r.id === removed.run.id)) return { annotationHistory };
  if (s.runs.length >= MAX_RUNS)
    return {
      notice: `${removed.run.title} cannot come back: Flamelens compares up to ${MAX_RUNS} runs at once. Remove a run to make room.`,
    };
  const runs = [...s.runs];
  runs.splice(Math.min(removed.index, runs.length), 0, removed.run);
  const patch: Patch = { annotationHistory, runs: withNames(runs) };
  if (removed.wasBaseline) {
    patch.baselineId = removed.run.id;
    patch.userChoseBaseline = removed.userChoseBaseline;
  } else patch.baselineId = pickBaseline(runs, s.baselineId, s.userChoseBaseline);
  if (removed.range) patch.ranges = { ...s.ranges, [removed.run.id]: removed.range };
  return patch;
}

/** Ctrl/Cmd+Shift+Z: the step redone; a removal takes the run away again. */
export function redoStep(s: AppState): Patch {
  const annotationHistory = redo(s.annotationHistory);
  const k = s.removedRuns.findIndex((r) => r.doc === annotationHistory.present);
  const removed = s.removedRuns[k];
  const index = removed ? s.runs.findIndex((r) => r.id === removed.run.id) : -1;
  if (!removed || index < 0) return { annotationHistory };
  // The run as it is now (renamed or given a range since the undo) is what a later undo brings back.
  const again: RemovedRun = {
    doc: removed.doc,
    run: s.runs[index]!,
    index,
    wasBaseline: s.baselineId === removed.run.id,
    userChoseBaseline: s.userChoseBaseline,
  };
  const range = s.ranges[removed.run.id];
  if (range) again.range = range;
  const removedRuns = s.removedRuns.map((r, i) => (i === k ? again : r));
  return { ...without(s, removed.run.id), annotationHistory, removedRuns };
}
