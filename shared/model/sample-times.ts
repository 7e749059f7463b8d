/**
 * Sample times, kept small: a long capture's 10 M times take 80 MB as Float64, 40 MB here.
 * V8 writes whole microseconds, so the times of a block of `TIME_BLOCK` samples are kept as one
 * Float64 base per block (`SampleTable.timeBase`, the block's earliest time) and each sample's
 * offset from it as a Uint32 (`SampleTable.timeOffset`, `NO_TIME` for a sample without a time).
 * A block whose times do not fit (a fraction of a microsecond, a span of 71 minutes or more, an
 * offset that would not give the time back exactly) has NaN as its base and keeps its times as
 * Float64, in `SampleTable.timeWide`, block after block. A table none of whose blocks fit keeps
 * one Float64 column, `SampleTable.time`, as tables always did (and workspaces written before
 * these columns hold).
 *
 * Every reader of sample times goes through `timeReader` or `timeAt`: they give exactly the
 * value the producer gave, whatever form the table keeps it in.
 */
import { type BuildBudget, allocate } from './budget';
import type { SampleTable } from './types';

/** Samples per block: 2^16. */
export const TIME_BLOCK = 1 << 16;
const SHIFT = 16;
const MASK = TIME_BLOCK - 1;
/** The offset of a sample without a time (NaN). */
export const NO_TIME = 0xffffffff;

/** The columns a table keeps its times in (see `SampleTable`): exactly one of the two forms. */
export type TimeColumns = Pick<SampleTable, 'time' | 'timeBase' | 'timeOffset' | 'timeWide'>;

/** A sample's time in µs; NaN when unknown. For many, `timeReader` reads faster. */
export function timeAt(s: SampleTable, i: number): number {
  return timeReader(s)(i);
}

/** Block index → the block's first value in `timeWide` (−1: the block is compact). */
function wideStarts(base: Float64Array): Int32Array {
  const at = new Int32Array(base.length);
  let w = 0;
  for (let b = 0; b < base.length; b++) at[b] = Number.isNaN(base[b]!) ? w++ * TIME_BLOCK : -1;
  return at;
}

/**
 * The table's times as a function of the sample index: what the producer gave for each sample
 * (NaN for none), for `0 ≤ i < s.length`.
 */
export function timeReader(s: TimeColumns): (i: number) => number {
  const whole = s.time;
  if (whole) return (i) => whole[i]!;
  const base = s.timeBase;
  const offset = s.timeOffset;
  if (!base || !offset) throw new Error('a sample table without its times');
  const wide = s.timeWide;
  if (!wide)
    return (i) => {
      const o = offset[i]!;
      return o === NO_TIME ? NaN : base[i >>> SHIFT]! + o;
    };
  const at = wideStarts(base);
  return (i) => {
    const w = at[i >>> SHIFT]!;
    if (w >= 0) return wide[w + (i & MASK)]!;
    const o = offset[i]!;
    return o === NO_TIME ? NaN : base[i >>> SHIFT]! + o;
  };
}

const starts = new WeakMap<Float64Array, Int32Array>();

/**
 * The times of samples `from` to `to` (not included) as a Float64Array, for loops over many
 * samples (a reader's function call per sample costs several times the loop): a view of the
 * table's column where it keeps one, else decoded into `scratch`, which must hold `to − from`.
 */
export function timeSlice(s: TimeColumns, from: number, to: number, scratch: Float64Array): Float64Array {
  if (s.time) return s.time.subarray(from, to);
  const base = s.timeBase!;
  const offset = s.timeOffset!;
  const out = scratch.subarray(0, to - from);
  for (let i = from; i < to;) {
    const b = i >>> SHIFT;
    const end = Math.min(to, (b + 1) * TIME_BLOCK);
    const at = base[b]!;
    if (Number.isNaN(at)) {
      let first = starts.get(base);
      if (!first) starts.set(base, (first = wideStarts(base)));
      const w = first[b]! - b * TIME_BLOCK;
      out.set(s.timeWide!.subarray(w + i, w + end), i - from);
      i = end;
    } else
      for (; i < end; i++) {
        const o = offset[i]!;
        out[i - from] = o === NO_TIME ? NaN : at + o;
      }
  }
  return out;
}

/** Samples a loop reads times for at once (`timeSlice`), and a scratch array for them and one more. */
export const TIME_PIECE = TIME_BLOCK;
export function timeScratch(): Float64Array {
  return new Float64Array(TIME_PIECE + 1);
}

/**
 * Every time as one Float64 column (8 bytes a sample: a long capture's 80 MB): for what needs them
 * all at once and rarely runs (reordering samples, a late `startTime`); the table's own column
 * where it keeps one.
 */
export function timeColumn(s: TimeColumns & { length: number }): Float64Array {
  if (s.time) return s.time;
  const read = timeReader(s);
  const out = new Float64Array(s.length);
  for (let i = 0; i < out.length; i++) out[i] = read(i);
  return out;
}

/**
 * Builds a table's time columns from times pushed in sample order, block by block: at most one
 * block (512 KiB) is held as Float64 on the way.
 */
export class SampleTimesBuilder {
  private block = new Float64Array(TIME_BLOCK);
  private inBlock = 0;
  private readonly base: number[] = [];
  private offset: Uint32Array;
  private readonly wide: Float64Array[] = [];
  length = 0;

  /**
   * `capacity`: how many times will come, when known (the offsets are then made once, that size);
   * `budget`: what the columns are charged to, when they are part of an import's model (./budget).
   */
  constructor(
    capacity = TIME_BLOCK,
    private readonly budget?: BuildBudget,
  ) {
    this.offset = allocate(budget, capacity * 4, () => new Uint32Array(capacity));
  }

  push(t: number): void {
    this.block[this.inBlock++] = t;
    this.length++;
    if (this.inBlock === TIME_BLOCK) this.flush();
  }

  /** `times[0]` to `times[count - 1]`, as `count` pushes would. */
  pushMany(times: Float64Array, count: number): void {
    for (let i = 0; i < count;) {
      const k = Math.min(count - i, TIME_BLOCK - this.inBlock);
      this.block.set(times.subarray(i, i + k), this.inBlock);
      this.inBlock += k;
      this.length += k;
      i += k;
      if (this.inBlock === TIME_BLOCK) this.flush();
    }
  }

  /** The block filled so far, as offsets where they give every time back exactly, else kept as Float64. */
  private flush(): void {
    const n = this.inBlock;
    if (n === 0) return;
    const from = this.length - n;
    const block = this.block;
    let lo = Infinity;
    for (let i = 0; i < n; i++) if (block[i]! < lo) lo = block[i]!;
    const base = lo === Infinity ? 0 : lo;
    if (this.offset.length < from + n) this.grow(from + n);
    const offset = this.offset;
    let fits = true;
    for (let i = 0; i < n && fits; i++) {
      const t = block[i]!;
      if (Number.isNaN(t)) offset[from + i] = NO_TIME;
      else {
        const o = t - base;
        fits = Number.isInteger(o) && o < NO_TIME && Object.is(base + o, t);
        offset[from + i] = o;
      }
    }
    if (fits) this.base.push(base);
    else {
      this.base.push(NaN);
      offset.fill(0, from, from + n);
      this.wide.push(allocate(this.budget, n * 8, () => block.slice(0, n)));
    }
    this.inBlock = 0;
  }

  private grow(atLeast: number): void {
    const n = Math.max(atLeast, this.offset.length * 2);
    const next = allocate(this.budget, (n - this.offset.length) * 4, () => new Uint32Array(n));
    next.set(this.offset);
    this.offset = next;
  }

  /** The columns, for `length` samples; the builder is spent. */
  finish(): TimeColumns {
    this.flush();
    const n = this.length;
    this.block = new Float64Array(0);
    if (n === 0) return { time: new Float64Array(0) };
    if (this.wide.length === this.base.length) {
      const time = new Float64Array(n);
      let at = 0;
      for (const w of this.wide) {
        time.set(w, at);
        at += w.length;
      }
      return { time };
    }
    const offset = this.offset.length === n ? this.offset : this.offset.slice(0, n);
    const out: TimeColumns = { timeBase: Float64Array.from(this.base), timeOffset: offset };
    if (this.wide.length > 0) {
      const wide = new Float64Array(this.wide.reduce((k, w) => k + w.length, 0));
      let at = 0;
      for (const w of this.wide) {
        wide.set(w, at);
        at += w.length;
      }
      out.timeWide = wide;
    }
    return out;
  }
}

/** The columns that keep `time` (in sample order) small where its values allow. */
export function compactTimes(time: ArrayLike<number>): TimeColumns {
  const b = new SampleTimesBuilder(time.length);
  for (let i = 0; i < time.length; i++) b.push(time[i]!);
  return b.finish();
}

/** What is wrong with a table's time columns for its `length` samples, or undefined. */
export function timeColumnsProblem(s: TimeColumns & { length: number }): string | undefined {
  const { time, timeBase: base, timeOffset: offset, timeWide: wide } = s;
  if (time) return time.length === s.length && !base && !offset && !wide ? undefined : 'sample columns differ in length';
  if (!base || !offset) return 'samples without their times';
  const blocks = Math.ceil(s.length / TIME_BLOCK);
  if (offset.length !== s.length || base.length !== blocks) return 'sample time columns differ in length';
  let wideValues = 0;
  for (let b = 0; b < blocks; b++) if (Number.isNaN(base[b]!)) wideValues += Math.min(TIME_BLOCK, s.length - b * TIME_BLOCK);
  if ((wide?.length ?? 0) !== wideValues) return `the wide sample times hold ${wide?.length ?? 0} values, not ${wideValues}`;
  return undefined;
}
