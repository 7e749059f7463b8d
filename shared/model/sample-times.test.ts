import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_TIME, SampleTimesBuilder, TIME_BLOCK, compactTimes, timeAt, timeColumn, timeColumnsProblem, timeReader } from './sample-times';

/** Every time read back from the columns `times` make, as the table's readers give them. */
function readBack(times: ArrayLike<number>): number[] {
  const s = { length: times.length, ...compactTimes(times) };
  expect(timeColumnsProblem(s)).toBeUndefined();
  const read = timeReader(s);
  return Array.from({ length: times.length }, (_, i) => read(i));
}

/** Whether `a` and `b` hold the same values, NaN and the sign of zero included. */
function same(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

describe('sample times kept small', () => {
  it('give back whole microseconds of a long capture exactly, in 4 bytes a sample', () => {
    // 3.4 hours of samples ~1.2 ms apart, from a clock far from 0, across blocks
    const n = 3 * TIME_BLOCK + 1234;
    const time = new Float64Array(n);
    let t = 163_140_599_286;
    for (let i = 0; i < n; i++) time[i] = t += 900 + ((i * 7919) % 700);
    const c = compactTimes(time);
    expect(c.time).toBeUndefined();
    expect(c.timeWide).toBeUndefined();
    expect(c.timeOffset).toBeInstanceOf(Uint32Array);
    expect(c.timeOffset!.length).toBe(n);
    expect(c.timeBase!.length).toBe(4);
    expect(same(readBack(time), time)).toBe(true);
    expect(same(timeColumn({ length: n, ...c }), time)).toBe(true);
    expect(timeAt({ length: n, node: new Int32Array(n), ...c }, n - 1)).toBe(time[n - 1]);
  });

  it('keep unknown times unknown, and a block without any known time', () => {
    const time = new Float64Array(TIME_BLOCK + 3).fill(NaN);
    time[TIME_BLOCK + 1] = 5;
    const c = compactTimes(time);
    expect(c.timeOffset![0]).toBe(NO_TIME);
    expect(same(readBack(time), time)).toBe(true);
  });

  it('keep as Float64 only the blocks whose times do not fit: fractions, spans of 2^32 µs, -0', () => {
    const n = 4 * TIME_BLOCK;
    const time = new Float64Array(n);
    for (let i = 0; i < n; i++) time[i] = 1e9 + i * 10;
    time[5] = 1e9 + 50.25; // block 0: a fraction
    time[2 * TIME_BLOCK + 9] = 1e9 + 2 ** 33; // block 2: a span past 32 bits
    const c = compactTimes(time);
    expect(Array.from(c.timeBase!, (b) => Number.isNaN(b))).toEqual([true, false, true, false]);
    expect(c.timeWide!.length).toBe(2 * TIME_BLOCK);
    expect(same(readBack(time), time)).toBe(true);
    // a table none of whose blocks fit keeps one Float64 column, as tables always did
    const all = compactTimes([0.5, -0, 3]);
    expect(all.timeBase).toBeUndefined();
    expect(Array.from(all.time!)).toEqual([0.5, -0, 3]);
    expect(Object.is(readBack([0, -0])[1], -0)).toBe(true);
  });

  it('give back any times exactly, pushed one by one or reserved', () => {
    const value = fc.oneof(
      fc.integer({ min: 0, max: 2 ** 40 }),
      fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
      fc.double({ noDefaultInfinity: true }),
      fc.constant(NaN),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 300 }), fc.integer({ min: 1, max: 40 }), (times, spread) => {
        // blocks are 65,536 samples: spread a few values over several blocks
        const long = new Float64Array(times.length * spread * 700);
        for (let i = 0; i < long.length; i++) long[i] = times.length ? times[i % times.length]! : 0;
        expect(same(readBack(times), times)).toBe(true);
        expect(same(readBack(long), long)).toBe(true);
        const b = new SampleTimesBuilder(3);
        for (const t of long) b.push(t);
        const s = { length: long.length, ...b.finish() };
        expect(same(timeColumn(s), long)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('name columns that do not fit their table', () => {
    const c = compactTimes(Float64Array.from({ length: TIME_BLOCK + 1 }, (_, i) => i));
    expect(timeColumnsProblem({ length: TIME_BLOCK + 1, ...c })).toBeUndefined();
    expect(timeColumnsProblem({ length: TIME_BLOCK + 2, ...c })).toMatch(/differ in length/);
    expect(timeColumnsProblem({ length: 3, time: new Float64Array(2) })).toMatch(/differ in length/);
    expect(timeColumnsProblem({ length: 3 })).toMatch(/without their times/);
    const wide = { ...c, timeBase: Float64Array.of(NaN, 0) };
    expect(timeColumnsProblem({ length: TIME_BLOCK + 1, ...wide })).toMatch(/wide sample times hold 0 values, not 65536/);
  });
});
