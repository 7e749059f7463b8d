/**
 * Student's t distribution, for the intervals and tests across repeated runs (./repeats): the
 * one @stdlib provides, loaded when first asked for. Its code is a sixth of the window's script
 * and only runs of several repeats need it, so the window loads it once such a run has been read
 * rather than before it can draw anything.
 */
import { onDemand } from '../on-demand';

export interface TDistribution {
  /** P(T ≤ x) with `df` degrees of freedom */
  cdf(x: number, df: number): number;
  /** the x with P(T ≤ x) = p, with `df` degrees of freedom */
  quantile(p: number, df: number): number;
}

const distribution = onDemand<TDistribution>(() => import('./stdlib-t').then(({ cdf, quantile }) => ({ cdf, quantile })));

/** Loads the distribution (once; again after a failed load). */
export const loadTDistribution = distribution.load;

/** Resolves once a load has settled, loaded or not. */
export const tDistributionSettled = distribution.settled;

/** The distribution once `loadTDistribution` has resolved; undefined before. */
export const loadedTDistribution = distribution.loaded;
