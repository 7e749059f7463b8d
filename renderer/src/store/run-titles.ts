/** Pane titles and the baseline as runs arrive and leave, by the rules of shared/runs/run-names. */
import { baselineIndex, runNames } from '../../../shared/runs/run-names';
import type { Run } from './runs-slice';

/** Every run not renamed by the user titled by what tells its path apart from the others'. */
export function withNames(runs: Run[]): Run[] {
  const names = runNames(runs.map((r) => r.path ?? r.fileName));
  let changed = false;
  const out = runs.map((r, i) => {
    if (r.renamed || r.title === names[i]) return r;
    changed = true;
    return { ...r, title: names[i]! };
  });
  return changed ? out : runs;
}

/**
 * The baseline: the user's choice while that run is open; else the run whose path says
 * baseline (`baseline/…`, `before/…`, `control/…`), whatever the order the files came in; else
 * the one that was the baseline; else the first run.
 */
export function pickBaseline(runs: Run[], current: string | undefined, userChose: boolean): string | undefined {
  const open = current !== undefined && runs.some((r) => r.id === current);
  if (userChose && open) return current;
  const named = baselineIndex(runs.map((r) => r.path ?? r.fileName));
  if (named !== undefined) return runs[named]!.id;
  return open ? current : runs[0]?.id;
}
