import { describe, expect, it } from 'vitest';
import { heatmap, rangeWeights, selectionWeights } from '../heatmap/heatmap';
import { importProfile } from '../import/import-profile';
import { compileQuery, matchFrames, matchShare } from '../search/matcher';
import { fileSource, fixturePath } from '../../test/support/files';
import { CallTreeBuilder, FrameTableBuilder, finishProfile } from './builders';
import { checkProfile } from './integrity';
import { sampleDurations, timeOrder } from './sample-time';
import { addRangeWeights, sampleWeightReader, sampleWeights } from './sample-weights';
import type { FormatId, Profile, SampleTable, Unit } from './types';
import { defaultWeighing, weighByDefault, weighProfile, weighable } from './weigh';
import { timeColumn } from './sample-times';

/**
 * Samples of `main;a` and `main;b` at the given times (µs), in the order given: `a` at even
 * positions, `b` at odd ones.
 */
function sampled(times: number[], format: FormatId = 'cpuprofile'): Profile {
  const frames = new FrameTableBuilder();
  const tree = new CallTreeBuilder();
  const main = frames.intern({ name: 'main', file: '/app/main.js', line: 1 });
  const a = tree.child(tree.child(tree.root, main), frames.intern({ name: 'a', file: '/app/main.js', line: 2 }));
  const b = tree.child(tree.child(tree.root, main), frames.intern({ name: 'b', file: '/app/main.js', line: 3 }));
  times.forEach((t, i) => tree.addSample(i % 2 === 0 ? a : b, 1, t));
  return finishProfile({ name: 'x', format, kind: 'sampled', unit: 'samples', frames, tree, meta: { producer: 'test', warnings: [] } });
}

const nodeOf = (p: Profile, name: string) => Array.from(p.tree.frame).findIndex((f) => f >= 0 && p.frames.name[f] === name);

describe('samples in time order', () => {
  it('are sorted stably by the builder, whatever order they were added in', () => {
    // a at 0, b at 30, a at 10, b at 10 (recorded after a at 10: ties keep that order)
    const p = sampled([0, 30, 10, 10]);
    const s = p.samples!;
    expect(Array.from(timeColumn(s))).toEqual([0, 10, 10, 30]);
    const a = nodeOf(p, 'a');
    const b = nodeOf(p, 'b');
    expect(Array.from(s.node)).toEqual([a, a, b, b]);
    expect(checkProfile(p)).toEqual([]);
  });

  it('keep the recorded order when a time is unknown', () => {
    expect(timeOrder([3, NaN, 1])).toBeUndefined();
    expect(timeOrder([1, 2, 2, 5])).toBeUndefined();
    expect(Array.from(timeOrder([5, 1, 5, 0])!)).toEqual([3, 1, 0, 2]);
  });
});

describe('sample durations', () => {
  it('last until the next sample, the last one the mean interval', () => {
    const p = sampled([100, 110, 140, 160]);
    // mean interval (160 − 100) / 3 = 20
    expect(Array.from(sampleDurations(p.samples!))).toEqual([10, 30, 20, 20]);
  });
});

describe('weighProfile', () => {
  it('weighs samples by time and back to counts, the tree summed from the samples', () => {
    const p = sampled([100, 110, 140, 160]);
    const t = weighProfile(p, 'time');
    expect(t.unit).toBe('microseconds');
    expect(checkProfile(t)).toEqual([]);
    // a: 10 + 20; b: 30 + 20; the run: its 60 µs span plus one mean interval
    expect(t.tree.self[nodeOf(t, 'a')]).toBe(30);
    expect(t.tree.self[nodeOf(t, 'b')]).toBe(50);
    expect(t.tree.total[0]).toBe(80);
    expect(Array.from(sampleWeights(t.samples!, t.unit))).toEqual([10, 30, 20, 20]);
    // the durations follow from the times: the table stores none
    expect(t.samples!.weight).toBeUndefined();
    // the profile weighed is left as it was
    expect(p.unit).toBe('samples');
    expect(p.tree.total[0]).toBe(4);

    const back = weighProfile(t, 'samples');
    expect(back.unit).toBe('samples');
    expect(Array.from(back.tree.self)).toEqual(Array.from(p.tree.self));
    expect(Array.from(back.tree.total)).toEqual(Array.from(p.tree.total));
    expect(weighProfile(t, 'time')).toBe(t);
  });

  it('weighs V8 formats by time by default, and leaves others as they are', () => {
    for (const f of ['cpuprofile', 'trace-events', '0x'] as const) expect(defaultWeighing(sampled([1, 2, 4], f))).toBe('time');
    // perf script interleaves threads: the gap to the next line is not a sample's duration
    const perf = sampled([1, 2, 4], 'perf-script');
    expect(defaultWeighing(perf)).toBe('samples');
    expect(weighByDefault(perf)).toBe(perf);
    // no times: nothing to weigh with
    const untimed = sampled([NaN, NaN]);
    expect(weighable(untimed, 'time')).toBe(false);
    expect(weighProfile(untimed, 'time')).toBe(untimed);
  });

  it('keeps time ranges, heatmap cells and search shares adding up on a real run', async () => {
    const path = fixturePath('samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile');
    const p = weighByDefault(await importProfile(fileSource(path)));
    expect(p.unit).toBe('microseconds');
    expect(checkProfile(p)).toEqual([]);
    const s = p.samples!;
    // the whole run as a range, idle included, is the whole tree
    const all = rangeWeights(p, timeColumn(s)[0]! / 1e6, timeColumn(s)[s.length - 1]! / 1e6 + 1, { includeIdle: true });
    expect(all.total[0]).toBeCloseTo(p.tree.total[0]!, 3);
    // two halves add up to the whole
    const mid = timeColumn(s)[s.length >> 1]! / 1e6;
    const first = rangeWeights(p, 0, mid, { includeIdle: true });
    const second = rangeWeights(p, mid, Infinity, { includeIdle: true });
    expect(first.total[0]! + second.total[0]!).toBeCloseTo(p.tree.total[0]!, 3);
    // the heatmap counts samples, whatever the weights; its cells select the same time
    const hm = heatmap(p, { includeIdle: true });
    expect(hm.sampleCount).toBe(s.length);
    const cells = selectionWeights(p, hm, { column: 0, row: hm.rows - 1 }, { column: hm.columns - 1, row: 0 });
    expect(cells.total[0]).toBeCloseTo(p.tree.total[0]!, 3);
    // a search share is a share of time, the same whether the weights come from the tree or the range
    const m = matchFrames(p, compileQuery('dd-trace')!.match);
    expect(matchShare(p, m).inclusive).toBeCloseTo(matchShare(p, m, all.self).inclusive, 9);
  });
});

describe('weights that follow from the unit', () => {
  it('are stored nowhere, and are what the explicit columns held', () => {
    for (const times of [[0, 10, 25, 45, 70], [0, 10, NaN, 30], [5], [40, 10, 10, 25]]) {
      const p = sampled(times);
      expect(p.samples!.weight).toBeUndefined();
      const got = weighByDefault(p);
      expect(got.samples!.weight).toBeUndefined();
      const s = got.samples!;
      // the tree as explicit per-sample weights sum it
      const weights = got.unit === 'microseconds' ? sampleDurations(s) : new Float64Array(s.length).fill(1);
      expect(Array.from(sampleWeights(s, got.unit))).toEqual(Array.from(weights));
      const self = new Float64Array(got.tree.length);
      for (let i = 0; i < s.length; i++) self[s.node[i]!]! += weights[i]!;
      expect(Array.from(got.tree.self)).toEqual(Array.from(self));
      expect(checkProfile(got)).toEqual([]);
    }
  });

  it('a table whose weights do not follow from its unit keeps them (perf periods)', () => {
    const p = sampled([0, 10, 20], 'perf-script');
    expect(weighByDefault(p)).toBe(p);
    expect(checkProfile({ ...p, unit: 'nanoseconds' })).toContain('samples in nanoseconds without their weights');
  });
});

describe('one sample weight at a time', () => {
  it('reads what the whole column would hold, without the column', () => {
    const time = Float64Array.from([0, 10, 40, NaN, 70, 90, 95]);
    const tables: [SampleTable, Unit][] = [
      [{ length: 7, node: new Int32Array(7), time }, 'microseconds'],
      [{ length: 3, node: new Int32Array(3), time: Float64Array.from([0, 5, NaN]) }, 'microseconds'],
      [{ length: 7, node: new Int32Array(7), time }, 'samples'],
      [{ length: 7, node: new Int32Array(7), time, thread: Int32Array.from([0, 1, 0, 1, 0, 1, 0]) }, 'microseconds'],
      [{ length: 7, node: new Int32Array(7), time, weight: Float64Array.from([3, 1, 4, 1, 5, 9, 2]) }, 'nanoseconds'],
    ];
    for (const [s, unit] of tables) {
      const read = sampleWeightReader(s, unit);
      expect(Array.from({ length: s.length }, (_, i) => read(i))).toEqual(Array.from(sampleWeights(s, unit)));
    }
  });
});

describe('a range of samples added to their nodes', () => {
  it('adds what the column would give, the last sample and skipped nodes included', () => {
    const time = Float64Array.from([0, 10, 40, NaN, 70, 90, 95]);
    const node = Int32Array.from([1, 2, 1, 3, 2, 1, 2]);
    const tables: [SampleTable, Unit][] = [
      [{ length: 7, node, time }, 'microseconds'],
      [{ length: 7, node, time }, 'samples'],
      [{ length: 7, node, time, thread: Int32Array.from([0, 1, 0, 1, 0, 1, 0]) }, 'microseconds'],
    ];
    const skip = Uint8Array.from([0, 0, 1, 0]);
    for (const [s, unit] of tables)
      for (const [from, to] of [
        [0, 7],
        [2, 5],
        [5, 7],
        [6, 7],
        [3, 3],
      ] as const)
        for (const sk of [undefined, skip]) {
          const want = new Float64Array(4);
          const all = sampleWeights(s, unit);
          let n = 0;
          for (let i = from; i < to; i++)
            if (!sk?.[node[i]!]) {
              want[node[i]!]! += all[i]!;
              n++;
            }
          const got = new Float64Array(4);
          expect(addRangeWeights(s, unit, from, to, got, sk)).toBe(n);
          expect(Array.from(got)).toEqual(Array.from(want));
        }
  });
});
