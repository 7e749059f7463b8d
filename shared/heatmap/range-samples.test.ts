import { describe, expect, it } from 'vitest';
import { load } from '../../test/support/cpuprofile';
import { fixturePath } from '../../test/support/files';
import { idleNodes, rangeWeights, samplesInRange, weightsOfSamples } from './heatmap';
import { timeColumn } from '../model/sample-times';

/** Every non-idle sample taken in [t0, t1) seconds, found by looking at each one. */
function scan(time: Float64Array, node: Int32Array, idle: Uint8Array, t0: number, t1: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < time.length; i++) if (!idle[node[i]!] && time[i]! / 1e6 >= t0 && time[i]! / 1e6 < t1) out.push(i);
  return out;
}

describe('samples of a time range', () => {
  it('in a real capture (in time order), are those a look at every sample finds, ends included', async () => {
    const p = await load(fixturePath('samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile'));
    const s = p.samples!;
    const idle = idleNodes(p);
    const first = timeColumn(s)[0]! / 1e6;
    const last = timeColumn(s)[s.length - 1]! / 1e6;
    // ranges that start and end on a sample's own time, between samples, and beyond the run
    const ends = [first - 1, first, timeColumn(s)[10]! / 1e6, (timeColumn(s)[500]! + 1) / 1e6, timeColumn(s)[1500]! / 1e6, last, last + 1];
    for (const t0 of ends)
      for (const t1 of ends) {
        const found = scan(timeColumn(s), s.node, idle, t0, t1);
        expect([...samplesInRange(p, t0, t1, { idle })], `${t0}–${t1}`).toEqual(found);
        // the weights of the range, summed in one pass: the same numbers to the last bit
        expect(rangeWeights(p, t0, t1, { idle }), `${t0}–${t1}`).toEqual(weightsOfSamples(p, found));
      }
  });

  it('in a table with an unknown time (kept in recorded order), still looks at every sample', async () => {
    const p = await load(fixturePath('samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile'));
    const s = p.samples!;
    const time = timeColumn(s).slice();
    time[3] = NaN;
    // out of order after the unknown one: a search by halves would miss samples
    [time[100], time[2000]] = [time[2000]!, time[100]!];
    const q = { ...p, samples: { ...s, time } };
    const idle = idleNodes(p);
    const t0 = time[100]! / 1e6;
    const t1 = t0 + 0.002;
    expect([...samplesInRange(q, t0, t1, { idle })]).toEqual(scan(time, s.node, idle, t0, t1).filter((i) => !Number.isNaN(time[i])));
    expect(samplesInRange(q, t0, t1, { idle })).toContain(100);
    expect(rangeWeights(q, t0, t1, { idle }).sampleCount).toBe(samplesInRange(q, t0, t1, { idle }).length);
  });
});
