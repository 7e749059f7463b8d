/**
 * Sample weights where the table stores none (`SampleTable.weight` absent): 1 each when the unit
 * counts samples, each sample's duration (`sampleDurations`) when it is time. A table that
 * stores them gives its own column.
 */
import { meanInterval, sampleDurations } from './sample-time';
import { NO_TIME, TIME_BLOCK, TIME_PIECE, timeAt, timeReader, timeScratch, timeSlice } from './sample-times';
import type { SampleTable, Unit } from './types';

/** Whether a table in `unit` may leave its weights out (they follow from the unit). */
export function derivableWeights(unit: Unit): boolean {
  return unit === 'samples' || unit === 'microseconds';
}

/** Every sample's weight in `unit`: the table's column, or the weights that follow from the unit. */
export function sampleWeights(s: SampleTable, unit: Unit): Float64Array {
  if (s.weight) return s.weight;
  if (unit === 'microseconds') return sampleDurations(s);
  if (unit === 'samples') return new Float64Array(s.length).fill(1);
  throw new Error(`a sample table in ${unit} without its weights`);
}

/**
 * Sample `i`'s weight, read without a column of every sample's where the table stores none: a
 * time range of a long capture looks at a few million of its ten million samples, and each
 * range picked would otherwise work out (and allocate, 80 MB) the durations of all of them.
 * Gives what `sampleWeights(s, unit)[i]` gives.
 */
export function sampleWeightReader(s: SampleTable, unit: Unit): (i: number) => number {
  const stored = s.weight;
  if (stored) return (i) => stored[i]!;
  if (unit === 'samples') return () => 1;
  if (unit === 'microseconds' && !s.thread) {
    const n = s.length;
    const time = timeReader(s);
    let last: number | undefined;
    return (i) => {
      if (i + 1 < n) {
        const d = time(i + 1) - time(i);
        return d > 0 ? d : 0;
      }
      // the last lasts the mean interval (see sample-time.ts), worked out once when it is asked for
      return Number.isNaN(time(i)) ? 0 : (last ??= meanInterval(s));
    };
  }
  const all = sampleWeights(s, unit);
  return (i) => all[i]!;
}

/**
 * Adds the weights of samples `from` to `to` (not included) to their nodes' entries of `self`,
 * leaving out samples whose node `skip` marks; returns how many were added. As
 * `sampleWeightReader` gives them, in one plain pass where they are one thread's durations (the
 * time range of a long capture: millions of samples each time a range is picked).
 */
export function addRangeWeights(s: SampleTable, unit: Unit, from: number, to: number, self: Float64Array, skip?: Uint8Array): number {
  const { node, length: n } = s;
  let added = 0;
  if (!s.weight && unit === 'microseconds' && !s.thread) {
    const end = Math.min(to, n - 1);
    const scratch = timeScratch();
    for (let lo = from; lo < end;) {
      // a block of small times at a time (model/sample-times), else a piece of Float64 ones
      const block = Math.floor(lo / TIME_BLOCK);
      const hi = Math.min(end, s.time ? lo + TIME_PIECE : (block + 1) * TIME_BLOCK);
      if (!s.time && !Number.isNaN(s.timeBase![block]!)) added += addBlockDurations(s, lo, hi, self, skip);
      else {
        // (with the time of the sample after the piece: each lasts until the next)
        const time = timeSlice(s, lo, hi + 1, scratch);
        for (let i = lo; i < hi; i++) {
          const k = node[i]!;
          if (skip && skip[k]) continue;
          const d = time[i - lo + 1]! - time[i - lo]!;
          self[k]! += d > 0 ? d : 0;
          added++;
        }
      }
      lo = hi;
    }
    if (end < to && end >= from && !(skip && skip[node[end]!])) {
      self[node[end]!]! += Number.isNaN(timeAt(s, end)) ? 0 : meanInterval(s);
      added++;
    }
    return added;
  }
  const weight = sampleWeightReader(s, unit);
  for (let i = from; i < to; i++) {
    const k = node[i]!;
    if (skip && skip[k]) continue;
    self[k]! += weight(i);
    added++;
  }
  return added;
}

/**
 * `addRangeWeights` over samples `from` to `to` of one block of small times: a sample's duration
 * is the difference of its and the next one's offsets, the very number the difference of their
 * times gives (both are whole, and base + offset gives each time exactly), without working the
 * times out. The block's last sample is followed by the next block's first.
 */
function addBlockDurations(s: SampleTable, from: number, to: number, self: Float64Array, skip: Uint8Array | undefined): number {
  const { node } = s;
  const offset = s.timeOffset!;
  const inBlock = Math.min(to, (Math.floor(from / TIME_BLOCK) + 1) * TIME_BLOCK - 1);
  let added = 0;
  for (let i = from; i < inBlock; i++) {
    const k = node[i]!;
    if (skip && skip[k]) continue;
    const a = offset[i]!;
    const b = offset[i + 1]!;
    const d = a === NO_TIME || b === NO_TIME ? 0 : b - a;
    self[k]! += d > 0 ? d : 0;
    added++;
  }
  for (let i = inBlock; i < to; i++) {
    const k = node[i]!;
    if (skip && skip[k]) continue;
    const d = timeAt(s, i + 1) - timeAt(s, i);
    self[k]! += d > 0 ? d : 0;
    added++;
  }
  return added;
}

/**
 * Adds every sample's weight to its node's entry of `self` (one per call-tree node), without a
 * column of weights where the table has none: a long capture's durations are 80 MB.
 */
export function addSampleWeights(s: SampleTable, unit: Unit, self: Float64Array): void {
  addRangeWeights(s, unit, 0, s.length, self);
}

/**
 * The samples at indices `keep` (in order), their nodes moved down by `nodeOffset`: one thread's
 * samples. Their weights are kept where the table stores them; where it does not, one thread's
 * durations are what they were among all threads', so they still follow from the unit.
 */
export function samplesAt(s: SampleTable, keep: readonly number[], nodeOffset = 0): SampleTable {
  const time = timeReader(s);
  const out: SampleTable = {
    length: keep.length,
    node: Int32Array.from(keep, (i) => s.node[i]! - nodeOffset),
    time: Float64Array.from(keep, (i) => time(i)),
  };
  const w = s.weight;
  if (w) out.weight = Float64Array.from(keep, (i) => w[i]!);
  return out;
}
