/**
 * The trace statistics view: every run that is a trace-event file, compared event type by event
 * type against the baseline — what an agent adds (new async resource types, more fs.sync calls)
 * shows up as highlighted cells. Runs of other formats are listed as having no trace events.
 */
import { useMemo } from 'react';
import { type Measure, type StatsRow, buildStatsTable, filterRows, sortRows, totalOf } from '../../../shared/stats/trace-table';
import { formatChange, formatCount, statsCsv, statsMarkdown } from '../../../shared/stats/trace-table-export';
import type { Run } from '../store/runs-slice';
import { baselineKind } from '../store/compared-with';
import { useStore } from '../store/store';
import { useSearchable } from '../search/regex-engine';
import { downloadText } from './download';
import { StatsGrid } from './StatsGrid';
import { thresholdOf, useStatsView } from './stats-view-state';
import './trace-stats.css';

/** Runs with statistics, the baseline first; titles made unique so that columns and exports can be told apart. */
function traceRuns(runs: Run[], baselineId: string | undefined): { run: Run; label: string }[] {
  const withStats = runs.filter((r) => r.status === 'ready' && r.profile?.traceStats && r.profile.traceStats.length > 0);
  // the baseline, or where it has no trace events, the baseline folder's trace (../store/compared-with)
  const base = withStats.find((r) => r.id === baselineId) ?? withStats.find((r) => baselineKind({ runs, baselineId }, r.id) === 'format');
  const ordered = base ? [base, ...withStats.filter((r) => r !== base)] : withStats;
  const seen = new Map<string, number>();
  return ordered.map((run) => {
    const n = (seen.get(run.title) ?? 0) + 1;
    seen.set(run.title, n);
    return { run, label: n === 1 ? run.title : `${run.title} (${n})` };
  });
}

function RunList({ runs, included }: { runs: Run[]; included: Set<string> }) {
  const others = runs.filter((r) => !included.has(r.id));
  if (others.length === 0) return null;
  return (
    <ul className="ts-other-runs" aria-label="Runs not in the table">
      {others.map((r) => (
        <li key={r.id}>
          <span className="ts-run-name">{r.title}</span>{' '}
          <span className="muted">
            {r.status === 'loading' ? 'loading…' : r.status === 'error' ? 'could not be read' : 'no trace events'}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function TraceStats() {
  const runs = useStore((s) => s.runs);
  const baselineId = useStore((s) => s.baselineId);
  const [view, dispatch] = useStatsView();
  const threshold = thresholdOf(view);

  const inputs = useMemo(() => traceRuns(runs, baselineId), [runs, baselineId]);
  const table = useMemo(
    () =>
      buildStatsTable(
        inputs.map((i) => ({ label: i.label, stats: i.run.profile!.traceStats! })),
        { grouping: view.grouping, threshold },
      ),
    [inputs, view.grouping, threshold],
  );
  const searched = useSearchable(view.query);
  const filtered = useMemo(() => filterRows(table.rows, searched), [table, searched]);
  const rows: StatsRow[] = useMemo(() => {
    const kept = view.onlyDifferences ? filtered.rows.filter((r) => r.flagged) : filtered.rows;
    const all = kept.length === table.rows.length ? table.rows : kept;
    return view.sort ? sortRows(all, view.sort) : all;
  }, [filtered, view.onlyDifferences, view.sort, table]);
  // The totals of what is shown; unfiltered, the table's own totals row (sorting does not change sums).
  const total = useMemo(() => (rows.length === table.rows.length ? table.total : totalOf(table, rows)), [rows, table]);
  const measures: Measure[] = [
    'count',
    ...(view.showBytes ? ['bytes' as const] : []),
    ...(view.showDuration ? (['duration', 'covered'] as const) : []),
  ];
  const baseline = inputs[0]?.run;
  const chosenBaseline = runs.find((r) => r.id === baselineId);
  const pct = `${formatChange({ absolute: 1, relative: threshold, flag: 'differs' }).slice(1)}`;

  if (inputs.length === 0) {
    return (
      <section className="trace-stats" aria-label="Trace statistics">
        <div className="ts-empty">
          <h2>Trace event statistics</h2>
          <p className="muted">
            Open trace-event files — <code>node --trace-event-categories v8,node,node.async_hooks</code> writes{' '}
            <code>node_trace.1.log</code> — to count their events by type and compare runs with the baseline.
          </p>
          <RunList runs={runs} included={new Set()} />
        </div>
      </section>
    );
  }

  const exportName = `trace-stats-${view.grouping}`;
  return (
    <section className="trace-stats" aria-label="Trace statistics">
      <div className="ts-controls">
        <input
          type="search"
          aria-label="Filter event types"
          placeholder="Filter event types: text or /regex/"
          value={view.query}
          onChange={(e) => dispatch({ type: 'queryTyped', query: e.currentTarget.value })}
        />
        <label>
          Group by{' '}
          <select
            aria-label="Group by"
            value={view.grouping}
            onChange={(e) => dispatch({ type: 'groupingChosen', grouping: e.currentTarget.value as typeof view.grouping })}
          >
            <option value="name">category and name</option>
            <option value="phase">phase</option>
            <option value="category">category</option>
          </select>
        </label>
        <label title="Cells that differ from the baseline by more than this are highlighted">
          Threshold{' '}
          <input
            className="ts-threshold"
            type="number"
            min={0}
            step={1}
            aria-label="Difference threshold (%)"
            value={view.thresholdText}
            onChange={(e) => dispatch({ type: 'thresholdTyped', text: e.currentTarget.value })}
          />{' '}
          %
        </label>
        <label className="check">
          <input type="checkbox" checked={view.showBytes} onChange={() => dispatch({ type: 'bytesToggled' })} /> Bytes
        </label>
        <label className="check">
          <input type="checkbox" checked={view.showDuration} onChange={() => dispatch({ type: 'durationToggled' })} /> Duration
        </label>
        <label className="check">
          <input type="checkbox" checked={view.onlyDifferences} onChange={() => dispatch({ type: 'onlyDifferencesToggled' })} /> Only
          differences
        </label>
        {inputs.length > 1 && (
          <label>
            Baseline{' '}
            <select aria-label="Baseline" value={baseline?.id} onChange={(e) => useStore.getState().baselineChosen(e.currentTarget.value)}>
              {inputs.map((i) => (
                <option key={i.run.id} value={i.run.id}>
                  {i.label}
                </option>
              ))}
            </select>
          </label>
        )}
        <span className="spacer" />
        <div className="ts-export" role="group" aria-label="Export the rows shown">
          <button type="button" onClick={() => downloadText(`${exportName}.csv`, statsCsv(table, rows), 'text/csv')}>
            Export CSV
          </button>
          <button type="button" onClick={() => downloadText(`${exportName}.md`, statsMarkdown(table, rows, measures), 'text/markdown')}>
            Export Markdown
          </button>
        </div>
      </div>
      <RunList runs={runs} included={new Set(inputs.map((i) => i.run.id))} />
      {chosenBaseline && baseline && chosenBaseline.id !== baseline.id && (
        <p className="ts-note" role="note">
          The baseline, {chosenBaseline.title},{' '}
          {chosenBaseline.status === 'loading'
            ? 'is still loading'
            : chosenBaseline.status === 'error'
              ? 'could not be read'
              : 'has no trace events'}
          ; {baseline.title} is compared against {chosenBaseline.status === 'loading' ? 'until it is ready' : 'instead'}.
        </p>
      )}
      {filtered.error && <p className="ts-note error-text">{filtered.error}</p>}
      <div className="ts-scroll">
        <StatsGrid
          table={table}
          rows={rows}
          total={total}
          measures={measures}
          sort={view.sort}
          onSort={(key) => dispatch({ type: 'sortClicked', key })}
        />
        {rows.length === 0 && <p className="muted ts-none">No event type matches.</p>}
      </div>
      <footer className="ts-footer">
        <ul className="ts-legend" aria-label="Cell highlighting">
          <li>
            <span className="ts-swatch differs up" /> more than {pct} above the baseline
          </li>
          <li>
            <span className="ts-swatch differs down" /> more than {pct} below
          </li>
          <li>
            <span className="ts-swatch new" /> new: the baseline has no such events
          </li>
          <li>
            <span className="ts-swatch gone" /> gone: only the baseline has them
          </li>
        </ul>
        <span className="muted" role="status">
          {formatCount(rows.length)} of {formatCount(table.rows.length)} event types shown
        </span>
      </footer>
    </section>
  );
}
