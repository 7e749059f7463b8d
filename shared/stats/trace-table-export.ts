/**
 * The statistics table as text: number formats shared by the app and the command line, CSV (RFC
 * 4180: CRLF line ends, fields with a comma, quote or line break quoted, quotes doubled) for
 * spreadsheets, and Markdown for pasting into an issue or a pull request.
 */
import { csvText, mdCode, mdText } from '../report/fields';
import { PHASE_NAMES } from './trace-phases';
import { type Change, type Grouping, type Measure, MEASURES, type StatsCell, type StatsRow, type StatsTable, totalOf } from './trace-table';

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
/** Scaled units keep their decimal (31.0 MiB) so that a column of them lines up. */
const scaled = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export function formatCount(n: number): string {
  return whole.format(n);
}

export function formatBytes(b: number): string {
  const a = Math.abs(b);
  if (a >= 2 ** 30) return `${scaled.format(b / 2 ** 30)} GiB`;
  if (a >= 2 ** 20) return `${scaled.format(b / 2 ** 20)} MiB`;
  if (a >= 2 ** 10) return `${scaled.format(b / 2 ** 10)} KiB`;
  return `${whole.format(b)} B`;
}

/** Microseconds, in the largest unit that keeps the figure readable. */
export function formatDuration(us: number): string {
  const a = Math.abs(us);
  if (a >= 1e6) return `${scaled.format(us / 1e6)} s`;
  if (a >= 1e3) return `${scaled.format(us / 1e3)} ms`;
  return `${oneDecimal.format(us)} µs`;
}

/** A figure as shown; a wall time a file does not say (NaN) is '—'. */
export function formatMeasure(m: Measure, v: number): string {
  if (Number.isNaN(v)) return '—';
  return m === 'count' ? formatCount(v) : m === 'bytes' ? formatBytes(v) : formatDuration(v);
}

/** What each measure is called in headers: the summed duration and the wall time are told apart. */
export const MEASURE_WORDS: Record<Measure, string> = {
  count: 'events',
  bytes: 'bytes',
  duration: 'duration (summed)',
  covered: 'wall time covered',
};

/** `+104%`, `-12.3%`, `+0.4%`, `new`, `gone`; '' for the baseline column. */
export function formatChange(c: Change): string {
  if (c.flag === 'baseline') return '';
  if (c.flag === 'new') return 'new';
  if (c.flag === 'gone') return 'gone';
  if (!Number.isFinite(c.relative)) return c.absolute > 0 ? 'from 0' : '';
  const p = c.relative * 100;
  // One decimal below 100%, so that +10.3% is not read as exactly a 10% threshold; none above (+104%).
  const text = Math.abs(p) >= 100 ? whole.format(Math.abs(p)) : oneDecimal.format(Math.abs(p));
  return `${p > 0 ? '+' : p < 0 ? '-' : '±'}${text}%`;
}

/** The tooltip of a cell: `+104% vs baseline (+40,512)`, or what new and gone mean. */
export function changeTitle(cell: StatsCell, m: Measure): string {
  const c = cell.change[m];
  if (c.flag === 'baseline') return 'baseline';
  if (c.flag === 'new') return 'new: the baseline has no event of this type';
  if (c.flag === 'gone') return 'gone: only the baseline has events of this type';
  const delta = `${c.absolute > 0 ? '+' : '-'}${formatMeasure(m, Math.abs(c.absolute))}`;
  if (c.absolute === 0 && cell[m] === 0) return cell.present ? 'none in either run' : 'no events in either run';
  // A duration where the baseline's events had none (an X event type that was instant before).
  if (!Number.isFinite(c.relative)) return `${delta} vs baseline (which has none)`;
  return `${formatChange(c)} vs baseline${c.absolute === 0 ? '' : ` (${delta})`}`;
}

/**
 * One word per cell for exports: the count's flag, except that a cell whose count is within the
 * threshold but whose bytes or duration are not says `differs`.
 */
export function cellStatus(cell: StatsCell): string {
  const f = cell.change.count.flag;
  if (f !== 'same') return f;
  return MEASURES.some((m) => cell.change[m].flag === 'differs') ? 'differs' : 'same';
}

/** The label columns of a grouping, as exported. */
function labelHeaders(g: Grouping): string[] {
  return g === 'name' ? ['category', 'name', 'phases'] : g === 'phase' ? ['phase', 'meaning'] : ['category', 'phases'];
}

function labelValues(g: Grouping, r: StatsRow, total: boolean): string[] {
  const phases = r.phases.join(' ');
  if (total) return g === 'name' ? ['Total', '', phases] : g === 'phase' ? ['Total', ''] : ['Total', phases];
  return g === 'name' ? [r.category, r.name, phases] : g === 'phase' ? [r.phase, PHASE_NAMES[r.phase] ?? ''] : [r.category, phases];
}

/** Microseconds to at most three decimals: Chrome's timestamps have fractions, Node's do not. Unknown: ''. */
const micros = (us: number) => (Number.isNaN(us) ? '' : String(Math.round(us * 1000) / 1000));

/**
 * CSV of the given rows (the table's, by default) and their totals row: the label columns, then per
 * run `<run> count`, `<run> bytes`, `<run> duration summed (us)` (every span's duration added up),
 * `<run> wall time covered (us)` (the time at least one span was open) and, after the baseline,
 * `<run> status` (new, gone, differs or same; see `cellStatus`). Numbers are plain, without separators.
 */
export function statsCsv(table: StatsTable, rows: readonly StatsRow[] = table.rows): string {
  const head = [...labelHeaders(table.grouping)];
  table.runs.forEach((run, i) => {
    head.push(`${run} count`, `${run} bytes`, `${run} duration summed (us)`, `${run} wall time covered (us)`);
    if (i > 0) head.push(`${run} status`);
  });
  const line = (r: StatsRow, total: boolean) => {
    const out: (string | number)[] = labelValues(table.grouping, r, total);
    r.cells.forEach((c, i) => {
      out.push(c.count, c.bytes, micros(c.duration), micros(c.covered));
      if (i > 0) out.push(cellStatus(c));
    });
    return out;
  };
  return csvText([head, ...rows.map((r) => line(r, false)), line(totalOf(table, rows), true)]);
}

/** A cell in Markdown: flagged figures bold, with their change after them. */
function markdownCell(c: StatsCell, m: Measure, baseline: boolean): string {
  // Instant and metadata events have no duration: a blank reads better than "0 µs".
  if ((m === 'duration' || m === 'covered') && c.duration === 0) return '';
  const v = formatMeasure(m, c[m]);
  if (baseline) return v;
  const ch = c.change[m];
  if (ch.flag === 'new') return `**${v}** (new)`;
  if (ch.flag === 'gone') return `${v} (gone)`;
  if (ch.flag === 'differs') return `**${v}** (${formatChange(ch)})`;
  return v;
}

/**
 * A Markdown table of the given rows and their totals row, `measures` (all by default) for each
 * run, the baseline first, followed by one line saying how to read it.
 */
export function statsMarkdown(table: StatsTable, rows: readonly StatsRow[] = table.rows, measures: readonly Measure[] = MEASURES): string {
  const g = table.grouping;
  const labels = labelHeaders(g);
  const head = [...labels];
  const align = labels.map(() => '---');
  table.runs.forEach((run) => {
    for (const m of measures) {
      head.push(`${mdText(run)}: ${MEASURE_WORDS[m]}`);
      align.push('---:');
    }
  });
  const line = (r: StatsRow, total: boolean) => {
    const l = labelValues(g, r, total);
    const cells = total
      ? [`**${l[0]}**`, ...l.slice(1).map((x) => mdText(x))]
      : g === 'phase'
        ? [mdCode(l[0]!), mdText(l[1]!)]
        : [mdCode(l[0]!), ...(g === 'name' ? [mdCode(l[1]!)] : []), mdText(l[l.length - 1]!)];
    r.cells.forEach((c, i) => {
      for (const m of measures) cells.push(markdownCell(c, m, i === 0));
    });
    return `| ${cells.join(' | ')} |`;
  };
  const out = [`| ${head.join(' | ')} |`, `|${align.join('|')}|`, ...rows.map((r) => line(r, false)), line(totalOf(table, rows), true)];
  const pct = formatChange({ absolute: 1, relative: table.threshold, flag: 'differs' }).replace(/^\+/, '');
  out.push(
    '',
    `Baseline: ${mdText(table.runs[0] ?? '')}. In bold: figures more than ${pct} away from the baseline's; ` +
      '(new): event types the baseline does not have; (gone): event types only the baseline has.',
  );
  return `${out.join('\n')}\n`;
}
