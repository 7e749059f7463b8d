/**
 * The reports of `flamelens diff`: the headline and its notes, and the ranked functions as an
 * aligned text table, Markdown, or JSON (with each repeat interval where the sides were repeats).
 */
import { type FunctionDiff, type ProfileDiff } from '../../shared/diff/diff';
import { formatChange, formatDelta, formatShare, formatWeight, scaledDelta, shareOf } from '../../shared/diff/diff-query';
import type { FunctionChange, RepeatsComparison } from '../../shared/diff/repeats';
import { comparableFile } from '../../shared/model/frame-key';
import type { Profile } from '../../shared/model/types';
import { mdCode } from '../../shared/report/fields';
import { runNames } from '../../shared/runs/run-names';
import { totalNoun } from '../../shared/search/busy';
import type { Parsed } from './diff-args';

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

export function jsonReport(d: ProfileDiff, a: Parsed, list: FunctionDiff[], stats?: RepeatsComparison): string {
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
    report.significance = {
      basis: 'time',
      tested: stats.tested,
      ...(stats.floorSamples !== undefined ? { floorSamples: round(stats.floorSamples, 2) } : {}),
      falseDiscoveryRate: 0.05,
    };
  }
  return `${JSON.stringify(report, null, 2)}\n`;
}

/**
 * A function's interval of `delta.self` across repeats, the interval of its change in share, and
 * whether that change holds (absent without repeats on both sides).
 */
function repeatsJson(f: FunctionChange | undefined): Record<string, unknown> {
  if (!f?.interval) return {};
  const share = f.share?.interval;
  return {
    interval: { low: round(f.interval.low, 2), high: round(f.interval.high, 2) },
    ...(share ? { shareInterval: { low: round(share.low, 4), high: round(share.high, 4) } } : {}),
    significant: f.significant === true,
  };
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

export interface Lines {
  headline: string;
  /** notes under the headline */
  notes: string[];
}

export function headline(d: ProfileDiff, a: Parsed, run: Profile, withoutIdle: ProfileDiff | undefined): Lines {
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

export function textReport(d: ProfileDiff, a: Parsed, h: Lines, list: FunctionDiff[]): string {
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

export function markdownReport(d: ProfileDiff, a: Parsed, h: Lines, list: FunctionDiff[]): string {
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
