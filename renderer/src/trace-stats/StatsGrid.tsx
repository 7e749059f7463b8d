/**
 * The statistics table itself: label columns, then one group of columns per run (baseline
 * first), sortable headers, highlighted cells, the totals row kept in view at the bottom.
 */
import { changeTitle, formatChange, formatCount, formatMeasure } from '../../../shared/stats/trace-table-export';
import { PHASE_NAMES, phaseLabel } from '../../../shared/stats/trace-phases';
import type { Measure, SortKey, SortOrder, StatsCell, StatsRow, StatsTable } from '../../../shared/stats/trace-table';
import { sameSortKey } from './stats-view-state';

interface Props {
  table: StatsTable;
  rows: readonly StatsRow[];
  /** the totals row of `rows` */
  total: StatsRow;
  /** the measures shown for each run; count is always first */
  measures: readonly Measure[];
  sort: SortOrder | undefined;
  onSort(key: SortKey): void;
}

interface LabelColumn {
  title: string;
  sort?: SortKey;
  cell(r: StatsRow): React.ReactNode;
}

const phasesCell = (r: StatsRow) => <span title={r.phases.map(phaseLabel).join('\n')}>{r.phases.join(' ')}</span>;

function labelColumns(table: StatsTable): LabelColumn[] {
  switch (table.grouping) {
    case 'name':
      return [
        { title: 'Category', sort: { by: 'category' }, cell: (r) => <span className="ts-category">{r.category}</span> },
        { title: 'Event', sort: { by: 'name' }, cell: (r) => <span className="ts-name">{r.name || '(unnamed)'}</span> },
        { title: 'Phases', sort: { by: 'phase' }, cell: phasesCell },
      ];
    case 'phase':
      return [
        { title: 'Phase', sort: { by: 'phase' }, cell: (r) => <code className="ts-name">{r.phase || '(none)'}</code> },
        { title: 'Meaning', cell: (r) => <span className="ts-category">{PHASE_NAMES[r.phase] ?? ''}</span> },
      ];
    case 'category':
      return [
        { title: 'Category', sort: { by: 'category' }, cell: (r) => <span className="ts-name">{r.category || '(none)'}</span> },
        { title: 'Phases', sort: { by: 'phase' }, cell: phasesCell },
      ];
  }
}

interface RunColumn {
  run: number;
  key: SortKey;
  title: string;
  /** what the column means, where its title is short */
  hint?: string;
}

const ROW_WORDS: Record<StatsTable['grouping'], string> = { name: 'event types', phase: 'phases', category: 'categories' };

const MEASURE_TITLES: Record<Measure, string> = { count: 'events', bytes: 'bytes', duration: 'duration (sum)', covered: 'wall time' };
/** What the two duration columns mean: async lifetimes overlap, so their sum is not time. */
const MEASURE_HINTS: Partial<Record<Measure, string>> = {
  duration: 'duration summed over every span (overlapping spans each add their whole length)',
  covered: 'wall-clock time covered by at least one span (the union of their intervals)',
};

function runColumns(table: StatsTable, measures: readonly Measure[]): RunColumn[][] {
  return table.runs.map((_, run) => {
    const cols: RunColumn[] = [];
    for (const m of measures) {
      const col: RunColumn = { run, key: { by: 'value', run, measure: m }, title: MEASURE_TITLES[m] };
      const hint = MEASURE_HINTS[m];
      if (hint) col.hint = hint;
      cols.push(col);
      // The count's change gets a column of its own: it is what a reader scans and sorts by.
      if (m === 'count' && run > 0) cols.push({ run, key: { by: 'change', run, measure: 'count' }, title: 'change' });
    }
    return cols;
  });
}

function ariaSort(sort: SortOrder | undefined, key: SortKey | undefined): 'ascending' | 'descending' | undefined {
  if (!sort || !key || !sameSortKey(sort.key, key)) return undefined;
  return sort.descending ? 'descending' : 'ascending';
}

function flagClass(cell: StatsCell, m: Measure): string {
  const c = cell.change[m];
  if (c.flag === 'differs') return c.absolute > 0 ? 'differs up' : 'differs down';
  return c.flag === 'new' || c.flag === 'gone' ? c.flag : '';
}

function ValueCell({ cell, m, run, runTitle, start }: { cell: StatsCell; m: Measure; run: number; runTitle: string; start: boolean }) {
  const v = cell[m];
  const exact =
    m === 'bytes'
      ? `${formatCount(v)} bytes`
      : m === 'duration' || m === 'covered'
        ? `${formatMeasure(m, v) === '—' ? 'not known' : `${formatCount(v)} µs`} ${m === 'duration' ? 'summed' : 'wall time covered'}`
        : `${formatCount(v)} events`;
  const title = run === 0 ? `${exact} (baseline)` : `${changeTitle(cell, m)} — ${exact}`;
  return (
    <td
      className={['num', start ? 'ts-group-start' : '', v === 0 ? 'zero' : '', run === 0 ? '' : flagClass(cell, m)]
        .filter(Boolean)
        .join(' ')}
      title={title}
      data-run={runTitle}
      data-measure={m}
    >
      {(m === 'duration' || m === 'covered') && cell.duration === 0 ? '' : formatMeasure(m, v)}
    </td>
  );
}

function ChangeCell({ cell }: { cell: StatsCell }) {
  const c = cell.change.count;
  const cls = c.flag === 'differs' ? (c.absolute > 0 ? 'up' : 'down') : c.flag === 'new' || c.flag === 'gone' ? c.flag : 'within';
  return (
    <td className={`num change change-${cls}`} title={changeTitle(cell, 'count')}>
      {formatChange(c)}
    </td>
  );
}

export function StatsGrid({ table, rows, total, measures, sort, onSort }: Props) {
  const labels = labelColumns(table);
  const groups = runColumns(table, measures);
  const sortButton = (key: SortKey, text: string, name: string) => (
    <button type="button" className="ts-sort" aria-label={name} title={`Sort by ${name}`} onClick={() => onSort(key)}>
      {text}
      <span className="ts-sort-mark" aria-hidden="true">
        {ariaSort(sort, key) === 'ascending' ? '▲' : ariaSort(sort, key) === 'descending' ? '▼' : ''}
      </span>
    </button>
  );
  const line = (r: StatsRow) =>
    groups.flatMap((cols) =>
      cols.map((col, i) => {
        const cell = r.cells[col.run]!;
        const k = `${col.run}:${col.key.by}:${col.title}`;
        if (col.key.by === 'change') return <ChangeCell key={k} cell={cell} />;
        const m = (col.key as { measure: Measure }).measure;
        return <ValueCell key={k} cell={cell} m={m} run={col.run} runTitle={table.runs[col.run]!} start={i === 0} />;
      }),
    );

  return (
    <table className="ts-table" aria-label="Trace event statistics">
      <thead>
        <tr>
          {labels.map((l) => (
            <th key={l.title} scope="col" rowSpan={2} className="ts-label-head" aria-sort={ariaSort(sort, l.sort)}>
              {l.sort ? sortButton(l.sort, l.title, l.title) : <span className="ts-head-text">{l.title}</span>}
            </th>
          ))}
          {groups.map((cols, run) => (
            <th key={run} scope="colgroup" colSpan={cols.length} className={`ts-run-head${run === 0 ? ' ts-baseline' : ''}`}>
              <span className="ts-run-title">{table.runs[run]}</span>
              {run === 0 && <span className="badge baseline">baseline</span>}
            </th>
          ))}
        </tr>
        <tr>
          {groups.flatMap((cols) =>
            cols.map((col) => (
              <th
                key={`${col.run}:${col.key.by}:${col.title}`}
                scope="col"
                className={`num${col.key.by === 'change' ? ' change' : ''}${cols[0] === col ? ' ts-group-start' : ''}`}
                aria-sort={ariaSort(sort, col.key)}
                title={col.hint}
              >
                {sortButton(col.key, col.title, `${table.runs[col.run]} ${col.title}`)}
              </th>
            )),
          )}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} className={r.flagged ? 'flagged' : undefined}>
            {labels.map((l) => (
              <td key={l.title} className="ts-label">
                {l.cell(r)}
              </td>
            ))}
            {line(r)}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr className="ts-total">
          <th scope="row" colSpan={labels.length} className="ts-label">
            Total{' '}
            <span className="muted">
              {rows.length === table.rows.length
                ? `(${formatCount(rows.length)} ${ROW_WORDS[table.grouping]})`
                : `of the ${formatCount(rows.length)} shown`}
            </span>
          </th>
          {line(total)}
        </tr>
      </tfoot>
    </table>
  );
}
