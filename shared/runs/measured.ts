/**
 * What `flamelens record` measured of a variant under load, kept with its run so that the app
 * shows it beside the CPU figures: how many requests the timed runs served, in how long (medians
 * of the runs), and the overhead against the baseline with its 95% interval. The timed runs are
 * apart from the profiled one, so these figures are of the program without profilers.
 */
import type { JsonCheck } from '../workspace/json-check';

export interface Measured {
  /** timed runs the figures are the medians of */
  runs: number;
  /** requests a run served (the median of the runs) */
  requests: number;
  /** seconds a run took (the median of the runs) */
  seconds: number;
  /**
   * the ratio of the median cost per request to the baseline's, minus one, with its 95% interval
   * (`flamelens record`'s bootstrap); absent for the baseline
   */
  overhead?: { median: number; low: number; high: number };
}

const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Decimals of a percentage: one below 10%, none above. */
const digitsOf = (x: number) => (Math.abs(x * 100) < 10 ? 1 : 0);

function percent(x: number): string {
  return `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(digitsOf(x))}%`;
}

/** The interval's wider side from the median, in percentage points as precise as the median: "± 6%". */
function plusMinus(o: NonNullable<Measured['overhead']>): string {
  const half = Math.max(o.high - o.median, o.median - o.low) * 100;
  return `± ${half.toFixed(digitsOf(o.median))}%`;
}

/** "10,000 requests in 2.49 s, +382% ± 6% vs baseline, 7 runs" */
export function measuredText(m: Measured): string {
  const parts = [`${count.format(m.requests)} requests in ${m.seconds.toFixed(2)} s`];
  if (m.overhead) parts.push(`${percent(m.overhead.median)} ${plusMinus(m.overhead)} vs baseline`);
  parts.push(`${m.runs} run${m.runs === 1 ? '' : 's'}`);
  return parts.join(', ');
}

/** The exact interval, for a tooltip. */
export function measuredDetail(m: Measured): string {
  const o = m.overhead;
  const interval = o ? `; overhead 95% interval ${percent(o.low)} to ${percent(o.high)}` : '';
  return `measured under load without profilers: medians of ${m.runs} timed run${m.runs === 1 ? '' : 's'}${interval}`;
}

/** A run's measured figures read from a workspace, every value checked. */
export function readMeasured(c: JsonCheck, v: unknown, path: string): Measured {
  const o = c.obj(v, path);
  const m: Measured = {
    runs: c.num(o.runs, `${path}.runs`, { int: true, min: 1, max: 1e6 }),
    requests: c.num(o.requests, `${path}.requests`, { min: 0 }),
    seconds: c.num(o.seconds, `${path}.seconds`, { min: 0 }),
  };
  const overhead = c.opt(o, 'overhead', path, (x, q) => {
    const r = c.obj(x, q);
    const median = c.num(r.median, `${q}.median`, { min: -1 });
    const low = c.num(r.low, `${q}.low`, { min: -1 });
    const high = c.num(r.high, `${q}.high`, { min: -1 });
    if (low > high) c.fail(q, `the interval's low end ${low} is above its high end ${high}`);
    return { median, low, high };
  });
  if (overhead) m.overhead = overhead;
  return m;
}
