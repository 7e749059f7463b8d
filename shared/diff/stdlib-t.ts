/** @stdlib's t distribution in one module, so that it loads as one piece (./t-distribution). */
export { default as cdf } from '@stdlib/stats-base-dists-t-cdf';
export { default as quantile } from '@stdlib/stats-base-dists-t-quantile';
