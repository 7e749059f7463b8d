/**
 * Sample weights where the table stores none (`SampleTable.weight` absent): 1 each when the unit
 * counts samples, each sample's duration (`sampleDurations`) when it is time. A table that
 * stores them gives its own column.
 */
import { meanInterval, sampleDurations } from './sample-time';
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
    const { time, length: n } = s;
    let last: number | undefined;
    return (i) => {
      if (i + 1 < n) {
        const d = time[i + 1]! - time[i]!;
        return d > 0 ? d : 0;
      }
      // the last lasts the mean interval (see sample-time.ts), worked out once when it is asked for
      return Number.isNaN(time[i]!) ? 0 : (last ??= meanInterval(s));
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
  const { node, time, length: n } = s;
  let added = 0;
  if (!s.weight && unit === 'microseconds' && !s.thread) {
    const end = Math.min(to, n - 1);
    for (let i = from; i < end; i++) {
      const k = node[i]!;
      if (skip && skip[k]) continue;
      const d = time[i + 1]! - time[i]!;
      self[k]! += d > 0 ? d : 0;
      added++;
    }
    if (end < to && end >= from && !(skip && skip[node[end]!])) {
      self[node[end]!]! += Number.isNaN(time[end]!) ? 0 : meanInterval(s);
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
  const out: SampleTable = {
    length: keep.length,
    node: Int32Array.from(keep, (i) => s.node[i]! - nodeOffset),
    time: Float64Array.from(keep, (i) => s.time[i]!),
  };
  const w = s.weight;
  if (w) out.weight = Float64Array.from(keep, (i) => w[i]!);
  return out;
}
