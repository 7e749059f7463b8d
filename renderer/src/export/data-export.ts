/**
 * The comparison's data as text files: folded stacks of a run (or of a time range of it, through
 * the range's weights) for other flame-graph tools, and the ranked diff table as CSV (raw numbers,
 * units in the column names, for spreadsheets and scripts) or Markdown (formatted as the app shows
 * it, for tickets). The trace-event statistics have their own exporters next to their table
 * (shared/stats/trace-table-export.ts: `statsCsv`, `statsMarkdown`).
 */
import type { FunctionDiff, ProfileDiff } from '../../../shared/diff/diff';
import { formatChange, formatDelta, formatShare, formatWeight, shareOf } from '../../../shared/diff/diff-query';
import { collapse } from '../../../shared/model/collapse';
import { CATEGORY_NAMES, type Profile } from '../../../shared/model/types';
import { csvText, mdText } from '../../../shared/report/fields';
import type { FunctionChange, RepeatsComparison } from '../../../shared/diff/repeats';
import { costPlusMinus, formatDetectable, formatInterval, repeatsCount } from '../diff/repeats-format';

/**
 * Where the baseline and the run are both several repeats: each function's change across them (by
 * frame key, in the diff's measure and the table's Δ, self or total) and the whole comparison.
 */
export interface RepeatsColumns {
  stats: RepeatsComparison;
  byKey: ReadonlyMap<string, FunctionChange>;
  /** which Δ the intervals are of */
  measure: 'self' | 'total';
}

/**
 * Folded stacks (`a;b;c 12`, one line per distinct stack, byte-sorted) of a run. `weights` are
 * per call-tree node self weights: a heatmap range's `RangeWeights.self`, a search filter's, or
 * the profile's own by default.
 */
export function foldedText(p: Profile, weights: Float64Array = p.tree.self): string {
  const lines = collapse(p, weights);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

export function toCsv(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  return csvText([header, ...rows]);
}

export function toMarkdownTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  rightAligned: readonly boolean[] = [],
): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const rule = header.map((_, i) => (rightAligned[i] ? '---:' : '---'));
  return [line(header), line(rule), ...rows.map(line)].join('\n') + '\n';
}

const WEIGHT_UNITS: Record<string, string> = { microseconds: 'us', nanoseconds: 'ns' };

/**
 * The diff table as CSV: raw weights in the diff's unit, and the deltas in its measure — weight
 * ('absolute') or percentage points of each run's total ('relative', with the shares alongside).
 */
export function diffTableCsv(d: ProfileDiff, rows: readonly FunctionDiff[], repeats?: RepeatsColumns): string {
  const u = WEIGHT_UNITS[d.unit] ?? d.unit;
  const relative = d.measure === 'fraction';
  const du = relative ? 'pp' : u;
  const header = [
    'rank',
    'status',
    'function',
    'file',
    'line',
    'package',
    'category',
    `baseline_self_${u}`,
    `baseline_total_${u}`,
    `run_self_${u}`,
    `run_total_${u}`,
    ...(relative ? ['baseline_total_pct', 'run_total_pct', 'delta_self_pp', 'delta_total_pp'] : [`delta_self_${u}`, `delta_total_${u}`]),
    ...(repeats ? [`delta_${repeats.measure}_low_${du}`, `delta_${repeats.measure}_high_${du}`, 'beyond_noise', `detectable_${du}`] : []),
  ];
  const scale = relative ? 100 : 1;
  const body = rows.map((f, i) => [
    i + 1,
    f.status,
    f.name,
    f.file,
    f.line,
    f.pkg,
    CATEGORY_NAMES[f.category] ?? '',
    f.baseline.self,
    f.baseline.total,
    f.run.self,
    f.run.total,
    ...(relative ? [shareOf(d, 'baseline', f.baseline.total) * 100, shareOf(d, 'run', f.run.total) * 100] : []),
    f.delta.self * scale,
    f.delta.total * scale,
    ...(repeats ? repeatCells(repeats.byKey.get(f.key), scale) : []),
  ]);
  return toCsv(header, body);
}

/** A function's interval, verdict and smallest detectable change across repeats (empty where it has none). */
function repeatCells(c: FunctionChange | undefined, scale: number): (string | number)[] {
  if (!c?.interval) return ['', '', '', ''];
  return [
    c.interval.low * scale,
    c.interval.high * scale,
    c.significant ? 'yes' : 'no',
    c.detectable === undefined ? '' : c.detectable * scale,
  ];
}

/** The diff table as a Markdown report with a headline, formatted as the app shows it. */
export function diffTableMarkdown(
  d: ProfileDiff,
  rows: readonly FunctionDiff[],
  names: { baseline: string; run: string },
  repeats?: RepeatsColumns,
): string {
  const relative = d.measure === 'fraction';
  const side = (s: 'baseline' | 'run', w: number) => (relative ? formatShare(shareOf(d, s, w)) : formatWeight(w, d.unit));
  const out = [
    `## ${mdText(names.run)} against ${mdText(names.baseline)}`,
    '',
    `**${formatChange(d.change)}${repeats ? costPlusMinus(repeats.stats.total) : ''}** total ` +
      `(${formatWeight(d.run.total, d.unit)} against ${formatWeight(d.baseline.total, d.unit)})` +
      `${d.baseline.idle + d.run.idle > 0 ? ', idle left out' : ''}; ` +
      (relative ? 'each run as a share of its own total, deltas in percentage points.' : `deltas in ${d.unit}.`),
    '',
  ];
  if (repeats)
    out.splice(
      3,
      0,
      `${repeatsCount(repeats.stats.repeats)}: Δ ${repeats.measure} with its 95% interval across the repeats (Welch's t); ` +
        'a change is beyond noise after false-discovery-rate control at 5% (Benjamini–Hochberg).',
      '',
    );
  if (rows.length === 0) return `${out.join('\n')}No function changed beyond the noise threshold.\n`;
  const table = rows.map((f, i) => [
    String(i + 1),
    mdText(f.name),
    mdText(f.file ? `${f.file.replace(/^.*node_modules\//, '')}${f.line > 0 ? `:${f.line}` : ''}` : ''),
    f.status,
    side('baseline', f.baseline.total),
    side('run', f.run.total),
    formatDelta(d, f.delta.total),
    formatDelta(d, f.delta.self),
    ...(repeats ? repeatText(d, repeats.byKey.get(f.key)) : []),
  ]);
  const header = ['#', 'function', 'file', 'status', 'baseline total', 'run total', 'Δ total', 'Δ self'];
  if (repeats) header.push(`Δ ${repeats.measure}, 95% interval`, 'beyond noise', 'detects');
  out.push(toMarkdownTable(header, table, [true, false, false, false, true, true, true, true, true, false, true]));
  return out.join('\n');
}

/** A function's interval, verdict and smallest detectable change, as the app writes them. */
function repeatText(d: ProfileDiff, c: FunctionChange | undefined): string[] {
  if (!c?.interval) return ['', '', ''];
  return [formatInterval(d, c.interval.low, c.interval.high), c.significant ? 'yes' : 'no', formatDetectable(d, c) ?? ''];
}
