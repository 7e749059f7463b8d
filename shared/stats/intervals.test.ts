import { describe, expect, it } from 'vitest';
import { IntervalCollector, coveredTime, mergeIntervals, unionOf } from './intervals';

const f = (...v: number[]) => Float64Array.from(v);

describe('intervals', () => {
  it('merges overlapping, nested and touching intervals given in any order', () => {
    const c = new IntervalCollector();
    for (const [a, b] of [
      [10, 20],
      [0, 5],
      [15, 30],
      [16, 18], // inside [15, 30]
      [30, 31], // touches
      [40, 40], // an instant: no time
      [50, 60],
    ])
      c.add(a!, b!);
    const m = c.merged();
    expect([...m]).toEqual([0, 5, 10, 31, 50, 60]);
    expect(coveredTime(m)).toBe(5 + 21 + 10);
  });

  it('covers what a thousand overlapping lifetimes cover, not their sum', () => {
    const c = new IntervalCollector();
    let sum = 0;
    for (let i = 0; i < 1000; i++) {
      c.add(i, i + 500);
      sum += 500;
    }
    expect(sum).toBe(500_000);
    expect(coveredTime(c.merged())).toBe(1499);
  });

  it('unions merged lists', () => {
    expect([...unionOf([f(0, 2, 10, 12), f(1, 3), f()])]).toEqual([0, 3, 10, 12]);
    expect([...unionOf([])]).toEqual([]);
    expect([...mergeIntervals(f(5, 6, 1, 2))]).toEqual([1, 2, 5, 6]);
  });
});
