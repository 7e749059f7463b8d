/**
 * Questions asked of a `ProfileDiff`: which merged node a key path is (to colour a pane's view
 * nodes, which carry keys, not tree ids), per-node deltas aligned to one run's call tree, ranked
 * function tables, and the numbers formatted the same way in the CLI and the app.
 */
import type { Unit } from '../model/types';
import { PairMap } from './pair-map';
import { type DiffStatus, type FunctionDiff, type ProfileDiff, byDeltaThenKey } from './diff';

export interface DiffIndex {
  /** key id of a frame key, -1 when neither run has it */
  keyId(key: string): number;
  /** the merged child of merged node `parent` for `key`, -1 when neither run has that path */
  child(parent: number, key: string): number;
  /** the merged node of a key path from the root (`[]` is the root), -1 when neither run has it */
  path(keys: readonly string[]): number;
}

/**
 * Lookup maps over a diff, built once (a memoized selector's job) and kept outside the diff
 * itself so that the diff stays plain data for the worker boundary.
 */
export function indexDiff(d: ProfileDiff): DiffIndex {
  const ids = new Map<string, number>();
  d.keys.forEach((k, i) => ids.set(k, i));
  // With entry scripts matched, the run's own keys of its entry script find the baseline's.
  const entry = d.entry;
  if (entry) {
    const suffix = `\t${entry.baseline}`;
    d.keys.forEach((k, i) => {
      if (k.endsWith(suffix)) ids.set(`${k.slice(0, k.length - suffix.length)}\t${entry.run}`, i);
    });
  }
  const children = new PairMap(d.tree.length);
  const t = d.tree;
  for (let i = 1; i < t.length; i++) children.set(t.parent[i]!, t.key[i]!, i);
  const keyId = (key: string) => ids.get(key) ?? -1;
  const child = (parent: number, key: string) => {
    const k = keyId(key);
    return parent < 0 || k < 0 ? -1 : children.get(parent, k);
  };
  return {
    keyId,
    child,
    path(keys) {
      let m = 0;
      for (const k of keys) if ((m = child(m, k)) < 0) return -1;
      return m;
    },
  };
}

/**
 * A delta per call-tree node of one side, aligned with that profile's `tree` (index = tree node):
 * the delta of the node's key path, in `d.measure`; NaN for nodes without weight.
 */
export function nodeDeltas(d: ProfileDiff, side: 'baseline' | 'run', which: 'total' | 'self' = 'total'): Float64Array {
  const map = side === 'run' ? d.runNode : d.baselineNode;
  const src = which === 'total' ? d.tree.deltaTotal : d.tree.deltaSelf;
  const out = new Float64Array(map.length);
  for (let i = 0; i < map.length; i++) out[i] = map[i]! >= 0 ? src[map[i]!]! : NaN;
  return out;
}

export interface RankOptions {
  /** which delta to rank by (default 'total') */
  by?: 'total' | 'self';
  /** keep only these statuses (default: all but 'unchanged') */
  status?: readonly DiffStatus[];
  /** at most this many (default all) */
  limit?: number;
}

/** Functions ordered by |delta| (ties: the other delta, then key). */
export function rankFunctions(d: ProfileDiff, opts: RankOptions = {}): FunctionDiff[] {
  const keep = new Set<DiffStatus>(opts.status ?? ['new', 'removed', 'changed']);
  const list = d.functions.filter((f) => keep.has(f.status));
  if (opts.by === 'self') {
    list.sort((a, b) => Math.abs(b.delta.self) - Math.abs(a.delta.self) || byDeltaThenKey(a, b));
  } else list.sort(byDeltaThenKey);
  return opts.limit !== undefined ? list.slice(0, opts.limit) : list;
}

/** A weight of one side as a share of that side's total (0 for an empty side). */
export function shareOf(d: ProfileDiff, side: 'baseline' | 'run', weight: number): number {
  const total = d[side].total;
  return total > 0 ? weight / total : 0;
}

/**
 * A delta as weight on the run's scale, whatever the measure: in relative mode this is
 * `run − baseline × run total / baseline total`, the number `difffolded.pl -n` gives.
 */
export function deltaWeight(d: ProfileDiff, delta: number): number {
  return d.measure === 'weight' ? delta : delta * d.run.total;
}

/**
 * Run minus baseline weight on the run's scale, from raw weights: exact where `deltaWeight` of a
 * share difference picks up rounding (for printing counts).
 */
export function scaledDelta(d: ProfileDiff, baselineWeight: number, runWeight: number): number {
  return runWeight - baselineWeight * d.baselineScale;
}

/** A delta as a difference of shares, whatever the measure (absolute deltas over the baseline's total). */
export function deltaShare(d: ProfileDiff, delta: number): number {
  if (d.measure === 'fraction') return delta;
  return d.baseline.total > 0 ? delta / d.baseline.total : 0;
}

const UNIT_WORDS: Record<Unit, string> = {
  samples: 'samples',
  microseconds: 'µs',
  nanoseconds: 'ns',
  events: 'events',
  bytes: 'bytes',
};

function grouped(v: number, digits: number): string {
  return v.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: digits });
}

/** A weight with its unit: `1,234 samples`, `12.5 MB`, time in the largest unit that fits (`2.32 s`). */
export function formatWeight(v: number, unit: Unit): string {
  if (unit === 'microseconds' || unit === 'nanoseconds') {
    const us = unit === 'nanoseconds' ? v / 1000 : v;
    const a = Math.abs(us);
    if (a >= 1e6) return `${grouped(us / 1e6, 2)} s`;
    if (a >= 1e3) return `${grouped(us / 1e3, a >= 1e5 ? 0 : 1)} ms`;
    return unit === 'nanoseconds' && a < 1 ? `${grouped(v, 0)} ns` : `${grouped(us, a >= 100 ? 0 : 1)} µs`;
  }
  return `${grouped(v, Math.abs(v) >= 100 ? 0 : 1)} ${UNIT_WORDS[unit]}`;
}

/** A signed delta in the diff's measure: `+4.98 pp` (relative) or `+120 samples` (absolute). */
export function formatDelta(d: ProfileDiff, delta: number): string {
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  if (d.measure === 'fraction') return `${sign}${Math.abs(delta * 100).toFixed(2)} pp`;
  return `${sign}${formatWeight(Math.abs(delta), d.unit)}`;
}

/** A ratio change as a percentage: `+66%`, `−3.2%`, `+∞%` for an empty baseline. */
export function formatChange(change: number): string {
  if (!Number.isFinite(change)) return '+∞%';
  const pct = change * 100;
  const sign = pct > 0 ? '+' : pct < 0 ? '−' : '±';
  const abs = Math.abs(pct);
  return `${sign}${abs >= 10 ? abs.toFixed(0) : abs.toFixed(1)}%`;
}

/** A share as a percentage: `23.4%`. */
export function formatShare(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}
