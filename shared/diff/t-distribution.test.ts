import { describe, expect, it } from 'vitest';
import { loadTDistribution, loadedTDistribution } from './t-distribution';

describe('the t distribution, loaded on demand', () => {
  it('is not there until loaded, then gives the textbook values', async () => {
    expect(loadedTDistribution()).toBeUndefined();
    const pending = loadTDistribution();
    // one load, however many ask
    expect(loadTDistribution()).toBe(pending);
    const t = await pending;
    expect(loadedTDistribution()).toBe(t);
    // two-sided 95% critical values (tables of Student's t): df 1, 10, 30
    expect(t.quantile(0.975, 1)).toBeCloseTo(12.7062, 4);
    expect(t.quantile(0.975, 10)).toBeCloseTo(2.2281, 4);
    expect(t.quantile(0.975, 30)).toBeCloseTo(2.0423, 4);
    expect(t.cdf(-2.2281388519649385, 10)).toBeCloseTo(0.025, 10);
    expect(t.cdf(0, 7.3)).toBe(0.5);
  });
});
