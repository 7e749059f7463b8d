/**
 * Busy CPU: a run's weight with its idle samples left out — V8's `(idle)` node, the kernel's
 * idle task in perf (see `idleNodes`). Shares and the cost against the baseline are of this one
 * total by default, so that an agent's share and its cost read against the same thing: on the
 * dd-trace sample run the agent is on the stack in 65% of all samples, but in 81.7% of the
 * samples taken while the process worked.
 */
import { idleNodes } from '../heatmap/heatmap';
import type { Profile } from '../model/types';

/** Per-node self weights with idle nodes' weight set to 0 (a copy; `weights` is left as it is). */
export function busyWeights(p: Profile, weights: Float64Array = p.tree.self, idle: Uint8Array = idleNodes(p)): Float64Array {
  const out = Float64Array.from(weights);
  for (let i = 0; i < out.length; i++) if (idle[i]) out[i] = 0;
  return out;
}

export interface Totals {
  /** every sample's weight, idle included */
  all: number;
  /** the weight of idle samples */
  idle: number;
  /** all − idle */
  busy: number;
}

/** All, idle and busy weight of a run (of `weights`, per-node self weights, when given). */
export function runTotals(p: Profile, weights: Float64Array = p.tree.self, idle: Uint8Array = idleNodes(p)): Totals {
  let all = 0;
  let idleSum = 0;
  for (let i = 0; i < weights.length; i++) {
    all += weights[i]!;
    if (idle[i]) idleSum += weights[i]!;
  }
  return { all, idle: idleSum, busy: all - idleSum };
}

/**
 * What a run's total is, in words for "X% of …": busy CPU for CPU profiles (idle left out), the
 * unit's own words otherwise.
 */
export function totalNoun(p: Profile): string {
  if (p.unit === 'bytes') return 'allocated bytes';
  if (p.unit === 'events') return 'events';
  if (p.kind === 'spans') return 'span time';
  return 'busy CPU';
}
