/**
 * Differential profiles: a run aligned with the baseline by normalized frame-key paths (the same
 * key path is the same call path, whatever tier, line or absolute path the frames had), with
 * baseline and run values per call path and per function, deltas and a status for each.
 *
 * The alignment is a union ("merged") tree built in one pass over each profile's pre-order call
 * tree, with a hash map keyed by (merged parent id, key id): linear in the two trees' sizes and
 * free of recursion, because stacks can be 50,000 frames deep (./align).
 *
 * Two normalizations, and every result says which one it carries:
 * - 'absolute': both runs did the same work, so weights compare as they are; a delta is weight
 *   added (in the profiles' unit).
 * - 'relative': each run is taken as a fraction of its own total; a delta is a difference of
 *   shares (0.05 = 5 percentage points). This is FlameGraph's `difffolded.pl -n` — which scales
 *   the first file's counts by total2/total1 — divided by the run's total: run − baseline × scale
 *   = run total × (run share − baseline share).
 *
 * Queries over a result (lookup by key path, ranking, formatting) live in ./diff-query.
 */
import type { Profile, Unit } from '../model/types';
import { type FrameMatcher, type MatchShare, matchFrames, matchShare } from '../search/matcher';
import { subtreeTotals } from '../model/tree-totals';
import { sidesOf, summaryOf } from './sides';
import { accumulate, align, frameKeyIds, functionTotals, newUnion, preorder } from './align';
import { type EntryMatch, entryMatch, withEntryMatched } from './entry-script';
import { PairMap } from './pair-map';

export type Normalize = 'absolute' | 'relative';

/**
 * What became of a function: 'new' when its key occurs nowhere in the baseline (an agent's own
 * code, or what only it calls), 'removed' when nowhere in the run, else changed or unchanged.
 */
export type DiffStatus = 'unchanged' | 'changed' | 'new' | 'removed';

/**
 * What became of a call path: as a function's status, and 'moved' for a path only one side has
 * whose function the other side has too, under other callers — Fastify's handler under an agent's
 * wrapper is the same code called from a new place, not new code. A moved path has no baseline
 * figures of its own to compare with; it is drawn in a colour of its own, and its function's
 * change is in `ProfileDiff.functions`.
 */
export type PathStatus = DiffStatus | 'moved';

/** `DiffTree.status` codes; `STATUS_NAMES[code]` is the name. */
export const Status = { Unchanged: 0, Changed: 1, New: 2, Removed: 3, Moved: 4 } as const;
export type StatusCode = (typeof Status)[keyof typeof Status];
export const STATUS_NAMES: readonly PathStatus[] = ['unchanged', 'changed', 'new', 'removed', 'moved'];
const FUNCTION_STATUS: readonly DiffStatus[] = ['unchanged', 'changed', 'new', 'removed'];

export { DiffError } from './diff-error';
export { summarizeDiff } from './sides';

export interface DiffOptions {
  /** default 'absolute': the runs did the same work (the usual comparison: the same load) */
  normalize?: Normalize;
  /**
   * Noise threshold, as a fraction: a path or function whose delta is at most this is 'unchanged'.
   * In relative mode it is compared with the share delta (0.001 = 0.1 percentage point); in
   * absolute mode with the weight delta divided by the baseline's total (the reference amount
   * of work). Default 0.001.
   */
  threshold?: number;
  /**
   * Per-node self weights to compare instead of the trees' own (e.g. time weights from
   * `sampleTimeSelf`, or a search filter's), with the unit they are in.
   */
  baselineWeights?: Float64Array;
  runWeights?: Float64Array;
  weightUnit?: Unit;
  /**
   * Leave out idle samples (V8's `(idle)` frame, the kernel's idle task: `idleNodes`): the thread
   * was waiting, not working.
   * Without this they count in totals (and so in 'relative' shares); their weight is reported in
   * `DiffSide.idle` either way.
   */
  excludeIdle?: boolean;
  /** frames to measure the share of (an agent): fills `DiffSide.match` */
  matcher?: FrameMatcher;
  /**
   * Match the run's entry script with the baseline's, as the same frames (./entry-script):
   * default true. The run's frames of its entry script then carry the baseline's keys.
   */
  matchEntry?: boolean;
}

export interface DiffSide {
  name: string;
  /** weight compared, in `ProfileDiff.unit` (idle included unless `excludeIdle`) */
  total: number;
  /** weight of `(idle)` samples, in the unit; part of `total` unless excluded */
  idle: number;
  /** share of `total` owned by the matcher's frames (inclusive: on the stack; self: the leaf) */
  match?: MatchShare;
}

/**
 * The union of both call trees by key path, in depth-first pre-order like `CallTree` (node 0 the
 * root; descendants of i are i+1 … end[i]-1). Paths with no weight in either run are left out.
 * Children keep first-seen order, baseline first.
 */
export interface DiffTree {
  length: number;
  parent: Int32Array;
  /** key id (index into `ProfileDiff.keys`); -1 for the root */
  key: Int32Array;
  depth: Int32Array;
  end: Int32Array;
  /** raw weights in `ProfileDiff.unit` (0 where the side lacks the path) */
  baseSelf: Float64Array;
  baseTotal: Float64Array;
  runSelf: Float64Array;
  runTotal: Float64Array;
  /** run minus baseline, in `ProfileDiff.measure` */
  deltaSelf: Float64Array;
  deltaTotal: Float64Array;
  /** `Status` code: New / Removed only where the function itself is absent from the other side, else Moved */
  status: Uint8Array;
}

/** One function (one frame key) in both runs; recursion counted once in totals. */
export interface FunctionDiff {
  key: string;
  /** name, file and line of the function's heaviest frame in the run (in the baseline when removed) */
  name: string;
  file: string;
  line: number;
  category: number;
  /** npm package for dependency frames, else '' */
  pkg: string;
  /** raw weights in `ProfileDiff.unit` */
  baseline: { self: number; total: number };
  run: { self: number; total: number };
  /** in `ProfileDiff.measure` */
  delta: { self: number; total: number };
  status: DiffStatus;
}

/**
 * What a comparison says before any call tree is aligned: the unit, each side's totals, the cost
 * (run total against the baseline's) and why the runs may not compare. Cheap: a pane's headline
 * needs it whether or not it draws the diff.
 */
export interface DiffSummary {
  normalize: Normalize;
  unit: Unit;
  baseline: DiffSide;
  run: DiffSide;
  /** run total / baseline total − 1 (+0.66 = 66% more); Infinity when the baseline is empty */
  change: number;
  /** things that make the comparison less trustworthy (different sample rates…) */
  warnings: string[];
}

export interface ProfileDiff extends DiffSummary {
  /** what delta values are: weight in `unit` ('absolute') or a difference of shares ('relative') */
  measure: 'weight' | 'fraction';
  /** the noise threshold in `measure` (a delta at most this is 'unchanged') */
  noise: number;
  /** the factor that puts baseline weights on the run's scale: 1, or run total / baseline total ('relative') */
  baselineScale: number;
  /** distinct frame keys of both runs, indexed by key id */
  keys: string[];
  tree: DiffTree;
  /** merged node of each baseline / run call-tree node; -1 for nodes without weight */
  baselineNode: Int32Array;
  runNode: Int32Array;
  /** tops of the subtrees only the baseline has ("what disappeared"), heaviest first */
  removedRoots: Int32Array;
  /** tops of the subtrees only the run has (where new code was called from), heaviest first */
  newRoots: Int32Array;
  /** every function with weight in either run, largest |delta.total| first */
  functions: FunctionDiff[];
  /** the entry scripts matched as the same frames, when they were (keys are the baseline's) */
  entry?: EntryMatch;
}

const ratio = (a: number, b: number): number => (b > 0 ? a / b : 0);

/** Status from both sides' totals and the deltas against the noise floor. */
function statusOf(base: number, run: number, dSelf: number, dTotal: number, noise: number): StatusCode {
  if (base <= 0 && run > 0) return Status.New;
  if (run <= 0 && base > 0) return Status.Removed;
  // A delta of exactly the threshold is noise even when float arithmetic lands it a hair above.
  const floor = noise + 1e-9 * Math.max(noise, 1e-12);
  return Math.abs(dTotal) > floor || Math.abs(dSelf) > floor ? Status.Changed : Status.Unchanged;
}

/** Heaviest frame (by node total) per key id in one profile, -1 when the key has no weight there. */
function heaviestFrames(p: Profile, keyOfFrame: Int32Array, total: Float64Array, keyCount: number): Int32Array {
  const best = new Int32Array(keyCount).fill(-1);
  const bestW = new Float64Array(keyCount);
  for (let i = 1; i < p.tree.length; i++) {
    const f = p.tree.frame[i]!;
    const k = keyOfFrame[f]!;
    if (total[i]! > bestW[k]!) {
      bestW[k] = total[i]!;
      best[k] = f;
    }
  }
  return best;
}

function rootsOf(tree: DiffTree, code: StatusCode, weight: Float64Array): Int32Array {
  const { status, parent } = tree;
  const roots: number[] = [];
  for (let i = 1; i < tree.length; i++) if (status[i] === code && status[parent[i]!] !== code) roots.push(i);
  // Sorted through a compact copy of their weights: a comparison reading the tree's column at two
  // far-apart places for each of 100,000 roots waited on memory more than it compared.
  const w = new Float64Array(roots.length);
  for (let r = 0; r < roots.length; r++) w[r] = weight[roots[r]!]!;
  const order = roots.map((_, r) => r);
  // Roots are in ascending node order, so ties on rank keep ascending node order too.
  order.sort((a, b) => w[b]! - w[a]! || a - b);
  const out = new Int32Array(roots.length);
  for (let r = 0; r < order.length; r++) out[r] = roots[order[r]!]!;
  return out;
}

/** Aligns `run` with `baseline` and computes per-path and per-function deltas. */
export function diffProfiles(baseline: Profile, given: Profile, opts: DiffOptions = {}): ProfileDiff {
  const entry = opts.matchEntry === false ? undefined : entryMatch(baseline, given);
  const run = entry ? withEntryMatched(given, entry) : given;
  const normalize = opts.normalize ?? 'absolute';
  const threshold = opts.threshold ?? 0.001;
  const { unit, b, r } = sidesOf(baseline, run, opts);
  const bTotal = subtreeTotals(baseline.tree.parent, b.w);
  const rTotal = subtreeTotals(run.tree.parent, r.w);

  const keyIds = new Map<string, number>();
  const keys: string[] = [];
  const bKeys = frameKeyIds(baseline.frames, keyIds, keys);
  const rKeys = frameKeyIds(run.frames, keyIds, keys);
  const keyCount = Math.max(1, keys.length);

  // The union has at most the weighted nodes of both trees; usually little more than one.
  const u = newUnion(Math.max(baseline.tree.length, run.tree.length) * 1.25);
  // only for the children of wide nodes (see `align`)
  const index = new PairMap(1024);
  const bMap = align(baseline, bKeys, bTotal, u, index);
  const rMap = align(run, rKeys, rTotal, u, index);
  const { tree, newIndex } = preorder(u);
  accumulate(bMap, newIndex, b.w, bTotal, tree.baseSelf, tree.baseTotal);
  accumulate(rMap, newIndex, r.w, rTotal, tree.runSelf, tree.runTotal);

  const baseSum = bTotal[0]!;
  const runSum = rTotal[0]!;
  const relative = normalize === 'relative';
  // Absolute deltas are weights; their noise floor is the threshold's share of the baseline's work.
  const noise = relative ? threshold : threshold * (baseSum > 0 ? baseSum : runSum);
  const delta = relative
    ? (base: number, runV: number) => ratio(runV, runSum) - ratio(base, baseSum)
    : (base: number, runV: number) => runV - base;
  const fn = functionTotals(tree, keyCount);
  // `delta` written out for the million-node loop (the same arithmetic, without a call per value).
  const { baseSelf, runSelf, baseTotal, runTotal, deltaSelf, deltaTotal, status, key } = tree;
  for (let i = 0; i < tree.length; i++) {
    const bs = baseSelf[i]!;
    const rs = runSelf[i]!;
    const bt = baseTotal[i]!;
    const rt = runTotal[i]!;
    const ds = relative ? (runSum > 0 ? rs / runSum : 0) - (baseSum > 0 ? bs / baseSum : 0) : rs - bs;
    const dt = relative ? (runSum > 0 ? rt / runSum : 0) - (baseSum > 0 ? bt / baseSum : 0) : rt - bt;
    deltaSelf[i] = ds;
    deltaTotal[i] = dt;
    let st = statusOf(bt, rt, ds, dt, noise);
    // A path only one side has, of a function the other side runs elsewhere: moved, not new or gone.
    if ((st === Status.New && fn.baseTotal[key[i]!]! > 0) || (st === Status.Removed && fn.runTotal[key[i]!]! > 0)) st = Status.Moved;
    status[i] = st;
  }

  const bBest = heaviestFrames(baseline, bKeys, bTotal, keyCount);
  const rBest = heaviestFrames(run, rKeys, rTotal, keyCount);
  const functions: FunctionDiff[] = [];
  const { baseSelf: fBaseSelf, baseTotal: fBaseTotal, runSelf: fRunSelf, runTotal: fRunTotal } = fn;
  for (let k = 0; k < keys.length; k++) {
    if (!(fBaseTotal[k]! > 0) && !(fRunTotal[k]! > 0)) continue;
    const inRun = rBest[k]! >= 0;
    const src = inRun ? run.frames : baseline.frames;
    const f = inRun ? rBest[k]! : bBest[k]!;
    const dSelf = delta(fBaseSelf[k]!, fRunSelf[k]!);
    const dTotal = delta(fBaseTotal[k]!, fRunTotal[k]!);
    functions.push({
      key: keys[k]!,
      name: src.name[f]!,
      file: src.file[f]!,
      line: src.line[f]!,
      category: src.category[f]!,
      pkg: src.pkg[f]!,
      baseline: { self: fBaseSelf[k]!, total: fBaseTotal[k]! },
      run: { self: fRunSelf[k]!, total: fRunTotal[k]! },
      delta: { self: dSelf, total: dTotal },
      status: FUNCTION_STATUS[statusOf(fBaseTotal[k]!, fRunTotal[k]!, dSelf, dTotal, noise)]!,
    });
  }
  functions.sort(byDeltaThenKey);

  const baseSide: DiffSide = { name: baseline.name, total: baseSum, idle: b.idle };
  const runSide: DiffSide = { name: run.name, total: runSum, idle: r.idle };
  if (opts.matcher) {
    baseSide.match = matchShare(baseline, matchFrames(baseline, opts.matcher), b.w);
    runSide.match = matchShare(run, matchFrames(run, opts.matcher), r.w);
  }
  const out: ProfileDiff = {
    ...summaryOf(baseline, run, normalize, unit, baseSide, runSide),
    measure: relative ? 'fraction' : 'weight',
    noise,
    baselineScale: relative ? ratio(runSum, baseSum) : 1,
    keys,
    tree,
    baselineNode: bMap,
    runNode: rMap,
    removedRoots: rootsOf(tree, Status.Removed, tree.baseTotal),
    newRoots: rootsOf(tree, Status.New, tree.runTotal),
    functions,
  };
  if (entry) out.entry = entry;
  return out;
}

/** Largest |delta.total| first, then largest |delta.self|, then by key for a stable order. */
export function byDeltaThenKey(a: FunctionDiff, b: FunctionDiff): number {
  return (
    Math.abs(b.delta.total) - Math.abs(a.delta.total) ||
    Math.abs(b.delta.self) - Math.abs(a.delta.self) ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
}
