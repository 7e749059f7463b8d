import { describe, expect, it } from 'vitest';
import { measuredDetail, measuredText } from './measured';

describe('measured figures in words', () => {
  it('says requests, time, the overhead with the wider side of its interval, and how many runs', () => {
    expect(measuredText({ runs: 7, requests: 10_000, seconds: 2.4912, overhead: { median: 3.8249, low: 3.77, high: 3.88 } })).toBe(
      '10,000 requests in 2.49 s, +382% ± 6% vs baseline, 7 runs',
    );
    // the baseline has no overhead; small overheads keep a decimal
    expect(measuredText({ runs: 1, requests: 2000, seconds: 0.5 })).toBe('2,000 requests in 0.50 s, 1 run');
    expect(measuredText({ runs: 3, requests: 2000, seconds: 0.5, overhead: { median: -0.042, low: -0.05, high: -0.01 } })).toBe(
      '2,000 requests in 0.50 s, −4.2% ± 3.2% vs baseline, 3 runs',
    );
    expect(measuredDetail({ runs: 3, requests: 2000, seconds: 0.5, overhead: { median: 0.2, low: 0.1, high: 0.35 } })).toBe(
      'measured under load without profilers: medians of 3 timed runs; overhead 95% interval +10% to +35%',
    );
  });
});
