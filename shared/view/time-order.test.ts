import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { idleNodes } from '../heatmap/heatmap';
import type { Profile } from '../model/types';
import { load } from '../../test/support/cpuprofile';
import { fixturePath } from '../../test/support/files';
import { type ChartBox, type TimeAxis, boxExtent, chartBoxes, hasTimeAxis, sampleAt, timeAxis } from './time-order';

const AGENT = fixturePath('samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile');

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
