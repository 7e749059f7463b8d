import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { density } from '../heatmap/heatmap';
import { hasSampleTimes, inTimeOrder, meanInterval, timeBounds } from './sample-time';
import { TIME_BLOCK, compactTimes } from './sample-times';
import { timeSummary } from './time-summary';
import type { Profile, SampleTable } from './types';

/** The answers worked out the plain way, from the times as a list. */
function reference(time: readonly number[]) {
  const known = time.filter((t) => !Number.isNaN(t));
  let ascending = true;
  for (let i = 0; i < time.length; i++) if (Number.isNaN(time[i]!) || (i > 0 && time[i]! < time[i - 1]!)) ascending = false;
  return {
    known: known.length,
    ascending,
    first: known.length ? known[0]! : NaN,
    last: known.length ? known[known.length - 1]! : NaN,
    lo: known.reduce((a, t) => Math.min(a, t), Infinity),
    hi: known.reduce((a, t) => Math.max(a, t), -Infinity),
  };
}

/** Samples at `time`, in the small form where the times allow, all of one node (`node` gives another). */
function table(time: readonly number[], node = (_i: number) => 0): SampleTable {
  return { length: time.length, node: Int32Array.from(time, (_, i) => node(i)), ...compactTimes(time) };
}

/** Times in runs that make every form: small blocks, unknown times, wide blocks (fractions), disorder. */
const times = fc
  .record({
    start: fc.integer({ min: 0, max: 2 ** 40 }),
    blocks: fc.integer({ min: 0, max: 3 }),
    extra: fc.integer({ min: 0, max: 50 }),
    step: fc.integer({ min: 0, max: 2000 }),
    edits: fc.array(
      fc.record({
        at: fc.nat(),
        value: fc.oneof(fc.constant(NaN), fc.constant(0.5), fc.integer({ min: -5000, max: 5000 }), fc.constant(2 ** 33)),
      }),
      { maxLength: 6 },
    ),
  })
  .map(({ start, blocks, extra, step, edits }) => {
    const n = blocks * TIME_BLOCK + extra;
    const time = Array.from({ length: n }, (_, i) => start + i * step);
    for (const e of edits)
      if (n > 0)
        time[e.at % n] = e.value === 0.5 || e.value === 2 ** 33 || Number.isNaN(e.value) ? start + e.value : time[e.at % n]! + e.value;
    return time;
  });

describe('time summary', () => {
  it('gives what a plain pass over the times gives, in every form the times are kept', () => {
    fc.assert(
      fc.property(times, (time) => {
        const s = table(time);
        const want = reference(time);
        expect(timeSummary(s)).toEqual(want);
        expect(inTimeOrder(s)).toBe(want.ascending);
        expect(hasSampleTimes(s)).toBe(time.length > 0 && want.known === time.length);
        expect(timeBounds(s)).toEqual([want.lo, want.hi]);
        expect(meanInterval(s)).toBe(want.known > 1 ? (want.last - want.first) / (want.known - 1) : 0);
        // the same times as one Float64 column
        const whole = { length: time.length, node: s.node, time: Float64Array.from(time) };
        expect(timeSummary(whole)).toEqual(want);
      }),
      { numRuns: 40 },
    );
  });

  it('knows a block of times in order that ends in an unknown one', () => {
    const time = Array.from({ length: TIME_BLOCK + 2 }, (_, i) => 1000 + i);
    time[TIME_BLOCK - 1] = NaN;
    expect(timeSummary(table(time))).toEqual(reference(time));
    expect(hasSampleTimes(table(time))).toBe(false);
    expect(inTimeOrder(table([1, 2, NaN]))).toBe(false);
    expect(timeBounds(table([1, 2, NaN]))).toEqual([1, 2]);
  });

  it('is worked out again for a table of another length on the same column', () => {
    const s = table([5, 1, 7, 9]);
    expect(inTimeOrder(s)).toBe(false);
    expect(inTimeOrder({ ...s, length: 1 })).toBe(true);
    expect(timeBounds({ ...s, length: 1 })).toEqual([5, 5]);
    expect(timeBounds(s)).toEqual([1, 9]);
  });

  it('leaves other threads to the thread asked for', () => {
    const s = { ...table([0, 10, 20, 40, 50]), thread: Int32Array.of(0, 1, 0, 1, 0) };
    expect(meanInterval(s, 0)).toBe(25);
    expect(meanInterval(s, 1)).toBe(30);
    expect(meanInterval(s)).toBe(12.5);
    expect(meanInterval(table([0, 10, 20]), 1)).toBe(0);
    expect(meanInterval(table([0, 10, 20]), 0)).toBe(10);
  });
});

/** `density` worked out the plain way: each time's bucket by the formula, idle apart. */
function plainDensity(time: readonly number[], buckets: number, isIdle: (i: number) => boolean) {
  const known = time.filter((t) => !Number.isNaN(t));
  const lo = known.reduce((a, t) => Math.min(a, t), Infinity);
  const span = known.reduce((a, t) => Math.max(a, t), -Infinity) - lo;
  const counts = new Array<number>(buckets).fill(0);
  const idleCounts = new Array<number>(buckets).fill(0);
  time.forEach((t, i) => {
    if (Number.isNaN(t)) return;
    const b = span > 0 ? Math.min(buckets - 1, Math.floor(((t - lo) / span) * buckets)) : 0;
    (isIdle(i) ? idleCounts : counts)[b]!++;
  });
  return { counts, idleCounts };
}

describe('density of small times', () => {
  it('puts times on the edge of a bucket where the formula does, in long blocks in order', () => {
    const asProfile = (s: SampleTable) => ({ samples: s, name: 'p' }) as unknown as Profile;
    const idle = Uint8Array.of(0, 1, 0);
    for (const [n, step, buckets] of [
      [3 * TIME_BLOCK, 1, 1200], // every µs: every edge is a sample's time
      [2 * TIME_BLOCK + 7, 997, 1200],
      [TIME_BLOCK + 1, 3, 7],
      [5000, 0, 1200], // one time for all: one bucket
    ] as const) {
      const time = Array.from({ length: n }, (_, i) => 1_700_000_000_000 + i * step + (i % 5 === 0 ? 0 : Math.floor(step / 2)));
      const d = density(asProfile(table(time, (i) => i % 3)), buckets, idle);
      const want = plainDensity(time, buckets, (i) => i % 3 === 1);
      expect(d.counts).toEqual(want.counts);
      expect(d.idleCounts).toEqual(want.idleCounts);
    }
  });

  it('counts as the times read one by one do, idle apart', () => {
    fc.assert(
      fc.property(times, fc.integer({ min: 1, max: 40 }), (time, buckets) => {
        const s = table(time, (i) => i % 3);
        const idle = Uint8Array.of(0, 1, 0);
        const p = { samples: s, name: 'p' } as unknown as Profile;
        if (!time.some((t) => !Number.isNaN(t))) {
          expect(() => density(p, buckets, idle)).toThrow();
          return;
        }
        const { counts, idleCounts } = plainDensity(time, buckets, (i) => i % 3 === 1);
        const d = density(p, buckets, idle);
        expect(d.counts).toEqual(counts);
        expect(d.idleCounts).toEqual(idleCounts);
        expect(d.maxCount).toBe(counts.reduce((a, c) => Math.max(a, c), 0));
      }),
      { numRuns: 30 },
    );
  });
});
