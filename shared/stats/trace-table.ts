/**
 * The trace-event statistics table: one row per event type, one group of columns per run (the
 * baseline first), each cell the run's events of that type — count, bytes in the file, summed
 * duration — and how it compares with the baseline's cell.
 *
 * Input is `Profile.traceStats`, whose rows are per (category, name, phase). The groupings sum
 * them: by category + name (the default: the `b` and `e` rows of Node's PROMISE become one row
 * whose count is every PROMISE event), by phase alone, or by category alone.
 */
import { compileQuery } from '../search/matcher';
import type { TraceEventStat } from '../model/types';
import { coveredTime, unionOf } from './intervals';
import { byPhase, phaseLabel } from './trace-phases';

export type Grouping = 'name' | 'phase' | 'category';
export const GROUPINGS: readonly Grouping[] = ['name', 'phase', 'category'];

export type Measure = 'count' | 'bytes' | 'duration' | 'covered';
export const MEASURES: readonly Measure[] = ['count', 'bytes', 'duration', 'covered'];

/** Relative difference above which a cell is flagged, unless the caller says otherwise. */
export const DEFAULT_THRESHOLD = 0.1;

export interface Measures {
  count: number;
  /** UTF-8 bytes of the events' JSON text in the file */
  bytes: number;
  /** summed microseconds of the events that have a duration (X, paired B/E, paired b/e) */
  duration: number;
  /**
   * wall-clock microseconds covered by at least one of those spans (their union): async
   * lifetimes overlap, and their sum can be many times the trace's length. NaN where a file
   * does not say (a workspace saved before this was kept).
   */
  covered: number;
  /** that union, merged (`[start0, end0, …]` µs); undefined where unknown */
  spans?: Float64Array;
}

/** What a row is, as far as the grouping keeps it; the fields it drops are ''. */
export interface RowLabel {
  /** unique within a table */
  key: string;
  category: string;
  name: string;
  /** the phase, for the phase grouping only */
  phase: string;
  /** every phase its events have, in a readable order ('b', 'e'), across all runs */
  phases: string[];
}

export interface GroupedStat extends RowLabel, Measures {}

/**
 * How a cell compares with the baseline's:
 * - `baseline`: it is the baseline column
 * - `new`: the run has this event type and the baseline has none of it
 * - `gone`: the baseline has it and the run has none
 * - `differs`: both have it and the relative difference exceeds the threshold
 * - `same`: within the threshold, or neither run has any (a row that only a third run has)
 */
export type CellFlag = 'baseline' | 'same' | 'differs' | 'new' | 'gone';

export interface Change {
  /** run − baseline */
  absolute: number;
  /** run / baseline − 1; Infinity when only the run has some, 0 when neither has */
  relative: number;
  flag: CellFlag;
}

export interface StatsCell extends Measures {
  /** whether the run has any event of this type */
  present: boolean;
  change: Record<Measure, Change>;
}

export interface StatsRow extends RowLabel {
  /** one per run, in the table's run order (baseline first) */
  cells: StatsCell[];
  /** some non-baseline cell is flagged (differs, new or gone) */
  flagged: boolean;
}

export interface StatsTable {
  grouping: Grouping;
  /** relative difference above which cells are flagged (0.1 = 10%) */
  threshold: number;
  /** run labels; the first is the baseline */
  runs: string[];
  /** by the largest count in any run, then by label */
  rows: StatsRow[];
  /** the sum of every row, compared like a row (`key` '\u0000total', `name` 'Total') */
  total: StatsRow;
}

export interface StatsRunInput {
  label: string;
  stats: readonly TraceEventStat[];
}

function labelOf(s: TraceEventStat, grouping: Grouping): RowLabel {
  switch (grouping) {
    case 'name':
      // NUL cannot occur in either string as Node writes them, so the key is unambiguous.
      return { key: `${s.category}\u0000${s.name}`, category: s.category, name: s.name, phase: '', phases: [] };
    case 'phase':
      return { key: s.phase, category: '', name: '', phase: s.phase, phases: [] };
    case 'category':
      return { key: s.category, category: s.category, name: '', phase: '', phases: [] };
  }
}

/**
 * The time spans cover together, from the spans of each part (undefined: a part with a duration
 * whose spans are unknown).
 */
function coverage(parts: readonly { duration: number; spans?: Float64Array | undefined }[]): { covered: number; spans?: Float64Array } {
  const lists: Float64Array[] = [];
  for (const p of parts) {
    if (p.spans) lists.push(p.spans);
    else if (p.duration > 0) return { covered: NaN };
  }
  const spans = unionOf(lists);
  return { covered: coveredTime(spans), spans };
}

/** One file's statistics summed per row of the grouping, largest count first. */
export function groupStats(stats: readonly TraceEventStat[], grouping: Grouping = 'name'): GroupedStat[] {
  const rows = new Map<string, { row: GroupedStat; parts: TraceEventStat[] }>();
  for (const s of stats) {
    const label = labelOf(s, grouping);
    let g = rows.get(label.key);
    if (!g) rows.set(label.key, (g = { row: { ...label, count: 0, bytes: 0, duration: 0, covered: 0 }, parts: [] }));
    const r = g.row;
    r.count += s.count;
    r.bytes += s.bytes;
    r.duration += s.duration;
    g.parts.push(s);
    if (!r.phases.includes(s.phase)) r.phases.push(s.phase);
  }
  const out = [...rows.values()].map(({ row, parts }) => {
    const c = coverage(parts);
    row.covered = c.covered;
    if (c.spans) row.spans = c.spans;
    row.phases.sort(byPhase);
    return row;
  });
  return out.sort((a, b) => b.count - a.count || compareLabels(a, b));
}

function compareLabels(a: RowLabel, b: RowLabel): number {
  return textOrder(a.category, b.category) || textOrder(a.name, b.name) || byPhase(a.phase, b.phase) || textOrder(a.key, b.key);
}

function textOrder(a: string, b: string): number {
  // Case-insensitive first so that `fs.sync.open` and `FSREQCALLBACK` sit where a reader looks.
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

function compare(base: number, run: number, threshold: number): { absolute: number; relative: number; differs: boolean } {
  const relative = base === 0 ? (run === 0 ? 0 : Infinity) : run / base - 1;
  // The epsilon keeps a difference of exactly the threshold unflagged (22 / 20 - 1 is 0.10000000000000009).
  return { absolute: run - base, relative, differs: Math.abs(relative) > threshold + 1e-9 };
}

function cellOf(m: Measures, base: Measures, isBaseline: boolean, threshold: number): StatsCell {
  const present = m.count > 0;
  const basePresent = base.count > 0;
  const change = {} as Record<Measure, Change>;
  for (const measure of MEASURES) {
    const c = compare(base[measure], m[measure], threshold);
    let flag: CellFlag;
    if (isBaseline) flag = 'baseline';
    // New and gone are about the event type, so all of a cell's measures share them.
    else if (present && !basePresent) flag = 'new';
    else if (!present && basePresent) flag = 'gone';
    else flag = present && c.differs ? 'differs' : 'same';
    change[measure] = { absolute: c.absolute, relative: c.relative, flag };
  }
  const cell: StatsCell = { count: m.count, bytes: m.bytes, duration: m.duration, covered: m.covered, present, change };
  if (m.spans) cell.spans = m.spans;
  return cell;
}

function rowOf(label: RowLabel, sums: Measures[], threshold: number): StatsRow {
  const cells = sums.map((m, i) => cellOf(m, sums[0]!, i === 0, threshold));
  const flagged = cells.some((c, i) => i > 0 && MEASURES.some((m) => c.change[m].flag !== 'same'));
  return { ...label, cells, flagged };
}

const ZERO: Measures = { count: 0, bytes: 0, duration: 0, covered: 0, spans: new Float64Array(0) };

/** The comparison table of several runs' statistics; the first run is the baseline. */
export function buildStatsTable(runs: readonly StatsRunInput[], options: { grouping?: Grouping; threshold?: number } = {}): StatsTable {
  const grouping = options.grouping ?? 'name';
  const threshold = options.threshold !== undefined && options.threshold >= 0 ? options.threshold : DEFAULT_THRESHOLD;
  const grouped = runs.map((r) => new Map(groupStats(r.stats, grouping).map((g) => [g.key, g])));
  const labels = new Map<string, RowLabel>();
  for (const g of grouped)
    for (const r of g.values()) {
      const l = labels.get(r.key);
      if (!l) labels.set(r.key, { key: r.key, category: r.category, name: r.name, phase: r.phase, phases: [...r.phases] });
      else for (const ph of r.phases) if (!l.phases.includes(ph)) l.phases.push(ph);
    }
  const rows: StatsRow[] = [];
  for (const l of labels.values()) {
    l.phases.sort(byPhase);
    rows.push(
      rowOf(
        l,
        grouped.map((g) => g.get(l.key) ?? ZERO),
        threshold,
      ),
    );
  }
  const most = (r: StatsRow) => Math.max(...r.cells.map((c) => c.count));
  rows.sort((a, b) => most(b) - most(a) || compareLabels(a, b));

  const table = { grouping, threshold, runs: runs.map((r) => r.label), rows };
  return { ...table, total: sumRows(table, rows) };
}

function sumRows(table: Omit<StatsTable, 'total'>, rows: readonly StatsRow[]): StatsRow {
  const sums = table.runs.map((_, i): Measures => {
    const t: Measures = { count: 0, bytes: 0, duration: 0, covered: 0 };
    for (const r of rows) {
      const c = r.cells[i]!;
      t.count += c.count;
      t.bytes += c.bytes;
      t.duration += c.duration;
    }
    // Rows of one run overlap in time too: the total covers their union, not the sum.
    const c = coverage(rows.map((r) => r.cells[i]!));
    t.covered = c.covered;
    if (c.spans) t.spans = c.spans;
    return t;
  });
  const phases = [...new Set(rows.flatMap((r) => (table.grouping === 'phase' ? [r.phase] : r.phases)))].sort(byPhase);
  return rowOf({ key: '\u0000total', category: '', name: 'Total', phase: '', phases }, sums, table.threshold);
}

/**
 * The totals row of some of a table's rows — those a filter kept — compared like any row; for
 * all of them it is `table.total`.
 */
export function totalOf(table: StatsTable, rows: readonly StatsRow[]): StatsRow {
  return rows === table.rows ? table.total : sumRows(table, rows);
}

/** A column to sort by: a label, a run's value, or a run's change against the baseline. */
export type SortKey =
  { by: 'category' | 'name' | 'phase' } | { by: 'value'; run: number; measure: Measure } | { by: 'change'; run: number; measure: Measure };

export interface SortOrder {
  key: SortKey;
  descending: boolean;
}

/**
 * A change as a number to sort by: new types rank above any growth and gone ones below any
 * shrink; rows where neither side has events have no change and sort last either way.
 */
function changeValue(c: StatsCell, m: Measure): number {
  const ch = c.change[m];
  if (ch.flag === 'new') return Infinity;
  if (ch.flag === 'gone') return -1;
  if (ch.absolute === 0 && c[m] === 0) return NaN;
  return ch.relative;
}

const phasesOf = (r: RowLabel) => (r.phase !== '' || r.key === r.phase ? [r.phase] : r.phases);

function phaseListOrder(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = byPhase(a[i]!, b[i]!);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** The rows sorted by one column; ties keep the label order. Returns a new array. */
export function sortRows(rows: readonly StatsRow[], order: SortOrder): StatsRow[] {
  const { key, descending } = order;
  const sign = descending ? -1 : 1;
  const value = (r: StatsRow): number => {
    if (key.by === 'value') return r.cells[key.run]?.[key.measure] ?? NaN;
    if (key.by === 'change') {
      const c = r.cells[key.run];
      return c ? changeValue(c, key.measure) : NaN;
    }
    return NaN;
  };
  return [...rows].sort((a, b) => {
    if (key.by === 'category' || key.by === 'name' || key.by === 'phase') {
      const t = key.by === 'phase' ? phaseListOrder(phasesOf(a), phasesOf(b)) : textOrder(a[key.by], b[key.by]);
      return sign * t || compareLabels(a, b);
    }
    const x = value(a);
    const y = value(b);
    // NaN (no value) sorts last in both directions.
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) === Number.isNaN(y) ? compareLabels(a, b) : Number.isNaN(x) ? 1 : -1;
    if (x !== y) return x < y ? -sign : sign;
    // Equal changes (two new types): the larger value first, whichever the direction.
    if (key.by === 'change') {
      const d = (b.cells[key.run]?.[key.measure] ?? 0) - (a.cells[key.run]?.[key.measure] ?? 0);
      if (d !== 0) return d;
    }
    return compareLabels(a, b);
  });
}

/** The text a filter searches: name (or phase and its meaning) and category. */
export function rowText(r: RowLabel): { name: string; category: string } {
  return { name: r.name || (r.key === r.phase ? phaseLabel(r.phase) : ''), category: r.category };
}

/**
 * Rows whose name, category or phase match the filter: plain text (case-insensitive substring) or
 * `/regex/`, the app's search language. An invalid expression keeps every row and says why.
 */
export function filterRows(rows: readonly StatsRow[], query: string): { rows: StatsRow[]; error?: string } {
  const q = compileQuery(query);
  if (!q) return { rows: [...rows] };
  if (q.error) return { rows: [...rows], error: q.error };
  return {
    rows: rows.filter((r) => {
      const t = rowText(r);
      return q.match(t.name, t.category);
    }),
  };
}
