import { describe, expect, it } from 'vitest';
import { diffProfiles } from '../../../shared/diff/diff';
import type { FunctionChange } from '../../../shared/diff/repeats';
import { folded } from '../../../test/support/folded';
import { costPlusMinus, deltaWithInterval, formatDetectable, formatInterval, repeatsCount } from './repeats-format';
import { diffLegend } from './diff-colors';

const spread = { n: 5, mean: 0, sd: 0 };

describe('how changes across repeats read', () => {
  it('gives a delta with its interval, the unit once, and the smallest detectable change', async () => {
    const a = await folded('main;f 1');
    const d = diffProfiles(a, a, { normalize: 'absolute' });
    const f: FunctionChange = {
      key: 'f',
      base: spread,
      run: spread,
      delta: 1_490_000,
      interval: { low: 910_000, high: 2_070_000 },
      detectable: 350_000,
    };
    // folded stacks count samples; the same text in time (µs) reads in seconds
    const timed = { ...d, unit: 'microseconds' as const };
    expect(deltaWithInterval(timed, f)).toBe('+1.49 s (+0.91 to +2.07 s)');
    expect(formatInterval(timed, -20_000, 1_500_000)).toBe('−0.02 to +1.50 s');
    expect(formatInterval(timed, -2_000, 15_000)).toBe('−2.0 to +15.0 ms');
    expect(formatInterval(timed, 841_985, 878_364)).toBe('+842 to +878 ms');
    expect(formatDetectable(timed, f)).toBe('±350 ms');
    expect(deltaWithInterval(timed, { ...f, interval: undefined })).toBe('+1.49 s');
    const rel = diffProfiles(a, a, { normalize: 'relative' });
    expect(deltaWithInterval(rel, { ...f, delta: 0.0123, interval: { low: 0.004, high: 0.02 } })).toBe('+1.23 pp (+0.40 to +2.00 pp)');
  });

  it("gives the cost's interval as ± its wider side, as precise as the change, and says how many runs", () => {
    const total = { base: spread, run: spread, delta: 1, ratio: 2.59, ratioInterval: { low: 2.55, high: 2.63 } };
    expect(costPlusMinus(total)).toBe(' ± 4%');
    expect(costPlusMinus({ ...total, ratio: 0.052, ratioInterval: { low: 0.031, high: 0.07 } })).toBe(' ± 2.1%');
    expect(costPlusMinus({ ...total, ratioInterval: undefined })).toBe('');
    expect(repeatsCount({ baseline: 5, run: 5 })).toBe('5 runs each');
    expect(repeatsCount({ baseline: 5, run: 4 })).toBe('5 and 4 runs');
    expect(diffLegend('default', 'absolute', 'microseconds', '5 runs each').at(-1)!.label).toBe('unchanged, or within noise (5 runs each)');
    expect(diffLegend('default', 'absolute', 'microseconds').at(-1)!.label).toBe('unchanged (within noise)');
  });
});
