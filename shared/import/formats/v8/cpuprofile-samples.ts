/**
 * A modern `.cpuprofile`'s samples read into the call tree as they arrive. V8 and Chrome DevTools
 * write `nodes` first, then `samples`, then `timeDeltas`: once the first sample comes, the tree can
 * be built and each sample id turned into its call-tree node at once, and each delta into the
 * sample's time, so the file's two arrays (10 M Int32 each in a long capture) are never held.
 * Files in any other order are read as before, whole (`addSamples` in cpuprofile.ts).
 */
import type { CallTreeBuilder } from '../../../model/builders';
import { PiecedInt32 } from '../../../model/grow';
import { SampleTimesBuilder, type TimeColumns, compactTimes, timeColumn } from '../../../model/sample-times';
import { isTime } from '../../../model/types';
import { ImportError } from '../../errors';
import type { NumberPlaces } from '../../io/json-stream';
import type { IdLookup } from './id-map';

/** The samples added: how many, and their first and last known time (µs). */
export interface Span {
  count: number;
  lo: number;
  hi: number;
}

/** What reading the samples found wrong, for the profile's warnings. */
export interface SampleFaults {
  outOfOrder: number;
  outOfRange: number;
  unknown: number;
  firstUnknown: number;
  /** entries of `timeDeltas` (may be fewer than the samples) */
  times: number;
}

const UNKNOWN = -1;

export class StreamedSamples {
  /** call-tree node of each sample, UNKNOWN for an id not in the file (kept samples only) */
  private readonly nodes: PiecedInt32 | undefined;
  private nodeColumn: Int32Array<ArrayBuffer> | undefined;
  /** the samples' times, in the table's small form (model/sample-times), made once every sample is in */
  private times: SampleTimesBuilder | undefined;
  /** indices of samples naming unknown ids, in order (when samples are not kept) */
  private readonly unknownAt: number[] = [];
  private nextUnknown = 0;
  private count = 0;
  private deltaCount = 0;
  private t = 0;
  private latest = -Infinity;
  /** one element's value, for `sample` and `delta` */
  private readonly one = new Float64Array(1);
  readonly span: Span = { count: 0, lo: Infinity, hi: -Infinity };
  readonly faults: SampleFaults = { outOfOrder: 0, outOfRange: 0, unknown: 0, firstUnknown: 0, times: 0 };

  constructor(
    private readonly file: string,
    private readonly tree: CallTreeBuilder,
    /** call-tree node by sample id */
    private readonly nodeById: IdLookup,
    startTime: number | undefined,
    /** false: only the samples' weight goes into the tree, no sample table is kept */
    private readonly keep: boolean,
  ) {
    this.t = startTime ?? 0;
    // (the columns the tree takes over: charged to its budget as they grow)
    this.nodes = keep ? new PiecedInt32(tree.budget) : undefined;
  }

  /** The next element of `samples`, at byte `offset`. */
  sample(id: number, offset: number): void {
    this.one[0] = id;
    this.samples(this.one, 1, { offset: () => offset });
  }

  /** The next `count` elements of `samples`; `places` says where they are in the file. */
  samples(ids: Float64Array, count: number, places: NumberPlaces): void {
    if (this.deltaCount > 0)
      throw new ImportError({
        file: this.file,
        offset: places.offset(0),
        message: 'a "samples" array comes after "timeDeltas" began (two "samples" arrays?)',
      });
    const from = this.count;
    this.count += count;
    const lookup = this.nodeById;
    const nodes = this.nodes;
    if (!nodes) {
      // only their weight goes into the tree
      for (let k = 0; k < count; k++) {
        const node = lookup.get(ids[k]!);
        if (node === UNKNOWN) this.unknown(ids[k]!, from + k);
        else this.tree.addSelf(node, 1);
      }
      return;
    }
    // (the column is filled piece by piece: a run may end one piece and begin the next)
    for (let k = 0; k < count;) {
      const piece = nodes.current();
      const at = nodes.filled;
      const n = Math.min(count - k, piece.length - at);
      for (let q = 0; q < n; q++) {
        const node = lookup.get(ids[k + q]!);
        if (node === UNKNOWN) this.unknown(ids[k + q]!, from + k + q);
        piece[at + q] = node;
      }
      nodes.wrote(n);
      k += n;
    }
  }

  private unknown(id: number, j: number): void {
    if (this.faults.unknown++ === 0) this.faults.firstUnknown = id;
    if (!this.nodes) this.unknownAt.push(j);
  }

  /** The next element of `timeDeltas`: the time of the sample of the same index. */
  delta(d: number): void {
    this.one[0] = d;
    this.deltas(this.one, 1);
  }

  /** The next `count` elements of `timeDeltas`: the times of the samples of the same indices (written over `ds`). */
  deltas(ds: Float64Array, count: number): void {
    const first = this.deltaCount;
    this.deltaCount += count;
    const n = Math.min(count, this.count - first);
    if (n <= 0) return;
    if (first === 0 && this.nodes) {
      // Every sample is in: the node column at its size, and room for exactly as many times.
      this.nodeColumn = this.nodes.take();
      this.times = new SampleTimesBuilder(this.count, this.tree.budget);
    }
    const { span, faults } = this;
    const someUnknown = faults.unknown > 0;
    let { t, latest } = this;
    let { lo, hi } = span;
    let known = 0;
    let outOfRange = 0;
    let outOfOrder = 0;
    for (let k = 0; k < n; k++) {
      t += ds[k]!;
      // Deltas can be negative (0x's samples-cpu-prof.cpuprofile: `…,329,227,-6,231,…`, V8 having
      // recorded that sample out of order). Each sample keeps its own time; the model puts samples
      // in time order (model/sample-time.ts).
      let time = NaN;
      if (!isTime(t)) outOfRange++;
      else {
        if (t < latest) outOfOrder++;
        else latest = t;
        time = t;
      }
      ds[k] = time;
      if (someUnknown && this.isUnknown(first + k)) continue;
      known++;
      if (time < lo) lo = time;
      if (time > hi) hi = time;
    }
    faults.outOfRange += outOfRange;
    faults.outOfOrder += outOfOrder;
    this.t = t;
    this.latest = latest;
    span.lo = lo;
    span.hi = hi;
    span.count += known;
    if (this.times) this.times.pushMany(ds, n);
  }

  private isUnknown(j: number): boolean {
    if (this.nodeColumn) return this.nodeColumn[j] === UNKNOWN;
    const at = this.unknownAt;
    while (this.nextUnknown < at.length && at[this.nextUnknown]! < j) this.nextUnknown++;
    return this.nextUnknown < at.length && at[this.nextUnknown] === j;
  }

  /**
   * A `startTime` that came after the first delta (V8 writes it before the samples): times so far
   * counted from 0 are moved by it in `finish`.
   */
  lateStart(startTime: number): void {
    if (this.deltaCount === 0) this.t = startTime;
    else this.shift = startTime;
  }

  private shift = 0;

  /** Times moved by a late `startTime`; those it takes out of range have none. */
  private shifted(time: Float64Array): void {
    const by = this.shift;
    if (by === 0) return;
    for (let i = 0; i < time.length; i++) {
      const t = time[i]! + by;
      if (!Number.isNaN(time[i]!) && !isTime(t)) this.faults.outOfRange++;
      time[i] = isTime(t) ? t : NaN;
    }
    this.span.lo += by;
    this.span.hi += by;
  }

  /** Hands the samples to the tree: the ones without a time have none (NaN), unknown ids are left out. */
  finish(): void {
    this.faults.times = this.deltaCount;
    // Samples with no delta: counted, with no time.
    const timed = Math.min(this.deltaCount, this.count);
    if (this.nodes && !this.nodeColumn) this.nodeColumn = this.nodes.take();
    this.span.count += this.count - timed - this.unknownBeyond(timed);
    if (!this.nodes) {
      this.span.lo += this.shift;
      this.span.hi += this.shift;
      return;
    }
    const node = this.nodeColumn!;
    const times = (this.times ??= new SampleTimesBuilder(node.length, this.tree.budget));
    while (times.length < node.length) times.push(NaN);
    this.times = undefined;
    const columns = times.finish();
    const unknown = this.faults.unknown > 0;
    // (a file whose samples all name known ids, as V8 writes them, hands over its columns as they are)
    if (this.shift === 0 && !unknown) this.tree.adoptSamples(node, columns);
    else this.adoptAmended(node, columns);
  }

  /** Hands over the samples with their times moved by a late `startTime`, and those of unknown ids left out. */
  private adoptAmended(node: Int32Array<ArrayBuffer>, columns: TimeColumns): void {
    const time = timeColumn({ length: node.length, ...columns });
    this.shifted(time);
    let k = 0;
    for (let i = 0; i < node.length; i++) {
      if (node[i] === UNKNOWN) continue;
      node[k] = node[i]!;
      time[k++] = time[i]!;
    }
    this.tree.adoptSamples(k === node.length ? node : node.slice(0, k), compactTimes(time.subarray(0, k)));
  }

  /** Unknown samples at index `from` or later (those without a time). */
  private unknownBeyond(from: number): number {
    let n = 0;
    if (this.nodes) {
      const node = this.nodeColumn!;
      for (let i = from; i < this.count; i++) if (node[i] === UNKNOWN) n++;
    } else for (const j of this.unknownAt) if (j >= from) n++;
    return n;
  }

  get length(): number {
    return this.count;
  }
}
