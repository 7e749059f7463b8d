import { describe, expect, it } from 'vitest';
import { importProfile } from '../import/import-profile';
import { CallTreeBuilder, FrameTableBuilder, finishProfile } from '../model/builders';
import { DENSITY_BUCKETS, type Profile } from '../model/types';
import { fileSource, fixturePath, readText } from '../../test/support/files';
import {
  NoSampleTimesError,
  cellRange,
  coarserDensity,
  density,
  densityBucketsNear,
  fineDensity,
  hasCell,
  hasTimestamps,
  heatmap,
  idleNodes,
  rangeWeights,
  rowOffsetMs,
  samplesInRange,
  selectionWeights,
} from './heatmap';
import { timeColumn } from '../model/sample-times';

/** A profile from `[time in seconds, "a;b;c"]` samples (root first), weight 1 unless given. */
function sampled(samples: [number, string, number?][], format: Profile['format'] = 'perf-script'): Profile {
  const frames = new FrameTableBuilder();
  const tree = new CallTreeBuilder();
  for (const [t, stack, w] of samples) {
    let node = tree.root;
    for (const name of stack.split(';')) node = tree.child(node, frames.intern({ name }));
    tree.addSample(node, w ?? 1, Number.isNaN(t) ? NaN : Math.round(t * 1e6));
  }
  return finishProfile({
    name: 'hand-made',
    format,
    kind: 'sampled',
    unit: 'samples',
    frames,
    tree,
    meta: { producer: 'test', warnings: [] },
  });
}

const sum = (values: number[][]) => values.reduce((a, col) => a + col.reduce((b, v) => b + v, 0), 0);

/** Non-zero cells as "column/row=count". */
function cells(values: number[][]): string[] {
  const out: string[] = [];
  values.forEach((col, c) => col.forEach((v, r) => v && out.push(`${c}/${r}=${v}`)));
  return out;
}

/** The node of a root-first path of frame names, -1 when absent. */
function nodeOf(p: Profile, path: string): number {
  let node = 0;
  for (const name of path.split(';')) {
    let next = -1;
    for (let i = node + 1; i < p.tree.end[node]!; i++) if (p.tree.parent[i] === node && p.frames.name[p.tree.frame[i]!] === name) next = i;
    if (next < 0) return -1;
    node = next;
  }
  return node;
}

describe('heatmap', () => {
  it('puts each sample in its second and its slice, the last slice on top', () => {
    const p = sampled([
      [100.25, 'main;a'],
      [100.26, 'main;a'],
      [101.0, 'main;b'],
      [102.99, 'main;b'],
    ]);
    const hm = heatmap(p, { rows: 10 });
    expect(hm).toMatchObject({ rows: 10, columns: 3, start: 100, maxCount: 2, sampleCount: 4, idleCount: 0, untimedCount: 0 });
    // 0.25 s and 0.26 s → slice 2 → row 10 - 2 - 1 = 7; 0.0 → row 9; 0.99 → row 0.
    expect(cells(hm.values)).toEqual(['0/7=2', '1/9=1', '2/0=1']);
    expect(hm.values.every((c) => c.length === 10)).toBe(true);
  });

  it('starts at the earliest sample even when samples are out of order, and fits a last sample on a whole second', () => {
    // perf script from several CPUs is not strictly in time order.
    const hm = heatmap(
      sampled([
        [7.5, 'a'],
        [5.2, 'a'],
        [9.0, 'a'],
      ]),
    );
    expect(hm.start).toBe(5);
    // 9.0 is in column 4 (second 9 … 10): FlameScope's ceil(9) - floor(5) = 4 columns would not hold it.
    expect(hm.columns).toBe(5);
    expect(cells(hm.values)).toEqual(['0/39=1', '2/24=1', '4/49=1']);
  });

  it('defaults to 50 rows and rejects nonsense row counts', () => {
    expect(heatmap(sampled([[1, 'a']])).rows).toBe(50);
    for (const rows of [0, -3, 2.5, NaN, 1e6]) expect(() => heatmap(sampled([[1, 'a']]), { rows })).toThrow(RangeError);
  });

  it('leaves untimed samples out and refuses profiles without any timestamp', () => {
    const hm = heatmap(
      sampled([
        [NaN, 'a'],
        [3.5, 'a'],
      ]),
    );
    expect(hm).toMatchObject({ sampleCount: 1, untimedCount: 1, columns: 1, start: 3 });
    const none = sampled([[NaN, 'a']]);
    expect(hasTimestamps(none)).toBe(false);
    expect(() => heatmap(none)).toThrow(NoSampleTimesError);
    const aggregated = { ...none, samples: undefined } as Profile;
    expect(hasTimestamps(aggregated)).toBe(false);
    expect(() => heatmap(aggregated)).toThrow(/hand-made has no sample timestamps/);
  });

  it('knows which cells are in its grid', () => {
    const hm = heatmap(
      sampled([
        [10.1, 'a'],
        [11.9, 'a'],
      ]),
      { rows: 10 },
    );
    expect(hm.columns).toBe(2);
    expect(hasCell(hm, { column: 1, row: 9 })).toBe(true);
    expect(hasCell(hm, { column: 2, row: 0 })).toBe(false); // a later second of a longer run
    expect(hasCell(hm, { column: 0, row: 10 })).toBe(false); // a row of a finer grid
    expect(hasCell(hm, { column: -1, row: 0 })).toBe(false);
    expect(hasCell(hm, { column: 0.5, row: 0 })).toBe(false);
  });

  it('refuses a span of days (a broken clock), not the memory', () => {
    expect(() =>
      heatmap(
        sampled([
          [1, 'a'],
          [1e6, 'a'],
        ]),
      ),
    ).toThrow(/limited to/);
  });

  it('leaves idle samples out unless asked, but keeps them in the extent', () => {
    const p = sampled([
      [10.1, 'node;(idle)'],
      [10.2, 'node;work'],
      [12.5, '(root);(idle)'],
    ]);
    const hm = heatmap(p);
    expect(hm).toMatchObject({ columns: 3, sampleCount: 1, idleCount: 2 });
    expect(sum(heatmap(p, { includeIdle: true }).values)).toBe(3);
  });
});

describe('idleNodes', () => {
  it('knows the kernel idle task and V8 (idle), not everything named idle', () => {
    const stacks = [
      'swapper;start_secondary;cpu_startup_entry;arch_cpu_idle;default_idle;native_safe_halt',
      'swapper;secondary_startup_64;start_secondary;cpu_startup_entry;do_idle;cpuidle_enter;cpuidle_enter_state;intel_idle',
      'swapper/3;cpu_bringup_and_idle;cpu_startup_entry;default_idle;xen_hypercall_sched_op',
      // An interrupt served while the CPU idled is still under the idle loop: FlameScope counts it idle.
      'swapper;cpu_startup_entry;arch_cpu_idle;native_safe_halt;do_IRQ;handle_irq',
      '(root);(idle)',
    ];
    const busy = [
      // swapper without an idle-loop function: work done in the idle task's context
      'swapper;start_secondary;smp_callin;do_softirq;net_rx_action',
      // an idle-loop name outside the idle task (a guest's scheduler code sampled in another process)
      'node;native_safe_halt',
      'node;epoll_pwait',
      // (idle) is V8's leaf; (program) is not idle
      '(root);(program)',
    ];
    const p = sampled([...stacks, ...busy].map((s, i) => [i, s]));
    const idle = idleNodes(p);
    const flagged = (s: string) => idle[nodeOf(p, s)];
    for (const s of stacks) expect([s, flagged(s)]).toEqual([s, 1]);
    for (const s of busy) expect([s, flagged(s)]).toEqual([s, 0]);
    // ancestors of an idle leaf are not idle themselves (a sample ending there would be work)
    expect(flagged('swapper;start_secondary')).toBe(0);
  });
});

describe('range views', () => {
  const p = sampled([
    [1.0, 'main;a', 2],
    [1.5, 'main;a;b', 3],
    [1.99, 'main;c', 5],
    [2.0, 'main;(idle)', 7],
    [2.5, 'main;a', 11],
    [NaN, 'main;a', 13],
  ]);

  it('selects [t0, t1): start included, end excluded', () => {
    expect([...samplesInRange(p, 1.0, 2.0)]).toEqual([0, 1, 2]);
    expect([...samplesInRange(p, 1.5, 2.5)]).toEqual([1, 2]);
    expect([...samplesInRange(p, 1.5, 2.5, { includeIdle: true })]).toEqual([1, 2, 3]);
    expect(samplesInRange(p, 3, 4).length).toBe(0);
  });

  it('gives per-node self and total weights in the profile unit', () => {
    const r = rangeWeights(p, 1.0, 2.0);
    expect(r.sampleCount).toBe(3);
    expect(r.total[0]).toBe(10);
    expect(r.self[nodeOf(p, 'main;a')]).toBe(2);
    expect(r.total[nodeOf(p, 'main;a')]).toBe(5);
    expect(r.total[nodeOf(p, 'main;c')]).toBe(5);
    expect(r.total[nodeOf(p, 'main')]).toBe(10);
    // the whole timed run, idle included, is the tree without the untimed sample
    const all = rangeWeights(p, 0, 10, { includeIdle: true });
    expect(all.total[0]).toBe(p.tree.total[0]! - 13);
  });

  it('selects heatmap cells with the heatmap arithmetic', () => {
    const hm = heatmap(p, { rows: 4 });
    // 1.0 → col 0 row 3; 1.5 → col 0 row 1; 1.99 → col 0 row 0; 2.5 → col 1 row 1
    expect(cells(hm.values)).toEqual(['0/0=1', '0/1=1', '0/3=1', '1/1=1']);
    expect(selectionWeights(p, hm, { column: 0, row: 1 }, { column: 1, row: 1 }).sampleCount).toBe(3);
    // either order
    expect(selectionWeights(p, hm, { column: 1, row: 3 }, { column: 0, row: 3 }).total[0]).toBe(10);
    expect(cellRange(hm, { column: 1, row: 1 })).toEqual({ start: 2.5, end: 2.75 });
    expect(rowOffsetMs(50, 0)).toBe(980);
    expect(rowOffsetMs(50, 49)).toBe(0);
  });
});

describe('density', () => {
  it('counts samples per equal bucket from first to last, idle apart', () => {
    const p = sampled([
      [10, 'a'],
      [10.5, 'a'],
      [12, '(root);(idle)'],
      [13.9, 'b'],
      [14, 'b'],
      [NaN, 'b'],
    ]);
    const d = density(p, 4);
    expect(d).toMatchObject({ start: 10, end: 14, bucketSeconds: 1, maxCount: 2 });
    expect(d.counts).toEqual([2, 0, 0, 2]);
    expect(d.idleCounts).toEqual([0, 0, 1, 0]);
    expect(
      density(
        sampled([
          [5, 'a'],
          [5, 'a'],
        ]),
        3,
      ).counts,
    ).toEqual([2, 0, 0]);
    expect(() => density(p, 0)).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
// Against FlameScope and real profiles.

const FS = 'corpus/flamescope/examples';

interface FsHeatmap {
  rows: number[];
  columns: number[];
  values: number[][];
  maxvalue: number;
}
interface FsNode {
  n: string;
  l: string;
  v: number;
  c: FsNode[];
}

const fsTotal = (n: FsNode): number => n.v + n.c.reduce((a, c) => a + fsTotal(c), 0);

describe('FlameScope example perf.test01', () => {
  const load = () => importProfile(fileSource(fixturePath(FS, 'perf.test01')));

  it("has exactly FlameScope's heatmap", async () => {
    const fs = JSON.parse(readText(fixturePath(FS, 'perf.test01.flamescope-heatmap.json'))) as FsHeatmap;
    const hm = heatmap(await load());
    expect(hm.values).toEqual(fs.values);
    expect(hm.rows).toBe(fs.rows.length);
    expect(hm.columns).toBe(fs.columns.length);
    expect(hm.maxCount).toBe(fs.maxvalue);
    expect(fs.rows).toEqual(fs.rows.map((_, r) => rowOffsetMs(hm.rows, r)));
    expect(hm.start).toBe(5076);
    // 5 java samples counted; the 4 swapper samples are the idle task
    expect(hm).toMatchObject({ sampleCount: 5, idleCount: 4 });
  });

  it("has FlameScope's flame graph over the whole range, idle left out", async () => {
    const p = await load();
    const fs = JSON.parse(readText(fixturePath(FS, 'perf.test01.flamescope-flamegraph.json'))) as FsNode;
    const hm = heatmap(p);
    const r = rangeWeights(p, hm.start, hm.start + hm.columns);
    const java = fs.c.find((c) => c.n === 'java')!;
    const swapper = fs.c.find((c) => c.n === 'swapper')!;
    // FlameScope's total of 6 is the 5 java samples plus one swapper idle sample: its flame-graph
    // reader skips the idle test for a file's last event (its heatmap reader does not, hence 5
    // cells). That sample is idle here, in the heatmap and the flame graph alike.
    expect(fsTotal(fs)).toBe(6);
    expect(fsTotal(swapper)).toBe(1);
    expect(r.total[0]).toBe(fsTotal(fs) - fsTotal(swapper));
    expect(r.total[nodeOf(p, 'java')]).toBe(fsTotal(java));
    // the same leaves: FlameScope's java stacks end in STACK-N frames, one sample each
    const fsLeaves = (n: FsNode, out: string[] = []): string[] => {
      if (n.v) out.push(`${n.n} ${n.v}`);
      n.c.forEach((c) => fsLeaves(c, out));
      return out;
    };
    const ours: string[] = [];
    for (let i = 0; i < p.tree.length; i++) if (r.self[i]) ours.push(`${p.frames.name[p.tree.frame[i]!]} ${r.self[i]}`);
    expect(ours.sort()).toEqual(fsLeaves(java).sort());
    // A selection of cells holds what the cells count, where a range in seconds may not: the
    // sample at 5086.200000 s is counted in the 180–200 ms cell (FlameScope's arithmetic), yet as a
    // time it is not below 5086.2.
    const cell = { column: 10, row: 40 };
    expect(hm.values[10]![40]).toBe(1);
    expect(selectionWeights(p, hm, cell, cell).sampleCount).toBe(1);
    const { start, end } = cellRange(hm, cell);
    expect([start, end]).toEqual([5086.18, 5086.2]);
    expect(rangeWeights(p, start, end).sampleCount).toBe(0);
    expect(rangeWeights(p, end, end + 0.02).sampleCount).toBe(1);
    // and the last event is the idle sample FlameScope kept
    const s = p.samples!;
    expect(timeColumn(s)[s.length - 1]).toBe(5117999999);
    expect(idleNodes(p)[s.node[s.length - 1]!]).toBe(1);
    expect(rangeWeights(p, hm.start, hm.start + hm.columns, { includeIdle: true }).total[0]).toBe(9);
  });
});

/** Sample headers of a perf script file read independently: time in seconds, period, comm. */
function perfHeaders(text: string): { t: number; period: number; comm: string }[] {
  const out: { t: number; period: number; comm: string }[] = [];
  for (const line of text.split('\n')) {
    // `node  6794  3297.854037:   10101010 cpu-clock:pppH: `
    const m = /^(\S.*?)\s+\d+(?:\/\d+)?\s+(?:\[\d+\]\s+)?(\d+\.\d+):\s+(\d+)\s+\S+:\s*$/.exec(line);
    if (m) out.push({ comm: m[1]!, t: Number(m[2]), period: Number(m[3]) });
  }
  return out;
}

describe('real runs', () => {
  it('perf script: the heatmap holds every non-idle sample, a range exactly the samples in it', async () => {
    const path = fixturePath('samples/ddtrace/perf.script.txt');
    const headers = perfHeaders(readText(path));
    const p = await importProfile(fileSource(path));
    const nonIdle = headers.filter((h) => !h.comm.startsWith('swapper'));
    expect(headers.length).toBe(p.samples!.length);
    expect(nonIdle.length).toBeGreaterThan(200);

    const hm = heatmap(p);
    expect(sum(hm.values)).toBe(nonIdle.length);
    expect(hm.sampleCount).toBe(nonIdle.length);
    const first = Math.min(...headers.map((h) => h.t));
    const last = Math.max(...headers.map((h) => h.t));
    expect(hm.start).toBe(Math.floor(first));
    expect(hm.columns).toBe(Math.ceil(last) - Math.floor(first));

    for (const [t0, t1] of [
      [first + 1.25, first + 4.5],
      [hm.start + 2, hm.start + 3],
      [first, last],
      [first, last + 1e-6],
    ] as const) {
      const inRange = nonIdle.filter((h) => h.t >= t0 && h.t < t1);
      const r = rangeWeights(p, t0, t1);
      expect(r.sampleCount).toBe(inRange.length);
      // weights are perf periods (ns of cpu-clock)
      expect(r.total[0]).toBe(inRange.reduce((a, h) => a + h.period, 0));
    }
    // a second's column of the heatmap is that second's range
    const col = 2;
    expect(hm.values[col]!.reduce((a, v) => a + v, 0)).toBe(rangeWeights(p, hm.start + col, hm.start + col + 1).sampleCount);
    // a selection of cells holds exactly what the cells count
    const sel = selectionWeights(p, hm, { column: 1, row: 49 }, { column: 3, row: 10 });
    let counted = 0;
    for (let c = 1; c <= 3; c++)
      for (let r = 0; r < hm.rows; r++) if ((c > 1 || r <= 49) && (c < 3 || r >= 10)) counted += hm.values[c]![r]!;
    expect(sel.sampleCount).toBe(counted);
  });

  it('.cpuprofile: microseconds become seconds, V8 (idle) samples are left out', async () => {
    const p = await importProfile(fileSource(fixturePath('samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile')));
    const s = p.samples!;
    const time = timeColumn(s);
    let idle = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < s.length; i++) {
      if (p.frames.name[p.tree.frame[s.node[i]!]!] === '(idle)') idle++;
      lo = Math.min(lo, time[i]!);
      hi = Math.max(hi, time[i]!);
    }
    expect(idle).toBeGreaterThan(100);
    const hm = heatmap(p);
    expect(hm.start).toBe(Math.floor(lo / 1e6));
    expect(hm.columns).toBe(Math.floor(hi / 1e6) - hm.start + 1);
    expect(hm).toMatchObject({ sampleCount: s.length - idle, idleCount: idle });
    expect(sum(hm.values)).toBe(s.length - idle);
    expect(sum(heatmap(p, { includeIdle: true }).values)).toBe(s.length);
    const d = density(p, 100);
    expect(density(p, 100, idleNodes(p))).toEqual(d);
    expect(heatmap(p, { idle: idleNodes(p) })).toEqual(hm);
    expect(d.counts.reduce((a, b) => a + b, 0)).toBe(s.length - idle);
    expect(d.idleCounts.reduce((a, b) => a + b, 0)).toBe(idle);
  });

  it('Chrome trace with samples: a heatmap; trace spans: none', async () => {
    const chrome = await importProfile(fileSource(fixturePath('corpus/speedscope/sample/profiles/Chrome/69/simple.json')));
    const hm = heatmap(chrome);
    expect(hm.sampleCount + hm.idleCount).toBe(chrome.samples!.length);
    expect(hm.idleCount).toBeGreaterThan(0);
    const spans = await importProfile(fileSource(fixturePath('corpus/speedscope/sample/profiles/trace-event/matching-x.json')));
    expect(hasTimestamps(spans)).toBe(false);
    expect(() => heatmap(spans)).toThrow(NoSampleTimesError);
  });
});

describe('density worked out at import', () => {
  it('summed into any divisor of its buckets, gives what density gives, on real runs', async () => {
    for (const f of ['samples/ddtrace/perf.script.txt', 'samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile']) {
      const p = await importProfile(fileSource(fixturePath(f)));
      const fine = fineDensity(p)!;
      expect(fine.counts).toHaveLength(DENSITY_BUCKETS);
      for (let b = 1; b <= 400; b++) {
        if (DENSITY_BUCKETS % b !== 0) continue;
        const direct = density(p, b);
        const summed = coarserDensity(fine, b);
        expect(summed.counts, `${f}, ${b} buckets`).toEqual(direct.counts);
        expect(summed.idleCounts, `${f}, ${b} buckets`).toEqual(direct.idleCounts);
        expect(summed.maxCount).toBe(direct.maxCount);
        expect([summed.start, summed.end]).toEqual([direct.start, direct.end]);
      }
    }
  });

  it('is absent where samples have no times, and bars are counts that divide it', async () => {
    expect(
      fineDensity(await importProfile(fileSource(fixturePath('samples/baseline/Heap.20261121.233010.6213.0.001.heapprofile')))),
    ).toBeUndefined();
    expect(densityBucketsNear(400)).toBe(400);
    expect(densityBucketsNear(341)).toBe(300);
    expect(densityBucketsNear(10)).toBe(10);
    expect(densityBucketsNear(0)).toBe(1);
    expect(() => coarserDensity({ start: 0, end: 1, counts: [], idleCounts: [] }, 7)).toThrow(RangeError);
  });
});
