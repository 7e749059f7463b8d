/**
 * What the whole-table questions about sample times need, worked out in one pass and kept per
 * column: whether every time is known, whether they are in order, the first and last known, the
 * earliest and latest. A long capture's 10 M times were read four times over after every import
 * (`hasSampleTimes`, `inTimeOrder`, `timeBounds`, `meanInterval`), each decoding them to Float64
 * first; here small times are read as their block's base plus the offset, in one loop.
 */
import { NO_TIME, TIME_BLOCK, type TimeColumns } from './sample-times';

export interface TimeSummary {
  /** samples with a time */
  known: number;
  /** every time is known and none is before the one before it */
  ascending: boolean;
  /** the time of the first and of the last sample that has one (NaN when none) */
  first: number;
  last: number;
  /** the earliest and the latest time (Infinity and −Infinity when none) */
  lo: number;
  hi: number;
}

/** The running state of a summary as values are read in sample order. */
class Running {
  known = 0;
  ascending = true;
  before = -Infinity;
  first = NaN;
  last = NaN;
  lo = Infinity;
  hi = -Infinity;

  /** Reads times given as they are (a table's Float64 column, or a wide block of it). */
  values(time: Float64Array, from: number, to: number): void {
    let { known, ascending, before, first, last, lo, hi } = this;
    for (let i = from; i < to; i++) {
      const t = time[i]!;
      // (NaN fails every comparison: it ends the order and is neither earliest nor latest)
      if (!(t >= before)) ascending = false;
      before = t;
      if (Number.isNaN(t)) continue;
      if (known++ === 0) first = t;
      last = t;
      if (t < lo) lo = t;
      if (t > hi) hi = t;
    }
    Object.assign(this, { known, ascending, before, first, last, lo, hi });
  }

  /** Reads a block of small times: `base` plus each offset, `NO_TIME` for none. */
  offsets(base: number, offset: Uint32Array, from: number, to: number): void {
    if (from < to && ascendingWithTimes(offset, from, to)) {
      // the usual block: its first is its earliest, its last its latest
      const first = base + offset[from]!;
      const last = base + offset[to - 1]!;
      if (!(first >= this.before)) this.ascending = false;
      if (this.known === 0) this.first = first;
      this.known += to - from;
      this.before = this.last = last;
      if (first < this.lo) this.lo = first;
      if (last > this.hi) this.hi = last;
      return;
    }
    let { known, ascending, before, first, last, lo, hi } = this;
    for (let i = from; i < to; i++) {
      const o = offset[i]!;
      if (o === NO_TIME) {
        ascending = false;
        before = NaN;
        continue;
      }
      const t = base + o;
      if (!(t >= before)) ascending = false;
      before = t;
      if (known++ === 0) first = t;
      last = t;
      if (t < lo) lo = t;
      if (t > hi) hi = t;
    }
    Object.assign(this, { known, ascending, before, first, last, lo, hi });
  }
}

/**
 * Whether offsets `from` to `to` never go down and are all times: `NO_TIME` is above every offset,
 * so in a run that never goes down it can only end it.
 */
export function ascendingWithTimes(offset: Uint32Array, from: number, to: number): boolean {
  let before = offset[from]!;
  for (let i = from + 1; i < to; i++) {
    const o = offset[i]!;
    if (o < before) return false;
    before = o;
  }
  return before !== NO_TIME;
}

function summarize(s: TimeColumns & { length: number }): TimeSummary {
  const r = new Running();
  const n = s.length;
  if (s.time) r.values(s.time, 0, n);
  else {
    const base = s.timeBase!;
    const offset = s.timeOffset!;
    let wide = 0;
    for (let from = 0, b = 0; from < n; from += TIME_BLOCK, b++) {
      const to = Math.min(n, from + TIME_BLOCK);
      if (Number.isNaN(base[b]!)) {
        r.values(s.timeWide!, wide, wide + to - from);
        wide += to - from;
      } else r.offsets(base[b]!, offset, from, to);
    }
  }
  return { known: r.known, ascending: r.ascending, first: r.first, last: r.last, lo: r.lo, hi: r.hi };
}

/** Summaries by the column that holds a table's times (tables do not change once made). */
const summaries = new WeakMap<object, { length: number; summary: TimeSummary }>();

/** The summary of a table's times (see `TimeSummary`), worked out once per column and length. */
export function timeSummary(s: TimeColumns & { length: number }): TimeSummary {
  const column: object | undefined = s.time ?? s.timeOffset;
  if (!column) throw new Error('a sample table without its times');
  const kept = summaries.get(column);
  if (kept && kept.length === s.length) return kept.summary;
  const summary = summarize(s);
  summaries.set(column, { length: s.length, summary });
  return summary;
}
