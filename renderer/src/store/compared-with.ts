/**
 * Which run each pane, the sandwich, the diff table and the exports compare a run with: the
 * baseline, or the baseline of the run's own format (shared/runs/kind-baselines), worked out
 * once for each list of runs and baseline.
 */
import { type Comparisons, comparisons } from '../../../shared/runs/kind-baselines';
import type { Run } from './runs-slice';

interface RunsState {
  runs: readonly Run[];
  baselineId: string | undefined;
}

let last: { runs: readonly Run[]; baselineId: string | undefined; made: Comparisons } | undefined;

function comparisonsOf(s: RunsState): Comparisons {
  if (last?.runs !== s.runs || last.baselineId !== s.baselineId) {
    const made = comparisons(
      s.runs.map((r) => ({ id: r.id, path: r.path ?? r.fileName, format: r.status === 'ready' ? r.profile?.format : undefined })),
      s.baselineId,
    );
    last = { runs: s.runs, baselineId: s.baselineId, made };
  }
  return last.made;
}

/** The run `id` is compared with; undefined for the baseline and the baselines of other formats. */
export function baselineRunOf(s: RunsState, id: string): Run | undefined {
  const with_ = comparisonsOf(s).baselineOf.get(id);
  return with_ === undefined ? undefined : s.runs.find((r) => r.id === with_);
}

/** Whether the run is a baseline: the baseline, or the baseline of its own format. */
export function baselineKind(s: RunsState, id: string): 'baseline' | 'format' | undefined {
  if (id === s.baselineId) return 'baseline';
  return comparisonsOf(s).kindBaselines.has(id) ? 'format' : undefined;
}
