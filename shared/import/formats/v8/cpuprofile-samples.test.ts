/**
 * Samples read into the call tree as they arrive (nodes first, as V8 writes them) against the
 * same file with its samples first, which is read whole: the same profile, warnings included.
 * And the times and weights a real capture's samples get, sample for sample, from its raw `timeDeltas`.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixturePath, scribblingSource } from '../../../../test/support/files';
import { collapse } from '../../../model/collapse';
import { sampleWeights } from '../../../model/sample-weights';
import { weighByDefault } from '../../../model/weigh';
import { importProfile } from '../../import-profile';
import { bytesSource } from '../../io/source';
import { ImportError } from '../../errors';
import { timeColumn } from '../../../model/sample-times';
import type { Profile } from '../../../model/types';
import { fineDensity } from '../../../heatmap/heatmap';
import { idleNodes } from '../../../heatmap/idle';
import { rangeWeights, samplesInRange } from '../../../heatmap/range';
import { type TimeAxis, chartBoxes, timeAxis } from '../../../view/time-order';

const importText = (text: string, samples = true) =>
  importProfile(bytesSource('t.cpuprofile', text, 64), samples ? {} : { options: { samples: false } });

/**
 * The profile with its sample times in one Float64 column, whichever form the table keeps them
 * in: samples read as they arrive keep theirs small (model/sample-times), the whole-file reading
 * as Float64; the values are what is compared.
 */
function plainTimes(p: Profile): Profile {
  const s = p.samples;
  if (!s) return p;
  const { timeBase: _b, timeOffset: _o, timeWide: _w, ...rest } = s;
  return { ...p, samples: { ...rest, time: timeColumn(s) } };
}

interface Shape {
  nodes: { id: number; callFrame: object; children: number[] }[];
  startTime?: number;
  samples: number[];
  timeDeltas: number[];
}

/** Nodes 1…n as a chain of children, samples naming them (some ids unknown), deltas of any sign. */
const shapes: fc.Arbitrary<Shape> = fc
  .record({
    n: fc.integer({ min: 1, max: 8 }),
    startTime: fc.option(fc.integer({ min: -5, max: 1e9 }), { nil: undefined }),
    samples: fc.array(fc.integer({ min: 0, max: 10 }), { maxLength: 40 }),
    deltas: fc.array(fc.oneof(fc.integer({ min: -50, max: 2000 }), fc.double({ min: -10, max: 100, noNaN: true })), { maxLength: 45 }),
  })
  .map(({ n, startTime, samples, deltas }) => ({
    nodes: Array.from({ length: n }, (_, i) => ({
      id: i + 1,
      callFrame: { functionName: `f${i}`, scriptId: '1', url: 'a.js', lineNumber: i, columnNumber: 0 },
      children: i + 1 < n ? [i + 2] : [],
    })),
    ...(startTime === undefined ? {} : { startTime }),
    samples,
    timeDeltas: deltas,
  }));

/** The file as V8 orders it (read as it arrives), and with its samples first (read whole). */
function bothOrders(s: Shape): [string, string] {
  const { nodes, samples, timeDeltas } = s;
  const start = s.startTime === undefined ? {} : { startTime: s.startTime };
  return [JSON.stringify({ nodes, ...start, samples, timeDeltas }), JSON.stringify({ samples, timeDeltas, ...start, nodes })];
}

describe('.cpuprofile samples read as they arrive', () => {
  it('give the profile the whole-file reading gives, warnings and all', async () => {
    await fc.assert(
      fc.asyncProperty(shapes, fc.boolean(), async (shape, keep) => {
        const [streamed, whole] = bothOrders(shape);
        expect(plainTimes(await importText(streamed, keep))).toEqual(plainTimes(await importText(whole, keep)));
      }),
      { numRuns: 300 },
    );
  });

  it('take a startTime that comes after the deltas as the whole-file reading does', async () => {
    const shape = {
      nodes: [{ id: 1, callFrame: { functionName: 'a', url: 'a.js' }, children: [] }],
      samples: [1, 1, 1],
      timeDeltas: [5, -2, 7],
    };
    const late = JSON.stringify({ ...shape, startTime: 1000 });
    const first = JSON.stringify({ samples: shape.samples, startTime: 1000, timeDeltas: shape.timeDeltas, nodes: shape.nodes });
    expect(plainTimes(await importText(late))).toEqual(plainTimes(await importText(first)));
    expect(Array.from(timeColumn((await importText(late)).samples!))).toEqual([1003, 1005, 1010]);
  });

  it('give every piece of the file back to its source once read, and read the same from pieces read into again', async () => {
    const text = readFileSync(fixturePath('samples/ddtrace', 'CPU.20261121.233052.6494.0.001.cpuprofile'), 'utf8');
    const bytes = new TextEncoder().encode(text);
    const size = 4096;
    const { source: src, given } = scribblingSource('t.cpuprofile', bytes, size);
    const p = await importProfile(src);
    expect(plainTimes(p)).toEqual(plainTimes(await importText(text)));
    expect(given.size).toBeGreaterThan(bytes.length / size - 20);
  });

  it('refuse nodes that come after the samples, naming the file', async () => {
    const text = '{"nodes":[{"id":1,"callFrame":{"functionName":"a"}}],"samples":[1],"nodes":[{"id":2,"callFrame":{"functionName":"b"}}]}';
    await expect(importText(text)).rejects.toThrow(ImportError);
    await expect(importText(text)).rejects.toThrow(/t\.cpuprofile.*a node comes after the samples/);
  });

  it("give a real capture's samples the times its timeDeltas add up to, sample for sample", async () => {
    const path = fixturePath('samples/ddtrace', 'CPU.20261121.233052.6494.0.001.cpuprofile');
    const text = readFileSync(path, 'utf8');
    const raw = JSON.parse(text) as { startTime: number; samples: number[]; timeDeltas: number[] };
    const p = await importText(text);
    const s = p.samples!;
    let t = raw.startTime;
    const times = raw.timeDeltas.map((d) => (t += d));
    // The model keeps samples in time order, stably (V8 records a few out of order).
    const order = times.map((_, i) => i).sort((a, b) => times[a]! - times[b]! || a - b);
    expect(s.length).toBe(raw.samples.length);
    const time = timeColumn(s);
    for (let i = 0; i < s.length; i++) {
      expect(time[i]).toBe(times[order[i]!]);
      expect(p.frames.name[p.tree.frame[s.node[i]!]!]).toBeDefined();
    }
    // Weighed by time, as the app weighs it: each sample lasts until the next, the last the mean
    // interval; the weights are worked out from the times, none stored.
    const timed = weighByDefault(p);
    expect(timed.unit).toBe('microseconds');
    expect(timed.samples!.weight).toBeUndefined();
    const w = sampleWeights(timed.samples!, timed.unit);
    const sorted = order.map((i) => times[i]!);
    const n = sorted.length;
    const self = new Float64Array(p.tree.length);
    for (let i = 0; i < n; i++) {
      const expected = i + 1 < n ? sorted[i + 1]! - sorted[i]! : (sorted[n - 1]! - sorted[0]!) / (n - 1);
      expect(w[i]).toBe(expected);
      self[s.node[i]!]! += expected;
    }
    expect(Array.from(timed.tree.self)).toEqual(Array.from(self));
    // The command reads no sample table, and its tree weighs the same.
    const noTable = await importText(text, false);
    expect(noTable.samples).toBeUndefined();
    expect(collapse(noTable)).toEqual(collapse(p));
  });

  it("keep a long capture's times in 4 bytes a sample, giving every reader the times its timeDeltas add up to", async () => {
    // the real capture repeated past three blocks of 65,536 samples, each copy a mean interval after the last
    const path = fixturePath('samples/ddtrace', 'CPU.20261121.233052.6494.0.001.cpuprofile');
    const raw = JSON.parse(readFileSync(path, 'utf8')) as { nodes: unknown[]; startTime: number; samples: number[]; timeDeltas: number[] };
    const copies = Math.ceil((3 * 65536 + 100) / raw.samples.length);
    const gap = Math.round((raw.timeDeltas.reduce((a, d) => a + d, 0) - raw.timeDeltas[0]!) / (raw.samples.length - 1));
    const deltas = Array.from({ length: copies }, (_, k) => (k === 0 ? raw.timeDeltas : [gap, ...raw.timeDeltas.slice(1)])).flat();
    const samples = Array.from({ length: copies }, () => raw.samples).flat();
    const text = JSON.stringify({ nodes: raw.nodes, startTime: raw.startTime, samples, timeDeltas: deltas });
    const p = weighByDefault(await importText(text));
    const s = p.samples!;
    expect(s.time).toBeUndefined();
    expect(s.timeOffset!.length).toBe(samples.length);
    expect(s.timeBase!.length).toBe(Math.ceil(samples.length / 65536));
    // the same table with its times as Float64, added up from the raw deltas (in time order: none is negative)
    expect(deltas.every((d) => d >= 0)).toBe(true);
    let t = raw.startTime;
    const plain: Profile = { ...p, samples: { length: s.length, node: s.node, time: Float64Array.from(deltas, (d) => (t += d)) } };
    expect(Object.is(timeColumn(s)[s.length - 1], t)).toBe(true);
    expect(timeColumn(s)).toEqual(plain.samples!.time);
    // weights, a time range, the timeline's density, the time-order chart: as from the raw times
    expect(sampleWeights(s, p.unit)).toEqual(sampleWeights(plain.samples!, p.unit));
    const [t0, t1] = [(raw.startTime + 1e6) / 1e6, (t - 5e6) / 1e6];
    expect(rangeWeights(p, t0, t1)).toEqual(rangeWeights(plain, t0, t1));
    expect([...samplesInRange(p, t0, t1)]).toEqual([...samplesInRange(plain, t0, t1)]);
    expect(fineDensity(p)).toEqual(fineDensity(plain));
    const [a, b] = [p, plain].map((x) => timeAxis(x, idleNodes(x)) as TimeAxis);
    for (const [from, to, columns] of [
      [0, a!.span, 4000],
      [1e6, 1.2e6, 800],
    ] as const) {
      const boxes = chartBoxes(a!, from, to, columns);
      expect(boxes.length).toBeGreaterThan(100);
      expect(boxes).toEqual(chartBoxes(b!, from, to, columns));
    }
    expect(rangeWeights(p, t0, t1).sampleCount).toBeGreaterThan(150_000);
  });
});
