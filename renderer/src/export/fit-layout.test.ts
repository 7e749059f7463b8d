import { describe, expect, it } from 'vitest';
import { GOOD_ROWS, fitGrid, shareRows } from './fit-layout';

describe('sharing a picture’s rows among panes', () => {
  it('gives shallow panes what they need and shares the rest evenly among the deep ones', () => {
    expect(shareRows([3, 40, 40], 25)).toEqual([3, 11, 11]);
    expect(shareRows([3, 40, 40], 26)).toEqual([3, 12, 11]);
    expect(shareRows([5, 6, 7], 100)).toEqual([5, 6, 7]);
    expect(shareRows([10, 10], 0)).toEqual([0, 0]);
    expect(shareRows([], 10)).toEqual([]);
  });

  it('never gives more rows than there are', () => {
    for (const total of [0, 1, 7, 23, 64])
      for (const needs of [[1], [30, 2, 30, 9], [4, 4, 4, 4, 4, 4]])
        expect(shareRows(needs, total).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(total);
  });

  it('keeps one column while every pane gets a readable depth, and goes side by side when not', () => {
    // 30 rows in one column, 20 more for each pane row saved (its header)
    const rowsAvailable = (cols: number) => 30 + 20 * (5 - Math.ceil(5 / cols));
    expect(fitGrid({ needs: [6, 6, 6, 6, 6], maxCols: 4, rowsAvailable })).toEqual({ cols: 1, rows: [6, 6, 6, 6, 6] });
    const deep = fitGrid({ needs: [60, 60, 60, 60, 60], maxCols: 4, rowsAvailable });
    expect(deep.cols).toBe(2); // 1 column: 6 rows each; 2 columns: 3 rows of panes share 70
    expect(deep.rows).toEqual([24, 24, 23, 23, 23]);
    expect(Math.min(...deep.rows)).toBeGreaterThanOrEqual(GOOD_ROWS);
  });

  it('takes the columns that come closest when no grid gives a readable depth', () => {
    const res = fitGrid({ needs: [60, 60, 60], maxCols: 3, rowsAvailable: (c) => [0, 3, 5, 6][c]! });
    expect(res.cols).toBe(3);
    expect(res.rows).toEqual([6, 6, 6]);
  });
});
