import { describe, expect, it } from 'vitest';
import { Status } from '../../../shared/diff/diff';
import { diffColor, diffLegend, diffLegendNote } from './diff-colors';

describe('diff legend', () => {
  it('says in words what red and blue mean in absolute mode', () => {
    const labels = diffLegend('default', 'absolute', 'samples').map((e) => e.label);
    expect(labels.slice(0, 2)).toEqual(['more time than the baseline spent here', 'less time than the baseline spent here']);
    expect(diffLegend('default', 'absolute', 'bytes')[0]!.label).toBe('more memory allocated here than in the baseline');
  });

  it('says in words what red and blue mean in relative mode', () => {
    const labels = diffLegend('colorblind', 'relative').map((e) => e.label);
    expect(labels.slice(0, 2)).toEqual(['larger share of the run than in the baseline', 'smaller share of the run than in the baseline']);
  });

  it('gives each entry the colour frames are drawn in', () => {
    const [wider, narrower] = diffLegend('default', 'absolute');
    // the deepest red / blue diffColor gives, at 80% of the way from light
    expect(wider!.color).toBe(diffColor('default', Status.Changed, 1, 1 / ((0.8 - 0.25) / 0.75) ** 2));
    expect(narrower!.color).toBe(diffColor('default', Status.Changed, -1, 1 / ((0.8 - 0.25) / 0.75) ** 2));
  });

  it('states what the noise threshold is of in each mode', () => {
    expect(diffLegendNote('absolute', 0.1)).toMatch(
      /^absolute \(the runs did the same work\): Δ in the profile's unit; noise: within 0\.1% of the baseline's total/,
    );
    expect(diffLegendNote('relative', 0.25)).toMatch(
      /^relative \(each run as a share of its own total\): Δ in percentage points; noise: within 0\.25 pp/,
    );
  });

  it('has a colour and an entry of its own for call paths that moved', () => {
    const moved = diffColor('default', Status.Moved, 5, 10);
    expect(moved).not.toBe(diffColor('default', Status.New, 5, 10));
    expect(diffLegend('default', 'absolute')).toContainEqual({ label: 'moved (same function, other callers)', color: moved });
    expect(diffColor('colorblind', Status.Moved, 5, 10)).not.toBe(diffColor('colorblind', Status.New, 5, 10));
  });
});
