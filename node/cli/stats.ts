/**
 * `flamelens stats TRACE…`: how many events of each type every trace-event file holds, their
 * bytes in the file and their duration, the first file as the baseline the others are compared
 * with — as an aligned text table, JSON or Markdown.
 */
import type { TraceEventStat } from '../../shared/model/types';
import { mdCode } from '../../shared/report/fields';
import { PHASE_NAMES } from '../../shared/stats/trace-phases';
import {
  formatBytes,
  formatChange,
  formatCount,
  formatDuration,
  formatMeasure,
  statsMarkdown,
} from '../../shared/stats/trace-table-export';
import {
  DEFAULT_THRESHOLD,
  type Grouping,
  GROUPINGS,
  type StatsRow,
  type StatsTable,
  buildStatsTable,
  groupStats,
} from '../../shared/stats/trace-table';
import { type CommandHelp, defineCommand, helpText, parseCommandArgs } from './command';
import { type Output, writeJson, writeText } from './output';
import { CliError } from './errors';
import { runNames } from '../../shared/runs/run-names';
import { load, stdinOnce } from './load';

/** The widest label column of the text report, in characters. */
const MAX_LABEL = 120;

export const STATS_HELP: CommandHelp = {
  name: 'stats',
  synopsis: 'flamelens stats TRACE… [--group name|phase|category] [--threshold PERCENT] [--json|--markdown]',
  summary: 'count the events of each type in trace-event files, the first file as the baseline',
  details:
    'For each file (node --trace-event-categories output, Chrome traces; gzip accepted) and each\n' +
    "event type: the number of events, their bytes in the file (the UTF-8 length of each event's\n" +
    'JSON text, "{" to "}"), the summed duration of those that have one (X events, paired B/E\n' +
    'and b/e) and the wall time they cover (the time at least one of them was open: async\n' +
    'lifetimes overlap, so their sum can be far longer than the trace). The first file is the\n' +
    'baseline: changes beyond the threshold are shown, "new" marks\n' +
    'types the baseline does not have, "gone" types only the baseline has.\n\n' +
    '  --group name        one row per category and name, all phases summed (default)\n' +
    '  --group phase       one row per phase (X, B, E, b, e, M…)\n' +
    '  --group category    one row per category\n' +
    `  --threshold PERCENT changes within this much of the baseline are not shown (default ${DEFAULT_THRESHOLD * 100})\n` +
    '  --json              {"files": [{"file", "rows": [{"category", "name", "count", "bytes",\n' +
    '                      "duration", "covered"}]}]}, durations in microseconds (summed, and wall\n' +
    '                      time covered), rows by count, largest first; with --group phase a row\n' +
    '                      has "phase" instead of "category" and "name", with --group category\n' +
    '                      "category" alone\n' +
    '  --markdown          the comparison as a Markdown table\n',
};

interface Parsed {
  files: string[];
  group: Grouping;
  threshold: number;
  output: 'text' | 'json' | 'markdown';
}

function parse(args: string[]): Parsed | 'help' {
  const parsed = parseCommandArgs('stats', args, {
    group: { type: 'string' },
    threshold: { type: 'string' },
    json: { type: 'boolean' },
    markdown: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  const { values: v, positionals } = parsed;
  if (v.help) return 'help';
  if (positionals.length === 0) throw new CliError('stats needs at least one TRACE file (see flamelens stats --help)');
  const group = (v.group ?? 'name') as Grouping;
  if (!GROUPINGS.includes(group)) throw new CliError(`--group must be name, phase or category, not "${v.group}"`);
  const text = v.threshold?.trim().replace(/%$/, '');
  const threshold = text === undefined ? DEFAULT_THRESHOLD * 100 : Number(text);
  if (text === '' || !(threshold >= 0)) throw new CliError(`--threshold must be a percentage (0 or more), not "${v.threshold}"`);
  if (v.json && v.markdown) throw new CliError('choose one of --json and --markdown');
  stdinOnce(positionals);
  return { files: positionals, group, threshold: threshold / 100, output: v.json ? 'json' : v.markdown ? 'markdown' : 'text' };
}

/** The statistics of a trace-event file; anything else is an error naming the file. */
async function traceStatsOf(path: string): Promise<TraceEventStat[]> {
  const p = await load(path);
  if (p.format !== 'trace-events' || !p.traceStats || p.traceStats.length === 0)
    throw new CliError(`${path} has no trace events; stats needs trace-event JSON (this file was read as ${p.format})`);
  return p.traceStats;
}

/**
 * Column titles for the files: the run names the app gives them, what tells their paths apart,
 * so that `runs/baseline/node_trace.1.log` and `runs/ddtrace/node_trace.1.log` are `baseline`
 * and `ddtrace` rather than two identical file names.
 */
export function shortLabels(paths: string[]): string[] {
  return runNames(paths);
}

function jsonReport(files: string[], stats: TraceEventStat[][], group: Grouping): string {
  const out = files.map((file, i) => ({
    file,
    rows: groupStats(stats[i]!, group).map((r) => {
      const label =
        group === 'name' ? { category: r.category, name: r.name } : group === 'phase' ? { phase: r.phase } : { category: r.category };
      // null: a wall time the input does not say (NaN is not JSON).
      return { ...label, count: r.count, bytes: r.bytes, duration: r.duration, covered: Number.isNaN(r.covered) ? null : r.covered };
    }),
  }));
  return `${JSON.stringify({ files: out }, null, 2)}\n`;
}

const GROUP_WORDS: Record<Grouping, string> = { name: 'category and name', phase: 'phase', category: 'category' };

/** One line per file: its events and bytes, and how the totals compare with the baseline's. */
function fileLines(t: StatsTable, names: readonly string[] = t.runs): string[] {
  return names.map((run, i) => {
    const c = t.total.cells[i]!;
    const vs = i === 0 ? 'baseline' : `${formatChange(c.change.count)} events, ${formatChange(c.change.bytes)} bytes vs baseline`;
    return `${run}: ${formatCount(c.count)} events, ${formatBytes(c.bytes)} (${vs})`;
  });
}

/** A change cell of the text table: empty within the threshold. */
function changeText(r: StatsRow, run: number, m: 'count' | 'duration' | 'covered'): string {
  const c = r.cells[run]!.change[m];
  return c.flag === 'same' ? '' : formatChange(c);
}

function labelCells(t: StatsTable, r: StatsRow, total: boolean): string[] {
  if (total) return t.grouping === 'name' ? ['Total', '', ''] : ['Total', ''];
  if (t.grouping === 'name') return [r.category, r.name, r.phases.join(' ')];
  if (t.grouping === 'phase') return [r.phase, PHASE_NAMES[r.phase] ?? ''];
  return [r.category, r.phases.join(' ')];
}

/** The comparison as columns: labels left-aligned, figures right-aligned, a title over each file's columns. */
function textReport(t: StatsTable): string {
  const labelHead =
    t.grouping === 'name' ? ['category', 'name', 'phases'] : t.grouping === 'phase' ? ['phase', 'meaning'] : ['category', 'phases'];
  // The summed duration of overlapping spans is not time: the wall time they cover stands beside it.
  const runHead = (i: number) =>
    i === 0
      ? ['count', 'bytes', 'duration (sum)', 'wall time']
      : ['count', 'change', 'bytes', 'duration (sum)', 'change', 'wall time', 'change'];
  const line = (r: StatsRow, total: boolean) => {
    const cells = labelCells(t, r, total);
    r.cells.forEach((c, i) => {
      const timed = c.duration > 0;
      const figures = [
        formatCount(c.count),
        formatBytes(c.bytes),
        timed ? formatDuration(c.duration) : '',
        timed ? formatMeasure('covered', c.covered) : '',
      ];
      if (i === 0) cells.push(...figures);
      else
        cells.push(
          figures[0]!,
          changeText(r, i, 'count'),
          figures[1]!,
          figures[2]!,
          changeText(r, i, 'duration'),
          figures[3]!,
          changeText(r, i, 'covered'),
        );
    });
    return cells;
  };
  const head = [...labelHead, ...t.runs.flatMap((_, i) => runHead(i))];
  // A label longer than a terminal line is cut (the JSON and Markdown reports keep it whole):
  // padding every row to a 1 MiB category name ran out of memory.
  const body = [...t.rows.map((r) => line(r, false)), line(t.total, true)].map((cells) =>
    cells.map((cell, c) => (c < labelHead.length && cell.length > MAX_LABEL ? `${cell.slice(0, MAX_LABEL - 1)}…` : cell)),
  );
  const width = head.map((h, c) => Math.max(h.length, ...body.map((b) => b[c]!.length)));
  // Each file's title spans its columns; a long title widens the first of them.
  let col = labelHead.length;
  const groups: { title: string; from: number; to: number }[] = [];
  t.runs.forEach((run, i) => {
    const n = runHead(i).length;
    groups.push({ title: i === 0 ? `${run} (baseline)` : run, from: col, to: col + n });
    col += n;
  });
  for (const g of groups) {
    const span = width.slice(g.from, g.to).reduce((a, b) => a + b, 0) + 2 * (g.to - g.from - 1);
    if (g.title.length > span) width[g.from]! += g.title.length - span;
  }
  const nLabels = labelHead.length;
  const fmt = (cells: string[]) =>
    cells
      .map((s, c) => (c < nLabels ? s.padEnd(width[c]!) : s.padStart(width[c]!)))
      .join('  ')
      .trimEnd();
  let titles = width.slice(0, nLabels).reduce((a, b) => a + b + 2, 0);
  let title = ' '.repeat(titles);
  for (const g of groups) {
    const span = width.slice(g.from, g.to).reduce((a, b) => a + b, 0) + 2 * (g.to - g.from - 1);
    title += g.title.padEnd(span + 2);
    titles += span + 2;
  }
  const rule = '-'.repeat(fmt(head).length);
  const out = [
    `Trace events by ${GROUP_WORDS[t.grouping]}; changes beyond ${formatChange({ absolute: 1, relative: t.threshold, flag: 'differs' }).slice(1)} of the baseline shown`,
    ...fileLines(t).map((l) => `  ${l}`),
    '',
    title.trimEnd(),
    fmt(head),
    rule,
    ...body.slice(0, -1).map(fmt),
    rule,
    fmt(body.at(-1)!),
  ];
  return `${out.join('\n')}\n`;
}

function markdownReport(t: StatsTable, files: string[]): string {
  const out = ['# Flamelens trace statistics', '', `Grouped by ${GROUP_WORDS[t.grouping]}.`, ''];
  for (const l of fileLines(
    t,
    files.map((f) => mdCode(f)),
  ))
    out.push(`- ${l}`);
  out.push('', statsMarkdown(t));
  return `${out.join('\n').trimEnd()}\n`;
}

async function run(args: string[], out: Output): Promise<number> {
  const a = parse(args);
  if (a === 'help') return (out.stdout.write(helpText(STATS_HELP)), 0);
  // One after the other: each file can be tens of megabytes of JSON.
  const stats: TraceEventStat[][] = [];
  for (const f of a.files) stats.push(await traceStatsOf(f));
  if (a.output === 'json') {
    writeJson(out.stdout, jsonReport(a.files, stats, a.group));
    return 0;
  }
  const labels = shortLabels(a.files);
  const table = buildStatsTable(
    stats.map((s, i) => ({ label: labels[i]!, stats: s })),
    { grouping: a.group, threshold: a.threshold },
  );
  writeText(out.stdout, a.output === 'markdown' ? markdownReport(table, a.files) : textReport(table));
  return 0;
}

export const statsCommand = defineCommand(STATS_HELP, run);
