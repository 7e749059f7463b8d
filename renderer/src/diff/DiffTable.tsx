import type { DiffStatus, ProfileDiff } from '../../../shared/diff/diff';
import type { FunctionChange } from '../../../shared/diff/repeats';
import { formatDelta, formatShare, formatWeight, shareOf } from '../../../shared/diff/diff-query';
import { heaviestPath } from '../../../shared/view/function-path';
import { comparedProfile, diffFor, rangeFor } from '../store/derived';
import { baselineKind, baselineRunOf } from '../store/compared-with';
import { useStore } from '../store/store';
import { rankedRows } from './diff-rows';
import { repeatsFor } from '../store/derived-repeats';
import { formatDetectable, formatInterval, repeatsCount } from './repeats-format';

/**
 * Functions of one run ranked by their change against the baseline; the search box filters the
 * list, and a click focuses the function (its heaviest call path) in every pane.
 */
export function DiffTable() {
  const runs = useStore((s) => s.runs);
  const baselineId = useStore((s) => s.baselineId);
  const tableRunId = useStore((s) => s.tableRunId);
  const status = useStore((s) => s.tableStatus);
  const measure = useStore((s) => s.diffMeasure);
  const normalize = useStore((s) => s.normalize);
  const noise = useStore((s) => s.noisePercent);
  const query = useStore((s) => s.query);
  const ranges = useStore((s) => s.ranges);
  const matchEntry = useStore((s) => s.matchEntry);
  const s = useStore.getState();

  // the runs compared with a baseline (the baseline, or the baseline of their format)
  const candidates = runs.filter((r) => r.status === 'ready' && baselineKind({ runs, baselineId }, r.id) === undefined);
  const run = candidates.find((r) => r.id === tableRunId) ?? candidates[0];
  const baselineRun = run && baselineRunOf({ runs, baselineId }, run.id);
  const baseline = baselineRun?.profile;
  const runProfile = run?.profile && comparedProfile(run.profile, baseline, matchEntry);
  // diffFor is memoized per pair of profiles; no hook needed.
  const result =
    baseline && runProfile
      ? diffFor(baseline, runProfile, normalize, noise, rangeFor(baseline, ranges[baselineRun!.id]), rangeFor(runProfile, ranges[run!.id]))
      : undefined;
  const rows = rankedRows(result?.diff, status, measure, query);
  const repeats = run ? repeatsFor(baselineRun, run, normalize, measure, matchEntry) : undefined;

  if (!baseline || !run?.profile) {
    return (
      <aside className="diff-table" aria-label="Diff table">
        <p className="muted">Open a baseline and at least one other run to rank what changed.</p>
      </aside>
    );
  }
  const d = result?.diff;
  const value = (side: 'baseline' | 'run', w: number) =>
    d!.measure === 'fraction' ? formatShare(shareOf(d!, side, w)) : formatWeight(w, d!.unit);
  return (
    <aside className="diff-table" aria-label="Diff table">
      <div className="diff-table-controls">
        <select aria-label="Run to rank" value={run.id} onChange={(e) => s.tableRunChosen(e.currentTarget.value)}>
          {candidates.map((r) => (
            <option key={r.id} value={r.id}>
              {r.title}
            </option>
          ))}
        </select>
        <select
          aria-label="Which functions"
          value={status}
          onChange={(e) => s.tableStatusChosen(e.currentTarget.value as DiffStatus | 'all')}
        >
          <option value="all">All changes</option>
          <option value="new">New</option>
          <option value="removed">Removed</option>
          <option value="changed">Changed</option>
        </select>
      </div>
      {result?.error && <p className="error-text">{result.error}</p>}
      {d && (
        <div className="diff-table-scroll">
          <table aria-label="Functions ranked by change">
            <thead>
              <tr>
                <th>function</th>
                <th title="baseline">base</th>
                <th>run</th>
                <th
                  title={
                    repeats ? `the change of the means, and its 95% interval across ${repeatsCount(repeats.stats.repeats)}` : undefined
                  }
                >
                  Δ {measure}
                </th>
                {repeats && (
                  <th
                    title={`the smallest change these runs could detect (${repeatsCount(repeats.stats.repeats)}; 80% power at the 5% level)`}
                  >
                    detects
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((f) => (
                <tr
                  key={f.key}
                  className={`row-${f.status}`}
                  tabIndex={0}
                  onClick={() => focusFunction(f.key, f.status === 'removed')}
                  onKeyDown={(e) => e.key === 'Enter' && focusFunction(f.key, f.status === 'removed')}
                >
                  <td title={f.file}>
                    <span className={`status status-${f.status}`}>{f.status}</span> {f.name}
                    <button
                      type="button"
                      className="sandwich-link"
                      aria-label={`Callers and callees of ${f.name}`}
                      title="Callers and callees in every run (sandwich)"
                      onClick={(e) => {
                        e.stopPropagation();
                        useStore.getState().sandwichShown(f.key);
                      }}
                    >
                      ⇅
                    </button>
                    {f.file && <span className="muted file"> {f.file.replace(/^.*node_modules\//, '')}</span>}
                  </td>
                  <td>{value('baseline', f.baseline[measure])}</td>
                  <td>{value('run', f.run[measure])}</td>
                  <DeltaCells d={d} delta={f.delta[measure]} change={repeats?.byKey.get(f.key)} repeats={repeats !== undefined} />
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length === 0 && <p className="muted">No function matches.</p>}
        </div>
      )}
    </aside>
  );

  function focusFunction(key: string, removed: boolean): void {
    const p = removed ? baseline : runProfile;
    const path = p ? heaviestPath(p, key) : undefined;
    if (path) useStore.getState().pathFocused(path);
  }
}

/**
 * A function's Δ; with repeats on both sides, the change across them with its 95% interval
 * (uncoloured where it is within run-to-run noise) and the smallest change the runs could detect.
 */
function DeltaCells({ d, delta, change, repeats }: { d: ProfileDiff; delta: number; change?: FunctionChange; repeats: boolean }) {
  if (!repeats) return <td className={delta > 0 ? 'up' : 'down'}>{formatDelta(d, delta)}</td>;
  if (!change)
    return (
      <>
        <td>{formatDelta(d, delta)}</td>
        <td />
      </>
    );
  const cls = !change.significant ? 'noise' : change.delta > 0 ? 'up' : 'down';
  return (
    <>
      <td className={cls} title={change.significant ? 'beyond run-to-run noise' : 'within run-to-run noise'}>
        {formatDelta(d, change.delta)}{' '}
        {change.interval && <span className="interval">({formatInterval(d, change.interval.low, change.interval.high)})</span>}
      </td>
      <td className="muted">{formatDetectable(d, change)}</td>
    </>
  );
}
