/**
 * Subsecond-offset heatmaps, as FlameScope draws them (https://github.com/Netflix/flamescope):
 * one column per second of the run, one row per slice of that second (50 slices of 20 ms by
 * default), each cell the number of samples taken in that slice of that second. Periodic work,
 * bursts and stalls show up as stripes and blotches; a selected cell range becomes a flame graph
 * of just those samples (`selectionWeights`, `rangeWeights`).
 *
 * Times: a `SampleTable` holds microseconds on the producer's clock; everything here takes and
 * returns seconds on that same clock (not rebased), so a range picked on the heatmap can be
 * shown next to what other tools say about the same run.
 */
import { DENSITY_BUCKETS, type Profile, type SampleDensity } from '../model/types';
import { timeBounds } from '../model/sample-time';
import { ascendingWithTimes } from '../model/time-summary';
import { TIME_BLOCK, TIME_PIECE, timeReader, timeScratch, timeSlice } from '../model/sample-times';
import { idleNodes } from './idle';
import { type RangeOptions, type RangeWeights, selectSamples, weightsOfSamples } from './range';

export { idleNodes } from './idle';
export { type RangeOptions, type RangeWeights, rangeWeights, samplesInRange, weightsOfSamples } from './range';

export const DEFAULT_ROWS = 50;
/** A heatmap wider than this (about 28 hours) means the clock is not what it seems. */
export const MAX_COLUMNS = 100_000;
const MAX_ROWS = 10_000;
const US_PER_S = 1e6;

export interface HeatmapOptions {
  /** slices per second, `DEFAULT_ROWS` when absent */
  rows?: number;
  /** count idle samples too (see `idleNodes`); they are left out by default, as FlameScope does */
  includeIdle?: boolean;
  /** `idleNodes(profile)` when already at hand (a UI recomputing on every selection keeps one) */
  idle?: Uint8Array;
}

export interface Heatmap {
  /** slices per second: a cell is `1000 / rows` ms tall */
  rows: number;
  /** whole seconds from `start`; the last one holds the latest sample */
  columns: number;
  /** seconds on the profile's clock: the earliest sample's time, rounded down */
  start: number;
  /**
   * `values[column][row]`: samples taken during second `start + column` whose offset within the
   * second falls in the row's slice. Row 0 is the top, the last slice of the second (FlameScope's
   * orientation: time runs up each column, then on to the next column).
   */
  values: number[][];
  /** the largest cell value (0 for an empty heatmap) */
  maxCount: number;
  /** samples counted in the cells */
  sampleCount: number;
  /** idle samples left out (0 when `includeIdle`) */
  idleCount: number;
  /** samples without a timestamp, in no cell */
  untimedCount: number;
  includeIdle: boolean;
}

/** Thrown when a profile has no sample with a timestamp (aggregated formats, trace spans, 0x ticks.json). */
export class NoSampleTimesError extends Error {
  constructor(name: string) {
    super(`${name} has no sample timestamps`);
    this.name = 'NoSampleTimesError';
  }
}

/** Whether the profile has at least one timestamped sample, i.e. whether it can have a heatmap. */
export function hasTimestamps(profile: Profile): boolean {
  const s = profile.samples;
  if (!s) return false;
  const time = timeReader(s);
  for (let i = 0; i < s.length; i++) if (Number.isFinite(time(i))) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// The heatmap.

function checkRows(rows: number): number {
  if (!Number.isInteger(rows) || rows < 1 || rows > MAX_ROWS)
    throw new RangeError(`rows must be a whole number from 1 to ${MAX_ROWS}, not ${rows}`);
  return rows;
}

/**
 * The cell of a time in seconds. The offset within the second is taken from the seconds value
 * as a double (`t % 1`), exactly as FlameScope does, so that cells match its heatmaps: a perf
 * sample at `5086.200000` has the offset 0.19999999999982 and lands in the 180–200 ms row, not
 * the 200–220 ms one. The error is below a microsecond; matching the reference tool is worth more.
 */
function columnOf(t: number, start: number): number {
  return Math.floor(t - start);
}
function sliceOf(t: number, rows: number): number {
  // 0 = the first slice of the second; row = rows - 1 - slice.
  return Math.floor(rows * (t % 1));
}

/** FlameScope's subsecond-offset heatmap of a profile's samples. Throws `NoSampleTimesError`. */
export function heatmap(profile: Profile, options: HeatmapOptions = {}): Heatmap {
  const rows = checkRows(options.rows ?? DEFAULT_ROWS);
  const includeIdle = options.includeIdle ?? false;
  const s = profile.samples;
  if (!s) throw new NoSampleTimesError(profile.name);
  const [lo, hi] = timeBounds(s);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) throw new NoSampleTimesError(profile.name);
  // Idle samples still set the extent, as in FlameScope: the run lasted that long.
  const start = Math.floor(lo / US_PER_S);
  // The last column is the one the latest sample falls in. (FlameScope sizes the grid as
  // ceil(last) - floor(first), one column short when the last sample is on a whole second.)
  const columns = columnOf(hi / US_PER_S, start) + 1;
  if (columns > MAX_COLUMNS)
    throw new RangeError(`${profile.name}: samples span ${columns} seconds; a heatmap is limited to ${MAX_COLUMNS}`);
  const values: number[][] = [];
  for (let c = 0; c < columns; c++) values.push(new Array<number>(rows).fill(0));
  const idle = includeIdle ? undefined : (options.idle ?? idleNodes(profile));
  let maxCount = 0;
  let sampleCount = 0;
  let idleCount = 0;
  let untimedCount = 0;
  const time = timeReader(s);
  for (let i = 0; i < s.length; i++) {
    const us = time(i);
    if (!Number.isFinite(us)) {
      untimedCount++;
      continue;
    }
    if (idle && idle[s.node[i]!]) {
      idleCount++;
      continue;
    }
    const t = us / US_PER_S;
    const col = values[columnOf(t, start)]!;
    const row = rows - sliceOf(t, rows) - 1;
    const v = ++col[row]!;
    if (v > maxCount) maxCount = v;
    sampleCount++;
  }
  return { rows, columns, start, values, maxCount, sampleCount, idleCount, untimedCount, includeIdle };
}

/** A cell of a heatmap. */
export interface Cell {
  column: number;
  row: number;
}

/**
 * Whether a cell is in the heatmap's grid. A cell picked on one grid (another run's, or this
 * run's with more rows per second) can be outside this one, and `values` has nothing there.
 */
export function hasCell(hm: Pick<Heatmap, 'rows' | 'columns'>, cell: Cell): boolean {
  return (
    Number.isInteger(cell.column) &&
    Number.isInteger(cell.row) &&
    cell.column >= 0 &&
    cell.column < hm.columns &&
    cell.row >= 0 &&
    cell.row < hm.rows
  );
}

/** Where a row's slice starts within its second, in milliseconds (FlameScope's row labels: 980 … 0 for 50 rows). */
export function rowOffsetMs(rows: number, row: number): number {
  return (1000 * (rows - 1 - row)) / rows;
}

/** The time range of a cell in seconds on the profile's clock: [start, end). */
export function cellRange(hm: Pick<Heatmap, 'rows' | 'start'>, cell: Cell): { start: number; end: number } {
  const slice = hm.rows - 1 - cell.row;
  return { start: hm.start + cell.column + slice / hm.rows, end: hm.start + cell.column + (slice + 1) / hm.rows };
}

// ---------------------------------------------------------------------------------------------
// Heatmap selections (range views of time ranges: ./range.ts).

/**
 * The samples of the heatmap cells from `a` to `b` (either order, both included), read in time
 * order as FlameScope selects: up column `a` from its row, through the whole columns between, up
 * column `b` to its row. Uses the heatmap's own cell arithmetic, so every sample counted in a
 * selected cell is in the result — which a range in seconds cannot promise at slice boundaries
 * (see `sliceOf`). Idle samples follow the heatmap's `includeIdle`; `idle` is `idleNodes(profile)`
 * when already at hand.
 */
export function selectionWeights(
  profile: Profile,
  hm: Pick<Heatmap, 'rows' | 'start' | 'includeIdle'>,
  a: Cell,
  b: Cell,
  idle?: Uint8Array,
): RangeWeights {
  const slot = (c: Cell) => c.column * hm.rows + (hm.rows - 1 - c.row);
  const lo = Math.min(slot(a), slot(b));
  const hi = Math.max(slot(a), slot(b));
  const options: RangeOptions = { includeIdle: hm.includeIdle };
  if (idle) options.idle = idle;
  const indices = selectSamples(profile, options, (t) => {
    const k = columnOf(t, hm.start) * hm.rows + sliceOf(t, hm.rows);
    return k >= lo && k <= hi;
  });
  return weightsOfSamples(profile, indices);
}

// ---------------------------------------------------------------------------------------------
// Density: samples over the whole run, for a timeline strip.

export interface Density {
  /** seconds on the profile's clock: the earliest and latest sample times */
  start: number;
  end: number;
  /** width of a bucket in seconds; bucket i is [start + i·width, start + (i+1)·width), the last one closed */
  bucketSeconds: number;
  /** non-idle samples per bucket */
  counts: number[];
  /** idle samples per bucket (see `idleNodes`) */
  idleCounts: number[];
  /** the largest `counts` value */
  maxCount: number;
}

/**
 * The run's density in `DENSITY_BUCKETS` buckets, for `Profile.density` (undefined where samples
 * have no times).
 */
export function fineDensity(profile: Profile): SampleDensity | undefined {
  if (!profile.samples) return undefined;
  try {
    const d = density(profile, DENSITY_BUCKETS);
    return { start: d.start, end: d.end, counts: d.counts, idleCounts: d.idleCounts };
  } catch (e) {
    if (e instanceof NoSampleTimesError) return undefined;
    throw e;
  }
}

/** The bucket counts up to `max` that divide `DENSITY_BUCKETS`, largest first: what `densityFor` draws exactly. */
export function densityBucketsNear(max: number): number {
  for (let b = Math.max(1, Math.floor(max)); b > 1; b--) if (DENSITY_BUCKETS % b === 0) return b;
  return 1;
}

/**
 * `Profile.density` summed into `buckets` (a divisor of `DENSITY_BUCKETS`): the same counts as
 * `density(profile, buckets)`, since each of its buckets is a whole number of the fine ones.
 */
export function coarserDensity(fine: SampleDensity, buckets: number): Density {
  if (DENSITY_BUCKETS % buckets !== 0) throw new RangeError(`${buckets} does not divide ${DENSITY_BUCKETS}`);
  const k = DENSITY_BUCKETS / buckets;
  const counts = new Array<number>(buckets).fill(0);
  const idleCounts = new Array<number>(buckets).fill(0);
  for (let i = 0; i < DENSITY_BUCKETS; i++) {
    counts[Math.floor(i / k)]! += fine.counts[i]!;
    idleCounts[Math.floor(i / k)]! += fine.idleCounts[i]!;
  }
  let maxCount = 0;
  for (const c of counts) if (c > maxCount) maxCount = c;
  return { start: fine.start, end: fine.end, bucketSeconds: (fine.end - fine.start) / buckets, counts, idleCounts, maxCount };
}

/** Equal time buckets from `lo` over `span` µs. */
interface Buckets {
  lo: number;
  span: number;
  count: number;
}

/** The bucket of a time in µs. Bucketed in µs, not seconds: no reference to match here, and µs keep more precision. */
function bucketOf(us: number, { lo, span, count }: Buckets): number {
  return span > 0 ? Math.min(count - 1, Math.floor(((us - lo) / span) * count)) : 0;
}

/** What `countAscending` reads and counts into. */
interface BlockCount {
  base: number;
  offset: Uint32Array;
  node: Int32Array;
  idle: Uint8Array;
  busy: Float64Array;
  idleBusy: Float64Array;
  buckets: Buckets;
}

/**
 * Counts samples `from` to `to` of a block of small times in order (the usual long capture): the
 * bucket changes only where a sample's offset reaches the first offset of a later bucket, found
 * with `bucketOf` itself, so every sample lands where `bucketOf` puts its time without
 * a division per sample.
 */
function countAscending(c: BlockCount, from: number, to: number): void {
  const { base, offset, node, idle, busy, idleBusy, buckets } = c;
  const { lo, span, count } = buckets;
  /** The least offset whose time is in a bucket after `b` (Infinity after the last). */
  const firstAfter = (b: number): number => {
    if (b >= count - 1 || !(span > 0)) return Infinity;
    // a guess from the bucket's width, then moved to the exact place (bucketOf never decreases)
    let o = Math.max(0, Math.ceil(lo + ((b + 1) * span) / count - base));
    while (o > 0 && bucketOf(base + o - 1, buckets) > b) o--;
    while (bucketOf(base + o, buckets) <= b) o++;
    return o;
  };
  let b = bucketOf(base + offset[from]!, buckets);
  let next = firstAfter(b);
  for (let i = from; i < to; i++) {
    const o = offset[i]!;
    if (o >= next) {
      b = bucketOf(base + o, buckets);
      next = firstAfter(b);
    }
    if (idle[node[i]!]) idleBusy[b]!++;
    else busy[b]!++;
  }
}

/**
 * Samples per time bucket across the run, `buckets` equal buckets from the first sample to the
 * last (`idle`: `idleNodes(profile)` when already at hand). Throws `NoSampleTimesError`.
 */
export function density(profile: Profile, buckets: number, idle: Uint8Array = idleNodes(profile)): Density {
  if (!Number.isInteger(buckets) || buckets < 1) throw new RangeError(`buckets must be a whole number of at least 1, not ${buckets}`);
  const s = profile.samples;
  if (!s) throw new NoSampleTimesError(profile.name);
  const [lo, hi] = timeBounds(s);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) throw new NoSampleTimesError(profile.name);
  const start = lo / US_PER_S;
  const end = hi / US_PER_S;
  const span = hi - lo;
  const busy = new Float64Array(buckets);
  const idleBusy = new Float64Array(buckets);
  const edges: Buckets = { lo, span, count: buckets };
  const { node } = s;
  const scratch = timeScratch();
  for (let from = 0; from < s.length; from += TIME_PIECE) {
    const to = Math.min(s.length, from + TIME_PIECE);
    const base = s.time ? NaN : s.timeBase![from / TIME_BLOCK]!;
    if (!Number.isNaN(base) && ascendingWithTimes(s.timeOffset!, from, to)) {
      countAscending({ base, offset: s.timeOffset!, node, idle, busy, idleBusy, buckets: edges }, from, to);
      continue;
    }
    const time = timeSlice(s, from, to, scratch);
    for (let i = from; i < to; i++) {
      const us = time[i - from]!;
      if (!Number.isFinite(us)) continue;
      const b = bucketOf(us, edges);
      if (idle[node[i]!]) idleBusy[b]!++;
      else busy[b]!++;
    }
  }
  const counts = Array.from(busy);
  const idleCounts = Array.from(idleBusy);
  let maxCount = 0;
  for (const c of counts) if (c > maxCount) maxCount = c;
  return { start, end, bucketSeconds: (end - start) / buckets, counts, idleCounts, maxCount };
}
