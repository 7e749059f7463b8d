/**
 * `flamelens diff BASE RUN`: what a run costs compared with the baseline — the total change, the
 * share an agent owns (`--match`), and the functions that changed most — as text, JSON or
 * Markdown; `--fail-above` turns it into a CI gate.
 */
import { parseArgs } from 'node:util';
import { type FunctionDiff, type Normalize, type ProfileDiff, DiffError, commonUnit, diffProfiles } from '../../shared/diff/diff';
import { formatChange, formatDelta, formatShare, formatWeight, rankFunctions, scaledDelta, shareOf } from '../../shared/diff/diff-query';
import { comparableFile } from '../../shared/model/frame-key';
import type { Profile } from '../../shared/model/types';
import { runNames } from '../../shared/runs/run-names';
import type { Weighing } from '../../shared/model/weigh';
import { totalNoun } from '../../shared/search/busy';
import { mdCode } from '../../shared/report/fields';
import { compileQuery } from '../../shared/search/matcher';
import { writeJson, writeText } from './output';
import { CliError } from './errors';
import { stdinOnce } from './load';
import { type RunArg, expectRuns, runArgs } from './runs';
import { loadSides, repeatsLine } from './diff-repeats';
import type { FunctionChange, RepeatsComparison } from '../../shared/diff/repeats';
import type { CommandHelp } from './usage';

export const DIFF_HELP: CommandHelp = {
  name: 'diff',
  synopsis:
    'flamelens diff BASE RUN [--match PATTERN] [--weight time|samples] [--idle exclude|include] [--normalize absolute|relative] [--no-match-entry] [--top N] [--json|--markdown] [--fail-above PERCENT]',
  summary: 'compare a run with the baseline: total cost change, agent share, functions that changed most',
  details:
    "BASE and RUN are each a file, or a Node.js process's per-thread .cpuprofile files\n" +
    '(node --cpu-prof with worker_threads) named together or as their folder: one run, a thread\n' +
    'per file, the main thread compared by default; or a folder of repeated runs (several\n' +
    "profiles of one kind): the mean of the repeats is compared, and each function's change gets\n" +
    "a 95% interval across repeats (Welch's t) and a verdict with the false discovery rate held at\n" +
    '5% (Benjamini-Hochberg).\n' +
    'Call paths and functions are matched across the two files by name and file (V8 tiers,\n' +
    'addresses and absolute path prefixes left out). Both files must be measured alike (samples\n' +
    'with samples, time with time, bytes with bytes).\n\n' +
    '  --match PATTERN        share of each run whose stack holds a matching frame, and whose\n' +
    "                         innermost frame matches; PATTERN is searched like the app's search\n" +
    '                         box: text (case-insensitive) or /regex/, against names and paths\n' +
    '  --weight time          (default where both files have sample times: V8 .cpuprofile, trace\n' +
    '                         and 0x samples) each sample weighs how long it lasted, until the\n' +
    '                         next sample (the last one the mean interval), in microseconds\n' +
    '  --weight samples       each sample weighs 1: sample counts\n' +
    '  --normalize absolute   (default) both runs did the same work (the same load): a delta\n' +
    '                         is weight added, in the unit\n' +
    "  --normalize relative   each run as a share of its own total: a function's delta is its\n" +
    '                         change in share, in percentage points, so runs of different\n' +
    '                         lengths compare (difffolded.pl -n)\n' +
    "  --no-match-entry       keep the entry scripts apart: by default the run's entry script\n" +
    '                         (its first application file, e.g. server-otel.js) is the same\n' +
    "                         frame as the baseline's (server-baseline.js)\n" +
    '  --top N                functions listed (default 20; 0 for all that changed)\n' +
    '  --threshold PP         changes within this many percentage points (of the run, relative;\n' +
    '                         of the baseline, absolute) count as noise (default 0.1)\n' +
    '  --idle exclude         (default) leave out idle samples (V8 "(idle)", the kernel\'s idle\n' +
    '                         task), when the thread waited for work: totals, shares and the\n' +
    '                         change are of busy CPU\n' +
    '  --idle include         count idle samples too: totals are of every sample\n' +
    "  --fail-above PERCENT   exit status 2 when the run's total exceeds the baseline's by more\n" +
    '                         than PERCENT (a CI gate); with repeats, only when the 95% interval\n' +
    '                         of the change lies wholly above PERCENT, so noise does not fail it\n' +
    '  --event NAME           perf script: the event type to keep (default: the first one)\n' +
    '  --thread PID:TID|NAME|all  files with samples of several threads: the thread to compare\n' +
    '                         (default: the busiest main thread; stderr says which)\n' +
    '  --json                 one JSON object: unit, normalize, idle, change (run total / baseline\n' +
    '                         total - 1), baseline and run {file, name, total, idle, match}, and\n' +
    '                         functions [{name, file, line, baseline, run, delta, status}]. self\n' +
    '                         and total are in unit (sample counts for sampled profiles),\n' +
    "                         selfShare and totalShare fractions of that run's total; delta.self\n" +
    '                         and delta.total are run minus baseline in unit, the baseline scaled\n' +
    "                         to the run's total when relative; delta.*Share the change in share.\n" +
    '                         Functions are ranked by |delta.total|; status is new, removed or\n' +
    '                         changed. idle says whether totals leave idle samples out\n' +
    '                         ("excluded") or count them ("included"). entry is {baseline,\n' +
    '                         run}, the entry scripts matched, or null. With repeats also\n' +
    '                         repeats {baseline, run}, changeInterval {low, high} of change, and\n' +
    '                         per function interval {low, high} of delta.self and significant.\n' +
    '  --markdown             the same as a Markdown report\n',
};

function help(): string {
  const h = DIFF_HELP;
  return `Usage: ${h.synopsis}\n\n${h.summary[0]!.toUpperCase()}${h.summary.slice(1)}.\n\n${h.details}`;
}

export interface Parsed {
  /** what names each side: its path (a process's files: the main thread's file) */
  base: string;
  run: string;
  /** the two runs, as named */
  sides: [RunArg, RunArg];
  match?: string;
  normalize: Normalize;
  weight?: Weighing;
  thread?: string;
  top: number;
  threshold: number;
  excludeIdle: boolean;
  matchEntry: boolean;
  output: 'text' | 'json' | 'markdown';
  failAbove?: number;
  event?: string;
}

function parse(args: string[]): Parsed | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        match: { type: 'string' },
        normalize: { type: 'string' },
        weight: { type: 'string' },
        thread: { type: 'string' },
        top: { type: 'string' },
        threshold: { type: 'string' },
        idle: { type: 'string' },
        // the flag of earlier versions, the same as --idle exclude
        'exclude-idle': { type: 'boolean' },
        'no-match-entry': { type: 'boolean' },
        json: { type: 'boolean' },
        markdown: { type: 'boolean' },
        'fail-above': { type: 'string' },
        event: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    // Node's message can span lines ("…ambiguous.\nDid you forget…"); errors here are one line.
    throw new CliError(`${(e as Error).message.replace(/\s*\n\s*/g, ' ')} (see flamelens diff --help)`);
  }
  const { values: v, positionals } = parsed;
  if (v.help) return 'help';
  stdinOnce(positionals);
  // Two files of one process's threads are compared with each other, as two files always were.
  const twoFiles = positionals.length === 2 && runArgs(positionals).length === 1;
  const [baseRun, runRun] = twoFiles
    ? positionals.map((label) => ({ label }))
    : expectRuns(
        positionals,
        2,
        'diff',
        "exactly two files, BASE and RUN (either may be a process's per-thread .cpuprofile files, named together or as their folder)",
      );
  const normalize = v.normalize ?? 'absolute';
  if (normalize !== 'relative' && normalize !== 'absolute')
    throw new CliError(`--normalize must be relative or absolute, not "${normalize}"`);
  if (v.idle !== undefined && v.idle !== 'include' && v.idle !== 'exclude')
    throw new CliError(`--idle must be include or exclude, not "${v.idle}"`);
  if (v.idle === 'include' && v['exclude-idle']) throw new CliError('--exclude-idle contradicts --idle include');
  if (v.weight !== undefined && v.weight !== 'time' && v.weight !== 'samples')
    throw new CliError(`--weight must be time or samples, not "${v.weight}"`);
  const top = v.top === undefined ? 20 : Number(v.top);
  if (!Number.isInteger(top) || top < 0 || v.top?.trim() === '')
    throw new CliError(`--top must be a whole number (0 for all), not "${v.top}"`);
  const threshold = v.threshold === undefined ? 0.1 : Number(v.threshold);
  if (!(threshold >= 0) || v.threshold?.trim() === '')
    throw new CliError(`--threshold must be percentage points (0 or more), not "${v.threshold}"`);
  if (v.json && v.markdown) throw new CliError('choose one of --json and --markdown');
  let failAbove: number | undefined;
  if (v['fail-above'] !== undefined) {
    const text = v['fail-above'].trim().replace(/%$/, '');
    failAbove = Number(text);
    if (text === '' || !Number.isFinite(failAbove))
      throw new CliError(`--fail-above must be a percentage such as 10, not "${v['fail-above']}"`);
  }
  if (v.match !== undefined && v.match.trim() === '') throw new CliError('--match needs a PATTERN');
  const p: Parsed = {
    base: baseRun!.label,
    run: runRun!.label,
    sides: [baseRun!, runRun!] as [RunArg, RunArg],
    normalize,
    top,
    threshold,
    excludeIdle: v.idle !== 'include',
    matchEntry: v['no-match-entry'] !== true,
    output: v.json ? 'json' : v.markdown ? 'markdown' : 'text',
  };
  if (v.match !== undefined) p.match = v.match;
  if (v.weight !== undefined) p.weight = v.weight;
  if (v.thread !== undefined) p.thread = v.thread;
  if (failAbove !== undefined) p.failAbove = failAbove;
  if (v.event !== undefined) p.event = v.event;
  return p;
}

/** 4 decimals for shares, 2 for weights: enough to trust, short enough to read. */
const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  const r = Math.round(v * f) / f;
  return r === 0 ? 0 : r; // no -0 in JSON
};

function sideJson(d: ProfileDiff, side: 'baseline' | 'run', file: string, name: string): Record<string, unknown> {
  const s = d[side];
  const out: Record<string, unknown> = { file, name, total: round(s.total, 2), idle: round(s.idle, 2) };
  if (s.match) out.match = { inclusive: round(s.match.inclusive, 4), self: round(s.match.self, 4) };
  return out;
}

function functionJson(d: ProfileDiff, f: FunctionDiff): Record<string, unknown> {
  const side = (s: 'baseline' | 'run') => ({
    self: round(f[s].self, 2),
    total: round(f[s].total, 2),
    selfShare: round(shareOf(d, s, f[s].self), 4),
    totalShare: round(shareOf(d, s, f[s].total), 4),
  });
  const b = side('baseline');
  const r = side('run');
  return {
    name: f.name,
    file: f.file,
    line: f.line,
    baseline: b,
    run: r,
    delta: {
      self: round(scaledDelta(d, f.baseline.self, f.run.self), 2),
      total: round(scaledDelta(d, f.baseline.total, f.run.total), 2),
      selfShare: round(shareOf(d, 'run', f.run.self) - shareOf(d, 'baseline', f.baseline.self), 4),
      totalShare: round(shareOf(d, 'run', f.run.total) - shareOf(d, 'baseline', f.baseline.total), 4),
    },
    status: f.status,
  };
}

/** The runs' names as the app gives them: what tells their paths apart (`baseline/CPU…`, `ddtrace/CPU…`). */
function names(a: Parsed): { base: string; run: string } {
  const [base, run] = runNames([a.base, a.run]);
  return { base: base!, run: run! };
}

function jsonReport(d: ProfileDiff, a: Parsed, list: FunctionDiff[], stats?: RepeatsComparison): string {
  const byKey = new Map(stats?.functions.map((f) => [f.key, f]));
  const report: Record<string, unknown> = {
    unit: d.unit,
    normalize: d.normalize,
    idle: a.excludeIdle ? 'excluded' : 'included',
    change: Number.isFinite(d.change) ? round(d.change, 4) : null,
    baseline: sideJson(d, 'baseline', a.base, names(a).base),
    run: sideJson(d, 'run', a.run, names(a).run),
    functions: list.map((f) => ({ ...functionJson(d, f), ...repeatsJson(byKey.get(f.key)) })),
    entry: d.entry ?? null,
    warnings: d.warnings,
  };
  if (stats) {
    report.repeats = stats.repeats;
    const ci = stats.total.ratioInterval;
    if (ci) report.changeInterval = { low: round(ci.low, 4), high: round(ci.high, 4) };
  }
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** A function's interval of `delta.self` across repeats and whether it holds (absent without repeats on both sides). */
function repeatsJson(f: FunctionChange | undefined): Record<string, unknown> {
  if (!f?.interval) return {};
  return { interval: { low: round(f.interval.low, 2), high: round(f.interval.high, 2) }, significant: f.significant === true };
}

/** What the totals measure, in words for the headline. */
function measureNoun(p: Profile, idleIncluded: boolean): string {
  if (p.unit === 'bytes') return 'allocated bytes';
  // Idle samples are time the thread waited: with them the totals are not CPU time.
  if (idleIncluded) return p.unit === 'samples' ? 'samples' : 'time on the thread';
  return p.kind === 'spans' ? 'span time' : 'CPU time';
}

/** What shares are of, for the notes. */
function shareNoun(idleExcluded: boolean, p: Profile): string {
  return idleExcluded ? totalNoun(p) : p.unit === 'samples' ? 'all samples' : 'the whole run';
}

interface Lines {
  headline: string;
  /** notes under the headline */
  notes: string[];
}

function headline(d: ProfileDiff, a: Parsed, run: Profile, withoutIdle: ProfileDiff | undefined): Lines {
  const idleIncluded = !a.excludeIdle && (d.baseline.idle > 0 || d.run.idle > 0);
  const noun = measureNoun(run, idleIncluded);
  const notes: string[] = [];
  const n = names(a);
  const baseWord = n.base === 'baseline' ? 'baseline' : `${n.base} (baseline)`;
  notes.push(
    `totals of ${shareNoun(a.excludeIdle, run)}: ${n.run} ${formatWeight(d.run.total, d.unit)}, ${baseWord} ${formatWeight(d.baseline.total, d.unit)}`,
  );
  if (idleIncluded && withoutIdle) {
    notes.push(
      `idle samples are ${formatShare(shareOf(d, 'baseline', d.baseline.idle))} of the baseline and ${formatShare(shareOf(d, 'run', d.run.idle))} of the run; ` +
        `without them: ${formatChange(withoutIdle.change)} CPU time (--idle exclude)`,
    );
  }
  if (a.excludeIdle && (d.baseline.idle > 0 || d.run.idle > 0)) {
    notes.push(
      `idle samples left out: ${formatWeight(d.baseline.idle, d.unit)} in the baseline, ${formatWeight(d.run.idle, d.unit)} in the run (--idle include counts them)`,
    );
  }
  if (a.match !== undefined && d.baseline.match && d.run.match) {
    notes.push(
      `"${a.match}" is on the stack in ${formatShare(d.baseline.match.inclusive)} of the baseline's ${shareNoun(a.excludeIdle, run)} and ` +
        `${formatShare(d.run.match.inclusive)} of the run's, ` +
        `the innermost frame in ${formatShare(d.baseline.match.self)} and ${formatShare(d.run.match.self)}`,
    );
  }
  if (d.entry) notes.push(`entry scripts matched: ${d.entry.run} as ${d.entry.baseline} (--no-match-entry keeps them apart)`);
  notes.push(
    d.normalize === 'relative'
      ? `relative: each run as a share of its own total, deltas in percentage points (pp); changes within ±${a.threshold} pp are noise`
      : `absolute: both runs did the same work, deltas in ${d.unit}; changes within ${a.threshold}% of the baseline are noise`,
  );
  return { headline: `${formatChange(d.change)} ${noun} for the same work${idleIncluded ? ' (idle included)' : ''}`, notes };
}

/** A function's figure for one side: count, and share in relative mode. */
function sideCell(d: ProfileDiff, side: 'baseline' | 'run', v: number): string {
  return d.normalize === 'relative' ? `${formatShare(shareOf(d, side, v))}` : formatWeight(v, d.unit);
}

function where(f: FunctionDiff): string {
  const file = comparableFile(f.file);
  if (file === '') return '';
  return f.line > 0 ? `${file}:${f.line}` : file;
}

function textReport(d: ProfileDiff, a: Parsed, h: Lines, list: FunctionDiff[]): string {
  const out = [h.headline, ...h.notes.map((n) => `  ${n}`), ''];
  if (list.length === 0) return `${out.join('\n')}no function changed beyond the noise threshold\n`;
  const rows = list.map((f) => [
    f.status,
    formatDelta(d, f.delta.total),
    formatDelta(d, f.delta.self),
    sideCell(d, 'baseline', f.baseline.total),
    sideCell(d, 'run', f.run.total),
    `${f.name}  ${where(f)}`.trimEnd(),
  ]);
  const head = ['status', 'Δ total', 'Δ self', 'baseline', 'run', 'function'];
  const width = head.map((t, c) => Math.max(t.length, ...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r.map((cell, c) => (c === r.length - 1 ? cell : c === 0 ? cell.padEnd(width[c]!) : cell.padStart(width[c]!))).join('  ');
  out.push(
    `Top ${list.length} functions by change (baseline and run: total, ${d.normalize === 'relative' ? 'share of each run' : d.unit})`,
  );
  out.push(line(head), ...rows.map(line));
  return `${out.join('\n')}\n`;
}

function markdownReport(d: ProfileDiff, a: Parsed, h: Lines, list: FunctionDiff[]): string {
  const out: string[] = ['# Flamelens diff', '', `**${h.headline}**`, ''];
  for (const n of h.notes) out.push(`- ${n}`);
  out.push('', '| | baseline | run |', '|---|---|---|');
  out.push(`| file | ${mdCode(a.base)} | ${mdCode(a.run)} |`);
  out.push(`| name | ${mdCode(names(a).base)} | ${mdCode(names(a).run)} |`);
  out.push(`| total | ${formatWeight(d.baseline.total, d.unit)} | ${formatWeight(d.run.total, d.unit)} |`);
  if (d.baseline.idle > 0 || d.run.idle > 0)
    out.push(
      `| idle${a.excludeIdle ? ' (left out)' : ''} | ${formatWeight(d.baseline.idle, d.unit)} | ${formatWeight(d.run.idle, d.unit)} |`,
    );
  if (a.match !== undefined && d.baseline.match && d.run.match) {
    out.push(`| ${mdCode(a.match)} on the stack | ${formatShare(d.baseline.match.inclusive)} | ${formatShare(d.run.match.inclusive)} |`);
    out.push(`| ${mdCode(a.match)} innermost | ${formatShare(d.baseline.match.self)} | ${formatShare(d.run.match.self)} |`);
  }
  out.push('', `## Top ${list.length} functions by change`, '');
  if (list.length === 0) {
    out.push('No function changed beyond the noise threshold.');
    return `${out.join('\n')}\n`;
  }
  const unitWord = d.normalize === 'relative' ? 'share' : d.unit;
  out.push(`| # | function | file | status | baseline total (${unitWord}) | run total (${unitWord}) | Δ total | Δ self |`);
  out.push('|---:|---|---|---|---:|---:|---:|---:|');
  list.forEach((f, i) => {
    out.push(
      `| ${i + 1} | ${mdCode(f.name)} | ${where(f) ? mdCode(where(f)) : ''} | ${f.status} | ${sideCell(d, 'baseline', f.baseline.total)} | ` +
        `${sideCell(d, 'run', f.run.total)} | ${formatDelta(d, f.delta.total)} | ${formatDelta(d, f.delta.self)} |`,
    );
  });
  return `${out.join('\n')}\n`;
}

export async function diffCommand(args: string[]): Promise<number> {
  const a = parse(args);
  if (a === 'help') {
    process.stdout.write(help());
    return 0;
  }
  let matcher;
  if (a.match !== undefined) {
    const q = compileQuery(a.match)!;
    if (q.error) throw new CliError(`--match ${a.match}: ${q.error}`);
    matcher = q.match;
  }
  const { base, run, stats } = await loadSides(a);
  if (!commonUnit(base.unit, run.unit))
    throw new CliError(
      `cannot compare ${a.base} (measured in ${base.unit}) with ${a.run} (measured in ${run.unit}): diff needs two profiles measured alike`,
    );
  const opts = {
    normalize: a.normalize,
    threshold: a.threshold / 100,
    excludeIdle: a.excludeIdle,
    matchEntry: a.matchEntry,
    ...(matcher ? { matcher } : {}),
  };
  let d: ProfileDiff;
  let withoutIdle: ProfileDiff | undefined;
  try {
    d = diffProfiles(base, run, opts);
    // The headline also says what the change is without idle samples, when they are counted.
    if (a.output !== 'json' && !a.excludeIdle && (d.baseline.idle > 0 || d.run.idle > 0))
      withoutIdle = diffProfiles(base, run, { ...opts, excludeIdle: true });
  } catch (e) {
    if (e instanceof DiffError) throw new CliError(e.message);
    throw e;
  }
  for (const w of d.warnings) writeText(process.stderr, `flamelens: warning: ${w}\n`);
  const list = rankFunctions(d, a.top > 0 ? { limit: a.top } : {});
  if (a.output === 'json') writeJson(process.stdout, jsonReport(d, a, list, stats));
  else {
    const h = headline(d, a, run, withoutIdle);
    if (stats) h.notes.push(repeatsLine(stats));
    writeText(process.stdout, a.output === 'markdown' ? markdownReport(d, a, h, list) : textReport(d, a, h, list));
  }
  // With repeats, the gate fails only when the whole interval is past the budget: noise does not flake it.
  const low = stats?.total.ratioInterval?.low;
  const over = low !== undefined ? low * 100 : d.change * 100;
  if (a.failAbove !== undefined && over > a.failAbove) {
    process.stderr.write(
      `flamelens: the run's total is ${(d.change * 100).toFixed(1)}% over the baseline's (${formatWeight(d.run.total, d.unit)} vs ` +
        `${formatWeight(d.baseline.total, d.unit)})${low !== undefined ? `, at least ${(low * 100).toFixed(1)}% at 95% confidence` : ''}, more than --fail-above ${a.failAbove}%\n`,
    );
    return 2;
  }
  return 0;
}
