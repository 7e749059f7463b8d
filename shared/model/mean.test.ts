import { describe, expect, it } from 'vitest';
import { folded } from '../../test/support/folded';
import { meanProfile } from './mean';

describe('meanProfile', () => {
  it('lasts as long as the runs did on average, not as long as the first', async () => {
    const runs = [await folded('main;f 2', 'a'), await folded('main;f 4', 'b'), await folded('main;f 6', 'c')];
    [2, 3, 7].forEach((seconds, i) => {
      runs[i]!.meta.startTime = 1e6 * i;
      runs[i]!.meta.endTime = 1e6 * (i + seconds);
    });
    const mean = meanProfile('v', runs);
    expect(mean.tree.total[0]).toBeCloseTo(4);
    expect(mean.meta.startTime).toBe(0);
    expect(mean.meta.endTime! - mean.meta.startTime!).toBeCloseTo(4e6);
    delete runs[1]!.meta.endTime;
    expect(meanProfile('v', runs).meta.endTime).toBeUndefined();
  });
});
