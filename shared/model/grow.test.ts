import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GrowFloat64, GrowInt32, GrowNumbers, PiecedInt32, reserveFloat64, reserveInt32, takeFloat64, takeInt32 } from './grow';

describe('GrowNumbers', () => {
  it('keeps 32-bit integers in 4 bytes each and every other number exactly, in order', () => {
    const g = new GrowNumbers();
    const ints = [0, 1, -1, 2 ** 31 - 1, -(2 ** 31), 7];
    for (const v of ints) g.push(v);
    expect(Array.from({ length: g.length }, (_, i) => g.at(i))).toEqual(ints);
    const more = [2 ** 31, 1.5, -0, 2 ** 53, -3];
    for (const v of more) g.push(v);
    const all = Array.from({ length: g.length }, (_, i) => g.at(i));
    expect(all).toEqual([...ints, ...more]);
    expect(Object.is(all[8], -0)).toBe(true);
    g.clear();
    expect(g.length).toBe(0);
  });

  it('takes 4 bytes a value while every value is a 32-bit integer', () => {
    const g = new GrowNumbers();
    for (let i = 0; i < 5000; i++) g.push(i * 1000);
    // (the column holds Int32Array pieces; its size follows the count, not 8 bytes a value)
    const ints = (g as unknown as { ints: GrowInt32 }).ints;
    expect(ints.data).toBeInstanceOf(Int32Array);
    expect(ints.data.byteLength).toBeLessThanOrEqual(2 * 5000 * 4);
  });
});

describe('reserve and take', () => {
  it('a column reserved to its final size is handed over as it is, not copied, and emptied', () => {
    const g = new GrowInt32();
    reserveInt32(g, 4);
    expect(g.data.length).toBe(4);
    const before = g.data;
    for (const v of [5, 6, 7, 8]) g.push(v);
    expect(g.data).toBe(before);
    const out = takeInt32(g);
    expect(out).toBe(before);
    expect([...out]).toEqual([5, 6, 7, 8]);
    expect(g.length).toBe(0);
    expect(g.data.length).toBe(0);
  });

  it('a column with room to spare is handed over right-sized', () => {
    const g = new GrowFloat64(16);
    g.push(1.5);
    g.push(2.5);
    reserveFloat64(g, 1); // room already there: nothing changes
    expect(g.data.length).toBe(16);
    const out = takeFloat64(g);
    expect(out).toBeInstanceOf(Float64Array);
    expect([...out]).toEqual([1.5, 2.5]);
    expect(out.buffer.byteLength).toBe(16);
  });

  it('a column with room to spare lets go of its grown buffer when taken, not at the next collection', () => {
    const g = new GrowInt32();
    for (let i = 0; i < 3000; i++) g.push(i * 3);
    const grown = g.data;
    expect(grown.length).toBe(4096);
    const out = takeInt32(g);
    expect(out.length).toBe(3000);
    expect(out.buffer.byteLength).toBe(3000 * 4);
    expect(out[2999]).toBe(2999 * 3);
    // moved out (ArrayBuffer.prototype.transfer), not copied beside it
    expect(grown.buffer.byteLength).toBe(0);
    const f = new GrowFloat64();
    for (let i = 0; i < 1500; i++) f.push(i / 4);
    const fGrown = f.data;
    const fOut = takeFloat64(f);
    expect([...fOut.subarray(1497)]).toEqual([1497 / 4, 1498 / 4, 1499 / 4]);
    expect(fGrown.buffer.byteLength).toBe(0);
  });
});

describe('PiecedInt32', () => {
  it('gives back the values written in runs of any length, across pieces, as one array of their number', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 150_000 }), { maxLength: 8 }), (runs) => {
        const column = new PiecedInt32();
        const pieces = new Set<Int32Array>();
        let next = 0;
        for (const run of runs)
          for (let left = run; left > 0;) {
            const piece = column.current();
            pieces.add(piece);
            const n = Math.min(left, piece.length - column.filled);
            for (let k = 0; k < n; k++) piece[column.filled + k] = next++ ^ 0x5a5a;
            column.wrote(n);
            left -= n;
          }
        expect(column.length).toBe(next);
        const out = column.take();
        expect(out.length).toBe(next);
        let wrong = 0;
        for (let i = 0; i < next; i++) if (out[i] !== (i ^ 0x5a5a)) wrong++;
        expect(wrong).toBe(0);
        // every piece is given back once copied, and the column starts again empty
        for (const p of pieces) expect(p.buffer.byteLength).toBe(0);
        expect(column.length).toBe(0);
        expect(column.take().length).toBe(0);
      }),
      { numRuns: 25 },
    );
  });
});
