import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { load } from '../../test/support/cpuprofile';
import { fixturePath } from '../../test/support/files';
import { comparability } from './comparable';

/** perf script's mean period of cpu-clock samples in ms, read from the text (`… 1001001 cpu-clock:`). */
function periodMs(text: string): number {
  const periods = [...text.matchAll(/ (\d+) cpu-clock:/g)].map((m) => Number(m[1]));
  return periods.reduce((x, y) => x + y, 0) / periods.length / 1e6;
}

describe('whether two runs compare', () => {
  it('names the intervals of a run sampled at 99 Hz against the same load at 999 Hz, and nothing else', async () => {
    const slow = fixturePath('samples/baseline/perf.script.txt');
    const fast = fixturePath('samples/baseline/perf.F999.script.txt.gz');
    const a = periodMs(readFileSync(slow, 'utf8'));
    const b = periodMs(gunzipSync(readFileSync(fast)).toString('utf8'));
    const w = comparability(await load(slow), await load(fast), 'absolute');
    expect(w).toEqual([expect.stringContaining(`sampled at different intervals (${a.toFixed(2)} ms and ${b.toFixed(2)} ms)`)]);
  });

  it('finds nothing to say of the baseline and dd-trace runs, which were sampled alike under the same load', async () => {
    const base = await load(fixturePath('samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile'));
    const run = await load(fixturePath('samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile'));
    expect(comparability(base, run, 'absolute')).toEqual([]);
  });

  it('says when runs lasted more than twice as long as each other, under absolute comparison only', async () => {
    const base = await load(fixturePath('samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile'));
    const longer = { ...base, meta: { ...base.meta, endTime: base.meta.startTime! + (base.meta.endTime! - base.meta.startTime!) * 3 } };
    expect(comparability(base, longer, 'absolute')).toEqual([expect.stringMatching(/^the runs lasted [\d.]+ s and [\d.]+ s/)]);
    expect(comparability(base, longer, 'relative')).toEqual([]);
  });
});
