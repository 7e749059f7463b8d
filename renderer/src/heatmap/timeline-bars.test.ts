import { describe, expect, it } from 'vitest';
import { barPaths } from './timeline-bars';

/** Rounded as the paths are (to a thousandth of a pixel). */
const round = (rs: number[][]) => rs.map((r) => r.map((v) => Math.round(v * 1000) / 1000));

/** The rectangles of a path made of `M x y h w v h h -w z` subpaths, as [x, y, width, height]. */
function rects(d: string): number[][] {
  const out: number[][] = [];
  for (const m of d.matchAll(/M(-?[\d.]+) (-?[\d.]+)h(-?[\d.]+)v(-?[\d.]+)h(-?[\d.]+)z/g)) {
    const [x, y, w, h, back] = m.slice(1).map(Number);
    expect(back).toBeCloseTo(-w!, 3);
    out.push([x!, y!, w!, h!]);
  }
  expect(out.map((r) => r.join()).length).toBe(d.split('M').length - 1);
  return out;
}

describe('barPaths', () => {
  it('draws a bar per bucket with samples: busy on the bottom edge, idle stacked on it, the tallest 2 px short of the strip', () => {
    // 4 buckets over 100 px: 25 px each, bars 24.5 px wide; a bucket of `max` (10) samples fills 24 of 26 px
    const { busy, idle } = barPaths([8, 0, 3, 5], [2, 4, 0, 0], 10, 100, 26);
    const unit = 24 / 10;
    expect(rects(busy)).toEqual(
      round([
        [0, 26 - 8 * unit, 24.5, 8 * unit],
        [50, 26 - 3 * unit, 24.5, 3 * unit],
        [75, 26 - 5 * unit, 24.5, 5 * unit],
      ]),
    );
    expect(rects(idle)).toEqual(
      round([
        [0, 26 - 10 * unit, 24.5, 2 * unit],
        [25, 26 - 4 * unit, 24.5, 4 * unit],
      ]),
    );
  });

  it('keeps bars at least a pixel wide when there are more buckets than pixels', () => {
    const n = 400;
    const { busy } = barPaths(new Array<number>(n).fill(1), new Array<number>(n).fill(0), 1, 200, 26);
    const r = rects(busy);
    expect(r).toHaveLength(n);
    for (const [i, [x, , w]] of r.entries()) {
      expect(x).toBeCloseTo(i * 0.5, 3);
      expect(w).toBe(1);
    }
  });

  it('draws nothing for a strip without samples', () => {
    expect(barPaths([0, 0], [0, 0], 1, 50, 26)).toEqual({ busy: '', idle: '' });
  });
});
