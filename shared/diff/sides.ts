/**
 * The two sides of a comparison (./diff): the unit both are compared in, each side's weights with
 * idle samples measured or left out, and the summary a pane states — the cost change and why the
 * runs may not compare — which needs only the sides' totals, not the aligned trees.
 */
import { idleNodes } from '../heatmap/idle';
import type { Profile, Unit } from '../model/types';
import { comparability } from './comparable';
import type { DiffOptions, DiffSide, DiffSummary, Normalize } from './diff';
import { DiffError } from './diff-error';
import { entryMatch, withEntryMatched } from './entry-script';
import { commonUnit, otherMeasure } from './measure';

/** One side's self weights: those given (a time range's, a search's) or the tree's own, one per node. */
function weightsOf(p: Profile, given: Float64Array | undefined): Float64Array {
  const src = given ?? p.tree.self;
  if (src.length !== p.tree.length) throw new DiffError(`${p.name}: ${src.length} weights for ${p.tree.length} call-tree nodes`);
  return src;
}

/** Self weights to compare for one side, with idle weight removed or measured. */
function sideWeights(p: Profile, given: Float64Array | undefined, scale: number, excludeIdle: boolean): { w: Float64Array; idle: number } {
  const t = p.tree;
  const src = weightsOf(p, given);
  const w = new Float64Array(src.length);
  for (let i = 0; i < w.length; i++) w[i] = src[i]! * scale;
  // Idle samples as everywhere else (V8's `(idle)`, the kernel's idle task: see `idleNodes`), so
  // that the cost and the search shares are of the same busy total.
  const underIdle = idleNodes(p);
  let idle = 0;
  for (let i = 1; i < t.length; i++) {
    if (!underIdle[i]) continue;
    idle += w[i]!;
    if (excludeIdle) w[i] = 0;
  }
  return { w, idle };
}

/** One side's total and idle weight as `sideWeights` would give them (the same sums, in the same order), without a copy of its weights. */
function sideTotals(p: Profile, given: Float64Array | undefined, scale: number, excludeIdle: boolean): { total: number; idle: number } {
  const src = weightsOf(p, given);
  const underIdle = idleNodes(p);
  let total = 0;
  let idle = 0;
  for (let i = 0; i < src.length; i++) {
    const v = src[i]! * scale;
    if (i > 0 && underIdle[i]) {
      idle += v;
      if (excludeIdle) continue;
    }
    total += v;
  }
  return { total, idle };
}

/** What both sides' weights are compared in: their common unit and the factor that brings each to it. */
function commonScale(baseline: Profile, run: Profile, opts: DiffOptions) {
  const baseUnit = opts.baselineWeights && opts.weightUnit ? opts.weightUnit : baseline.unit;
  const runUnit = opts.runWeights && opts.weightUnit ? opts.weightUnit : run.unit;
  const cu = commonUnit(baseUnit, runUnit);
  if (!cu) throw new DiffError(`cannot compare a profile in ${baseUnit} (${baseline.name}) with one in ${runUnit} (${run.name})`);
  const other = otherMeasure(baseline, run);
  if (other) throw new DiffError(other);
  return cu;
}

/** Both sides' weights to compare, in one unit, with idle removed or measured. */
export function sidesOf(baseline: Profile, run: Profile, opts: DiffOptions) {
  const cu = commonScale(baseline, run, opts);
  const excludeIdle = opts.excludeIdle ?? false;
  const b = sideWeights(baseline, opts.baselineWeights, cu.scaleA, excludeIdle);
  const r = sideWeights(run, opts.runWeights, cu.scaleB, excludeIdle);
  return { unit: cu.unit, b, r };
}

/** The summary of two sides' totals: the cost change and the warnings. */
export function summaryOf(
  baseline: Profile,
  run: Profile,
  normalize: Normalize,
  unit: Unit,
  base: DiffSide,
  runSide: DiffSide,
): DiffSummary {
  const warnings = comparability(baseline, run, normalize);
  if (baseline.format !== run.format)
    warnings.push(
      `the files come from different producers (${baseline.format}, ${run.format}): frames only one of them records ` +
        '(native code, idle, program) show up as new or removed',
    );
  const [b, r] = [base.total, runSide.total];
  return { normalize, unit, baseline: base, run: runSide, change: b > 0 ? r / b - 1 : r > 0 ? Infinity : 0, warnings };
}

/**
 * The comparison's figures without aligning the trees (`diffProfiles` gives the same ones, and the
 * rest): for a pane that states the cost but does not draw the diff. Throws `DiffError` as it does.
 */
export function summarizeDiff(baseline: Profile, given: Profile, opts: DiffOptions = {}): DiffSummary {
  const entry = opts.matchEntry === false ? undefined : entryMatch(baseline, given);
  const run = entry ? withEntryMatched(given, entry) : given;
  const cu = commonScale(baseline, run, opts);
  const excludeIdle = opts.excludeIdle ?? false;
  const side = (p: Profile, given: Float64Array | undefined, scale: number): DiffSide => ({
    name: p.name,
    ...sideTotals(p, given, scale, excludeIdle),
  });
  return summaryOf(
    baseline,
    run,
    opts.normalize ?? 'absolute',
    cu.unit,
    side(baseline, opts.baselineWeights, cu.scaleA),
    side(run, opts.runWeights, cu.scaleB),
  );
}
