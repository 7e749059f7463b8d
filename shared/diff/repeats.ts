/**
 * Changes that hold up across repeated runs. A profile is a sample: run the same load twice and
 * every function's time moves by a few percent, more from run to run (warm-up, scheduling, GC
 * timing) than from sampling alone. With several profiles of each variant, each function's time
 * is a value per repeat; its change against the baseline is the difference of the two means with
 * a 95% interval by Welch's t (unequal variances, Welch–Satterthwaite degrees of freedom), which
 * holds up at 3–10 repeats a side because it estimates the spread from the repeats themselves.
 *
 * Whether a function changed (`significant`) is decided on what is compared: its time, or with
 * `relative` its share of each repeat's total, where a factor that scales a whole repeat (a loaded
 * machine stretching every sample's time) cancels out. So a verdict never contradicts the interval
 * shown beside it. Only functions with enough samples to show a change are tested
 * (`floorSamples`, their mean count over every repeat of both variants, which variant is which
 * left out: independent filtering, Bourgon, Gentleman & Huber 2010, which keeps the false
 * discovery rate), and Benjamini–Hochberg holds it at 5% over those: hundreds of functions of a
 * sample or two no longer raise the bar for the few that can change.
 */
import type { Profile } from '../model/types';
import { functionStats } from '../view/function-stats';
import type { TDistribution } from './t-distribution';

/** A variant's values of one quantity: one per repeat. */
export interface Spread {
  n: number;
  mean: number;
  /** sample standard deviation (n − 1); 0 for one repeat */
  sd: number;
}

export interface Change {
  base: Spread;
  run: Spread;
  /** run mean − base mean */
  delta: number;
  /** 95% interval of `delta` (undefined with fewer than two repeats on a side) */
  interval?: { low: number; high: number };
  /** two-sided p-value of Welch's t */
  p?: number;
  /**
   * the smallest change these repeats would detect with 80% power at the 5% level, as a
   * positive number (the test's noise floor for this quantity)
   */
  detectable?: number;
}

export interface FunctionChange extends Change {
  key: string;
  /** the change of the function's share of each repeat's total (a fraction of it), with its interval */
  share?: Change;
  /**
   * whether the change compared (time, or share with `relative`) holds beyond run-to-run noise:
   * tested when the function has enough samples to test (`RepeatsComparison.floorSamples`), after
   * false-discovery-rate control across the functions tested; false for those not tested (absent
   * without repeats)
   */
  significant?: boolean;
}

export interface RepeatsComparison {
  repeats: { baseline: number; run: number };
  /** every function present in either variant, largest |delta| first */
  functions: FunctionChange[];
  /** the whole run's total (the cost line): its change and interval, and the change as a ratio of the baseline's mean */
  total: Change & { ratio: number; ratioInterval?: { low: number; high: number } };
  /** how many functions were tested (the family the false discovery rate is held over); 0 without repeats */
  tested: number;
  /** the mean samples per repeat a function needed to be tested (absent where the profiles do not count samples: all were tested) */
  floorSamples?: number;
}

export interface RepeatsOptions {
  /** self (default) or total (inclusive) time per function */
  measure?: 'self' | 'total';
  /** compare shares of each profile's own total instead of absolute weights */
  relative?: boolean;
  /** per call-tree node self weights of a profile (default: its own; pass busy weights to leave idle out) */
  weights?: (p: Profile) => Float64Array;
  /** false discovery rate (default 0.05) */
  fdr?: number;
}

function spread(values: readonly number[]): Spread {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const ss = values.reduce((a, v) => a + (v - mean) ** 2, 0);
  return { n, mean, sd: n > 1 ? Math.sqrt(ss / (n - 1)) : 0 };
}

/** Welch's comparison of two sets of repeats (`t`: ./t-distribution, loaded). */
export function welch(t: TDistribution, base: readonly number[], run: readonly number[]): Change {
  const b = spread(base);
  const r = spread(run);
  const delta = r.mean - b.mean;
  const out: Change = { base: b, run: r, delta };
  if (b.n < 2 || r.n < 2) return out;
  const vb = (b.sd * b.sd) / b.n;
  const vr = (r.sd * r.sd) / r.n;
  const se = Math.sqrt(vb + vr);
  if (se === 0) {
    // no spread at all (a function in none of the repeats, or identical values)
    out.interval = { low: delta, high: delta };
    out.p = delta === 0 ? 1 : 0;
    out.detectable = 0;
    return out;
  }
  const df = (vb + vr) ** 2 / ((vb * vb) / (b.n - 1) + (vr * vr) / (r.n - 1));
  const t975 = t.quantile(0.975, df);
  out.interval = { low: delta - t975 * se, high: delta + t975 * se };
  out.p = Math.min(1, 2 * t.cdf(-Math.abs(delta / se), df));
  out.detectable = (t975 + t.quantile(0.8, df)) * se;
  return out;
}

/** Benjamini–Hochberg: which of the p-values are discoveries at false discovery rate `q`. */
export function benjaminiHochberg(p: readonly number[], q: number): boolean[] {
  const order = p.map((_, i) => i).sort((a, b) => p[a]! - p[b]!);
  const m = p.length;
  let cut = -1;
  order.forEach((i, rank) => {
    if (p[i]! <= ((rank + 1) / m) * q) cut = rank;
  });
  const out = p.map(() => false);
  for (let rank = 0; rank <= cut; rank++) out[order[rank]!] = true;
  return out;
}

/** Per repeat: each function's value, share of the total and sample count by key, and the profile's total. */
interface RepeatValues {
  byKey: Map<string, number>;
  shares: Map<string, number>;
  /** samples per function (of the same measure), where the profile says how many samples each node has */
  counts?: Map<string, number>;
  total: number;
}

function valuesOf(p: Profile, opts: RepeatsOptions): RepeatValues {
  const self = opts.weights?.(p) ?? p.tree.self;
  const pick = (nodeSelf: Float64Array) => {
    const st = functionStats(p, nodeSelf, inclusive(p, nodeSelf));
    return { st, per: opts.measure === 'total' ? st.total : st.self };
  };
  const { st, per } = pick(self);
  const total = st.grandTotal;
  const byKey = new Map<string, number>();
  const shares = new Map<string, number>();
  st.keys.keys.forEach((k, i) => {
    const share = total > 0 ? per[i]! / total : 0;
    shares.set(k, share);
    byKey.set(k, opts.relative ? share : per[i]!);
  });
  const nodeCounts = sampleCounts(p, self);
  if (!nodeCounts) return { byKey, shares, total };
  const c = pick(nodeCounts);
  return { byKey, shares, counts: new Map(c.st.keys.keys.map((k, i) => [k, c.per[i]!])), total };
}

/** Per call-tree node, its own weight plus its descendants'. */
function inclusive(p: Profile, self: Float64Array): Float64Array {
  const totals = new Float64Array(p.tree.length);
  for (let i = p.tree.length - 1; i >= 0; i--) {
    totals[i]! += self[i]!;
    if (i > 0) totals[p.tree.parent[i]!]! += totals[i]!;
  }
  return totals;
}

/**
 * How many samples each node has, counting only nodes the weights keep (not idle ones when they
 * are left out): from the sample table, or the weights themselves where they count samples;
 * undefined where the profile does not say.
 */
function sampleCounts(p: Profile, self: Float64Array): Float64Array | undefined {
  if (p.samples) {
    const counts = new Float64Array(p.tree.length);
    const node = p.samples.node;
    for (let i = 0; i < p.samples.length; i++) counts[node[i]!]!++;
    for (let i = 0; i < counts.length; i++) if (!(self[i]! > 0)) counts[i] = 0;
    return counts;
  }
  return p.unit === 'samples' ? self : undefined;
}

/**
 * The fewest samples per repeat a function needs to be tested: below it, sampling noise alone
 * (Poisson) would hide even a change as large as the function itself at 80% power and the 5%
 * level, (z₀.₉₇₅ + z₀.₈)² (1/n₁ + 1/n₂) — 3.1 at five repeats a side.
 */
export function floorSamples(nBase: number, nRun: number): number {
  return (Z_975 + Z_80) ** 2 * (1 / nBase + 1 / nRun);
}
const Z_975 = 1.959963984540054;
const Z_80 = 0.8416212335729143;

/**
 * Every function's change between two variants of several profiles each, with intervals and
 * significance (`t`: ./t-distribution, loaded).
 */
export function compareRepeats(
  t: TDistribution,
  base: readonly Profile[],
  run: readonly Profile[],
  opts: RepeatsOptions = {},
): RepeatsComparison {
  const bv = base.map((p) => valuesOf(p, opts));
  const rv = run.map((p) => valuesOf(p, opts));
  const keys = new Set<string>();
  for (const v of [...bv, ...rv]) for (const k of v.byKey.keys()) keys.add(k);
  const of = (vs: RepeatValues[], key: string, m: 'byKey' | 'shares') => vs.map((v) => v[m].get(key) ?? 0);
  const functions: FunctionChange[] = [...keys].map((key) => {
    const compared = welch(t, of(bv, key, 'byKey'), of(rv, key, 'byKey'));
    // (compared as shares, the share's change is the one worked out already)
    return { key, ...compared, share: opts.relative ? compared : welch(t, of(bv, key, 'shares'), of(rv, key, 'shares')) };
  });
  const floor = bv.length > 1 && rv.length > 1 ? floorSamples(bv.length, rv.length) : undefined;
  const tested = decide(functions, [...bv, ...rv], floor, opts.fdr ?? 0.05);
  functions.sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || (a.key < b.key ? -1 : 1));

  const total = welch(
    t,
    bv.map((v) => v.total),
    rv.map((v) => v.total),
  );
  const counted = floor !== undefined && [...bv, ...rv].every((v) => v.counts);
  return {
    repeats: { baseline: base.length, run: run.length },
    functions,
    total: { ...total, ...ratioOf(t, total) },
    tested,
    ...(counted ? { floorSamples: floor } : {}),
  };
}

/**
 * The verdicts: the functions with enough samples (their mean count over every repeat of both
 * variants, which variant is which left out, at least `floor`) are tested on what is compared, and
 * Benjamini–Hochberg at `fdr` runs over those alone; the rest are not significant. Returns how
 * many were tested.
 */
function decide(functions: FunctionChange[], all: RepeatValues[], floor: number | undefined, fdr: number): number {
  if (floor === undefined) return 0;
  const counted = all.every((v) => v.counts);
  const mean = (key: string) => all.reduce((a, v) => a + (v.counts!.get(key) ?? 0), 0) / all.length;
  const tested = functions.filter((f) => f.p !== undefined && (!counted || mean(f.key) >= floor));
  const discoveries = benjaminiHochberg(
    tested.map((f) => f.p!),
    fdr,
  );
  for (const f of functions) f.significant = false;
  tested.forEach((f, i) => (f.significant = discoveries[i]));
  return tested.length;
}

/**
 * The change of a mean as a ratio of the baseline's (+0.3 for +30%), with its 95% interval by the
 * delta method on the log of the ratio of means, which counts the baseline mean's own uncertainty
 * (dividing the difference's interval by the baseline mean would not).
 */
function ratioOf(t: TDistribution, c: Change): { ratio: number; ratioInterval?: { low: number; high: number } } {
  const { base: b, run: r } = c;
  if (!(b.mean > 0) || !(r.mean > 0)) return { ratio: b.mean > 0 ? c.delta / b.mean : NaN };
  const ratio = r.mean / b.mean - 1;
  if (b.n < 2 || r.n < 2) return { ratio };
  const vb = (b.sd / b.mean) ** 2 / b.n;
  const vr = (r.sd / r.mean) ** 2 / r.n;
  const se = Math.sqrt(vb + vr);
  if (se === 0) return { ratio, ratioInterval: { low: ratio, high: ratio } };
  const df = (vb + vr) ** 2 / ((vb * vb) / (b.n - 1) + (vr * vr) / (r.n - 1));
  const half = t.quantile(0.975, df) * se;
  const log = Math.log(r.mean / b.mean);
  return { ratio, ratioInterval: { low: Math.exp(log - half) - 1, high: Math.exp(log + half) - 1 } };
}
