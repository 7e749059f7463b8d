import { describe, expect, it } from 'vitest';
import { cellText } from './cell-text';

describe('the heatmap cell under the pointer', () => {
  // a run that started 0.854 s into second 100 of its clock; cells of 20 ms
  const start = 100.854;
  it('is told in seconds from the run start', () => {
    expect(cellText({ start: 101.2, end: 101.22 }, start, 3)).toBe('0.346–0.366 s into the run: 3 samples');
    expect(cellText({ start: 101.2, end: 101.22 }, start, 1)).toBe('0.346–0.366 s into the run: 1 sample');
  });
  it('is cut at the run start where it began before it', () => {
    expect(cellText({ start: 100.84, end: 100.86 }, start, 1)).toBe('0.000–0.006 s into the run: 1 sample');
  });
  it('says a cell wholly before the run is before it, never negative seconds', () => {
    expect(cellText({ start: 100.0, end: 100.02 }, start, 0)).toBe('before the run started: 0 samples');
    expect(cellText({ start: 100.834, end: 100.854 }, start, 0)).toBe('before the run started: 0 samples');
  });
});
