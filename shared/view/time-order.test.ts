import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { idleNodes } from '../heatmap/heatmap';
import type { Profile } from '../model/types';
import { load } from '../../test/support/cpuprofile';
import { fixturePath } from '../../test/support/files';
import { type ChartBox, LATE, type TimeAxis, boxExtent, chartBoxes, hasTimeAxis, sampleAt, sampleSpan, timeAxis } from './time-order';

const AGENT = fixturePath('samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile');
const AGENT_PERF = fixturePath('samples/ddtrace/perf.script.txt');
const FUNCAB = fixturePath('corpus/FlameGraph/test/perf-funcab-cmd-01.txt');

/**
 * The samples of a perf script file read straight from its text: each sample's header line's
 * timestamp (µs, from its digits) and period (µs; NaN where the line has none), in time order.
 */
function rawPerfSamples(path: string): { t: number; period: number }[] {
  const out: { t: number; period: number }[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /\s(\d+)\.(\d{6}):\s+(?:(\d+)\s+)?[\w-]+:/.exec(line);
    if (!m || /^\s/.test(line)) continue;
    out.push({ t: Number(m[1]) * 1e6 + Number(m[2]), period: m[3] === undefined ? NaN : Number(m[3]) / 1000 });
  }
  // stable: samples of one instant keep their order in the file
  return out.map((x, i) => ({ ...x, i })).sort((a, b) => a.t - b.t || a.i - b.i);
}

/** µs to a thousandth (the last sample's mean interval is a fraction, summed in another order). */
const us = (t: number) => (Math.round(t * 1000) / 1000).toFixed(3);

interface RawNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

/**
 * The flame chart read straight from the .cpuprofile's JSON: samples at startTime plus the running
 * sum of timeDeltas, put in time order (stably), each lasting until the next (the last the mean
 * interval); at each depth, consecutive non-idle samples with the same frames down to that depth
 * are one box. Boxes as "depth x0 x1 path" (µs from startTime), sorted.
 */
function rawChart(path: string): { boxes: string[]; span: number } {
  const prof = JSON.parse(readFileSync(path, 'utf8')) as { nodes: RawNode[]; samples: number[]; timeDeltas: number[]; startTime: number };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // V8 leaves an anonymous function's name empty
  const label = (n: RawNode) =>
    `${n.callFrame.functionName || '(anonymous)'}@${n.callFrame.url}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`;
  const stackOf = (id: number) => {
    const s: string[] = [];
    for (let v: number | undefined = id; v !== undefined && parent.has(v); v = parent.get(v)) s.push(label(byId.get(v)!));
    return s.reverse();
  };
  let clock = prof.startTime;
  const times = prof.timeDeltas.map((d) => (clock += d));
  const order = times.map((_, i) => i).sort((a, b) => times[a]! - times[b]! || a - b);
  const n = order.length;
  const mean = (times[order[n - 1]!]! - times[order[0]!]!) / (n - 1);
  const samples = order.map((i, k) => {
    const id = prof.samples[i]!;
    const idle = byId.get(id)!.callFrame.functionName === '(idle)';
    const t0 = times[i]! - prof.startTime;
    const t1 = (k + 1 < n ? times[order[k + 1]!]! : times[i]! + mean) - prof.startTime;
    return { stack: idle ? [] : stackOf(id), t0, t1, idle };
  });
  const boxes: string[] = [];
  const depth = Math.max(...samples.map((s) => s.stack.length));
  for (let d = 1; d <= depth; d++) {
    let open: { key: string; t0: number; t1: number } | undefined;
    const close = () => open && boxes.push(`${d} ${us(open.t0)} ${us(open.t1)} ${open.key}`);
    for (const s of samples) {
      const key = s.stack.length >= d ? s.stack.slice(0, d).join(' > ') : undefined;
      if (open && key === open.key && s.t0 === open.t1) open.t1 = s.t1;
      else {
        close();
        open = key === undefined ? undefined : { key, t0: s.t0, t1: s.t1 };
      }
    }
    close();
  }
  return { boxes: boxes.sort(), span: samples[n - 1]!.t1 };
}

/** A box as `rawChart` writes it: its frames from the root down to its depth. */
function described(p: Profile, b: Pick<ChartBox, 'depth' | 'node' | 'x0' | 'x1'>): string {
  const names: string[] = [];
  for (let v = b.node; v > 0; v = p.tree.parent[v]!) {
    const f = p.tree.frame[v]!;
    names.push(`${p.frames.name[f]}@${p.frames.file[f]}:${p.frames.line[f]! - 1}:${p.frames.column[f]! - 1}`);
  }
  return `${b.depth} ${us(b.x0)} ${us(b.x1)} ${names.reverse().join(' > ')}`;
}

async function agentAxis(): Promise<{ p: Profile; a: TimeAxis }> {
  const p = await load(AGENT);
  const a = timeAxis(p, idleNodes(p));
  if (!hasTimeAxis(a)) throw new Error(a.reason);
  return { p, a };
}

describe('the time-order chart of a real .cpuprofile', () => {
  it('zoomed in to single samples, draws exactly the boxes read from the raw file, at the times it gives', async () => {
    const { p, a } = await agentAxis();
    const raw = rawChart(AGENT);
    expect(raw.boxes.length).toBeGreaterThan(5000);
    expect(a.span).toBeCloseTo(raw.span, 6);
    // as many columns as samples or more: every sample is its own stretch
    const boxes = chartBoxes(a, 0, a.span, a.node.length * 2);
    const drawn = boxes.map((b) => described(p, b)).sort();
    // compared as sets (a path is long): what each has that the other lacks
    const rawSet = new Set(raw.boxes);
    const drawnSet = new Set(drawn);
    const short = (x: string) => x.slice(0, 40) + ' … ' + x.slice(-60);
    expect(
      drawn
        .filter((x) => !rawSet.has(x))
        .map(short)
        .slice(0, 5),
    ).toEqual([]);
    expect(
      raw.boxes
        .filter((x) => !drawnSet.has(x))
        .map(short)
        .slice(0, 5),
    ).toEqual([]);
    expect(drawn.length).toBe(raw.boxes.length);
  });

  it('zoomed out to 400 columns: boxes nest in their callers, never overlap, and stand for the stack sampled at their columns', async () => {
    const { p, a } = await agentAxis();
    const columns = 400;
    const w = a.span / columns;
    const boxes = chartBoxes(a, 0, a.span, columns);
    expect(boxes.length).toBeLessThan(columns * 60);
    const byDepth = new Map<number, ChartBox[]>();
    for (const b of boxes) byDepth.set(b.depth, [...(byDepth.get(b.depth) ?? []), b]);
    for (const [depth, row] of byDepth) {
      row.sort((x, y) => x.x0 - y.x0);
      for (let i = 1; i < row.length; i++) expect(row[i]!.x0).toBeGreaterThanOrEqual(row[i - 1]!.x1);
      for (const b of row) {
        // a whole number of columns wide
        expect(Math.round((b.x1 - b.x0) / w)).toBeGreaterThanOrEqual(1);
        // the sample at the middle of each of its columns has this node on its stack
        for (let x = b.x0 + w / 2; x < b.x1; x += w) {
          const leaf = a.node[sampleAt(a, x)]!;
          expect(leaf >= b.node && leaf < p.tree.end[b.node]!).toBe(true);
        }
      }
      if (depth === 1) continue;
      for (const b of row) {
        const up = byDepth.get(depth - 1)!.find((u) => u.x0 <= b.x0 && u.x1 >= b.x1);
        expect(up?.node).toBe(p.tree.parent[b.node]);
      }
    }
  });

  it('down to a depth, draws the same boxes there as the whole chart', async () => {
    const { a } = await agentAxis();
    for (const [t0, t1, columns] of [
      [0, a.span, 400],
      [a.span * 0.4, a.span * 0.45, 1600],
    ] as const) {
      const all = chartBoxes(a, t0, t1, columns);
      expect(chartBoxes(a, t0, t1, columns, 6)).toEqual(all.filter((b) => b.depth <= 6));
    }
  });

  it("finds a box's exact span from one of its samples, whatever the zoom", async () => {
    const { p, a } = await agentAxis();
    const exact = new Map(chartBoxes(a, 0, a.span, a.node.length * 2).map((b) => [`${b.node} ${b.sample}`, b]));
    let checked = 0;
    for (const b of chartBoxes(a, 0, a.span, 300)) {
      const e = boxExtent(a, b.node, b.sample);
      // the exact box that holds this sample at this node
      const match = [...exact.values()].find((x) => x.node === b.node && x.x0 <= e.x0 + 1e-6 && x.x1 >= e.x1 - 1e-6);
      expect(match && [match.x0, match.x1], described(p, b)).toEqual([e.x0, e.x1]);
      if (++checked === 200) break;
    }
    expect(checked).toBe(200);
  });
});

async function axisOf(path: string): Promise<{ p: Profile; a: TimeAxis }> {
  const p = await load(path);
  const a = timeAxis(p, idleNodes(p));
  if (!hasTimeAxis(a)) throw new Error(a.reason);
  return { p, a };
}

describe('the time-order chart of a perf capture', () => {
  it('draws a cpu-clock sample one period long where the next comes more than 1.5 periods later, else until the next: as read from the raw file', async () => {
    const { a } = await axisOf(AGENT_PERF);
    const raw = rawPerfSamples(AGENT_PERF);
    expect(raw.length).toBe(267);
    expect(a.node.length).toBe(raw.length);
    const n = raw.length;
    const mean = (raw[n - 1]!.t - raw[0]!.t) / (n - 1);
    let gaps = 0;
    for (let i = 0; i < n; i++) {
      const { t, period } = raw[i]!;
      let end: number;
      if (i === n - 1) end = t + Math.min(mean, period);
      else if (raw[i + 1]!.t - t > LATE * period) {
        end = t + period;
        gaps++;
      } else end = raw[i + 1]!.t;
      const [x0, x1] = sampleSpan(a, i);
      expect(x0 + a.origin, String(i)).toBeCloseTo(t, 3);
      expect(x1 + a.origin, String(i)).toBeCloseTo(end, 3);
    }
    // the main thread sleeps between bursts: 4 s without a sample
    expect(gaps).toBeGreaterThan(0);
  });

  it('draws nothing where the process slept, and no box spans a gap', async () => {
    const { a } = await axisOf(AGENT_PERF);
    const raw = rawPerfSamples(AGENT_PERF);
    // the longest stretch without a sample, from the raw file
    let at = 0;
    for (let i = 1; i < raw.length; i++) if (raw[i]!.t - raw[i - 1]!.t > raw[at + 1]!.t - raw[at]!.t) at = i - 1;
    const sleepFrom = raw[at]!.t + raw[at]!.period - a.origin;
    const sleepTo = raw[at + 1]!.t - a.origin;
    expect(sleepTo - sleepFrom).toBeGreaterThan(3e6);
    for (const columns of [300, 2000, a.node.length * 2]) {
      const boxes = chartBoxes(a, 0, a.span, columns);
      expect(boxes.length).toBeGreaterThan(0);
      // (a column is drawn whole: a box may reach into the gap by less than one)
      const slack = a.span / columns;
      expect(boxes.filter((b) => b.x1 > sleepFrom + slack && b.x0 < sleepTo - slack)).toEqual([]);
    }
    // the sample before the sleep is a box of its own, one period long
    const before = chartBoxes(a, 0, a.span, a.node.length * 2).filter((b) => b.sample === at && b.depth === 1);
    expect(before).toHaveLength(1);
    expect(boxExtent(a, before[0]!.node, at).x1).toBeCloseTo(sleepFrom, 3);
  });

  it("without periods, takes the usual interval between a thread's samples: a sample a little late still continues the stack", async () => {
    const { a } = await axisOf(FUNCAB);
    const raw = rawPerfSamples(FUNCAB);
    expect(raw.every((x) => Number.isNaN(x.period))).toBe(true);
    const gaps = raw.slice(1).map((x, i) => x.t - raw[i]!.t);
    const median = [...gaps].sort((x, y) => x - y)[gaps.length >> 1]!;
    expect(a.period?.(0)).toBeCloseTo(median, 3);
    // every interval of this capture is under 1.5 of the usual one: drawn as the chart without periods draws it
    expect(Math.max(...gaps)).toBeLessThan(LATE * median);
    const plain: TimeAxis = { ...a, period: undefined };
    for (const columns of [200, a.node.length * 2])
      expect(chartBoxes(a, 0, a.span, columns)).toEqual(chartBoxes(plain, 0, a.span, columns));
  });

  it('leaves the samples of V8 profiles as they are: each lasts until the next', async () => {
    const { a } = await agentAxis();
    expect(a.period).toBeUndefined();
  });
});

describe('runs without times', () => {
  it('says why a heap profile and a file of spans have no chart', async () => {
    const heap = await load(fixturePath('samples/ddtrace/Heap.20261121.233100.6609.0.001.heapprofile'));
    expect(timeAxis(heap, idleNodes(heap))).toEqual({ reason: 'no times: allocations are not samples in time' });
  });
});

describe('the sample at a time', () => {
  it('is the last one that starts at or before it, on samples and between them, at a steady rate or not', async () => {
    const { a } = await agentAxis();
    // the real capture, and the same with a long pause in the middle (half the samples 10 s later)
    const n = a.node.length;
    const real = Float64Array.from({ length: n }, (_, i) => a.time(i));
    const paused = real.map((t, i) => (i < n / 2 ? t : t + 10e6));
    for (const [axis, time] of [
      [a, real],
      [{ ...a, time: (i: number) => paused[i]! }, paused],
    ] as const) {
      const last = (t: number) => {
        let found = -1;
        for (let i = 0; i < n; i++) if (time[i]! - axis.origin <= t) found = i;
        return found;
      };
      const times = [
        -1,
        0,
        ...[0, 1, 7, 500, 1141, 1142, 2000, 2282].flatMap((i) => [time[i]! - axis.origin, time[i]! - axis.origin + 0.5]),
        1e9,
      ];
      for (const t of times) expect(sampleAt(axis, t), String(t)).toBe(last(t));
    }
  });
});
