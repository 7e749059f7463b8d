import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importProfile } from '../import/import-profile';
import type { Profile } from '../model/types';
import { weighByDefault } from '../model/weigh';
import { compileQuery } from '../search/matcher';
import { SAMPLES, fileSource } from '../../test/support/files';
import { folded } from '../../test/support/folded';
import { functionStats } from '../view/function-stats';
import { DiffError, type ProfileDiff, STATUS_NAMES, diffProfiles, summarizeDiff } from './diff';
import { matchedKey } from './entry-script';
import { PairMap } from './pair-map';
import {
  deltaShare,
  deltaWeight,
  formatWeight,
  scaledDelta,
  formatChange,
  formatDelta,
  indexDiff,
  nodeDeltas,
  rankFunctions,
} from './diff-query';

/** Key path of merged node i, `;`-joined. */
function pathOf(d: ProfileDiff, i: number): string {
  const parts: string[] = [];
  for (let v = i; v > 0; v = d.tree.parent[v]!) parts.unshift(d.keys[d.tree.key[v]!]!);
  return parts.join(';');
}

/** "path base run" per merged node (raw totals), in pre-order. */
function dump(d: ProfileDiff): string[] {
  const out: string[] = [];
  for (let i = 1; i < d.tree.length; i++) out.push(`${pathOf(d, i)} ${d.tree.baseTotal[i]} ${d.tree.runTotal[i]}`);
  return out;
}

/** Merged node of a `;`-joined key path. */
function node(d: ProfileDiff, path: string): number {
  return indexDiff(d).path(path === '' ? [] : path.split(';'));
}

const fn = (d: ProfileDiff, key: string) => d.functions.find((f) => f.key === key)!;

describe('alignment by key path', () => {
  it('builds the union of both trees with both values, baseline children first', async () => {
    const d = diffProfiles(await folded('a;b;c 3\na;d 1'), await folded('a;b;c 5\na;e 2\nz 1'), { normalize: 'absolute' });
    expect(dump(d)).toEqual(['a 4 7', 'a;b 3 5', 'a;b;c 3 5', 'a;d 1 0', 'a;e 0 2', 'z 0 1']);
    expect(d.tree.baseTotal[0]).toBe(4);
    expect(d.tree.runTotal[0]).toBe(8);
    // pre-order layout: descendants of i are i+1 … end[i]-1, parents come first
    for (let i = 1; i < d.tree.length; i++) {
      expect(d.tree.parent[i]).toBeLessThan(i);
      expect(d.tree.end[i]).toBeLessThanOrEqual(d.tree.end[d.tree.parent[i]!]!);
      expect(d.tree.depth[i]).toBe(d.tree.depth[d.tree.parent[i]!]! + 1);
    }
  });

  it('aligns frames whose tier markers differ, and merges same-key siblings', async () => {
    const d = diffProfiles(await folded('main;~h;b 2'), await folded('main;*h;b 3\nmain;^h;b 1'), { normalize: 'absolute' });
    expect(dump(d)).toEqual(['main 2 4', 'main;h 2 4', 'main;h;b 2 4']);
  });

  it('maps every weighted call-tree node of each run to the merged node of its key path', async () => {
    const base = await folded('a;b;c 3\na;d 1');
    const run = await folded('a;*b;c 5\na;e 2');
    const d = diffProfiles(base, run, { normalize: 'relative' });
    for (const [p, map] of [
      [base, d.baselineNode],
      [run, d.runNode],
    ] as const) {
      expect(map.length).toBe(p.tree.length);
      for (let i = 1; i < p.tree.length; i++) {
        const keys: string[] = [];
        for (let v = i; v > 0; v = p.tree.parent[v]!) keys.unshift(p.frames.key[p.tree.frame[v]!]!);
        expect(pathOf(d, map[i]!)).toBe(keys.join(';'));
      }
    }
    const deltas = nodeDeltas(d, 'run');
    const e = run.tree.frame.findIndex((f) => f >= 0 && run.frames.name[f] === 'e');
    expect(deltas[e]).toBeCloseTo(2 / 7);
  });

  it('looks nodes up by key path', async () => {
    const d = diffProfiles(await folded('a;b 1'), await folded('a;c 1'));
    const ix = indexDiff(d);
    expect(ix.path([])).toBe(0);
    expect(pathOf(d, ix.path(['a', 'c']))).toBe('a;c');
    expect(ix.path(['a', 'x'])).toBe(-1);
    expect(ix.path(['nope'])).toBe(-1);
    expect(ix.child(ix.path(['a']), 'b')).toBe(ix.path(['a', 'b']));
  });

  it('stays iterative on 50,000-frame stacks', async () => {
    const deep = Array.from({ length: 50_000 }, (_, i) => `f${i}`).join(';');
    const d = diffProfiles(await folded(`${deep} 2`), await folded(`${deep};g 3`));
    expect(d.tree.length).toBe(50_002);
    expect(d.tree.depth[d.tree.length - 1]).toBe(50_001);
    expect(d.functions.find((f) => f.key === 'g')!.status).toBe('new');
    expect(d.newRoots.length).toBe(1);
  });
});

describe('difffolded.pl semantics', () => {
  // difffolded.pl prints "stack count1 count2"; flamegraph.pl then gives every frame the sum of
  // count2 − count1 over the stacks through it. Expectations below are worked out by hand.
  const base = 'main;a 4\nmain;b 6'; // total 10
  const run = 'main;a 12\nmain;c 8'; // total 20

  it("without -n: a frame's delta is run minus baseline weight (absolute)", async () => {
    // main;a 4 12 / main;b 6 0 / main;c 0 8
    const d = diffProfiles(await folded(base), await folded(run), { normalize: 'absolute' });
    expect(d.measure).toBe('weight');
    const got = Object.fromEntries(['main', 'main;a', 'main;b', 'main;c'].map((p) => [p, d.tree.deltaTotal[node(d, p)]]));
    expect(got).toEqual({ main: 10, 'main;a': 8, 'main;b': -6, 'main;c': 8 });
    expect(d.change).toBe(1);
  });

  it('with -n: the baseline is scaled by total2/total1 (relative, in share points)', async () => {
    // -n scales count1 by 20/10: main;a 8 12 / main;b 12 0 / main;c 0 8
    const d = diffProfiles(await folded(base), await folded(run), { normalize: 'relative' });
    expect(d.normalize).toBe('relative');
    expect(d.measure).toBe('fraction');
    expect(d.baselineScale).toBe(2);
    const weights = Object.fromEntries(
      ['main', 'main;a', 'main;b', 'main;c'].map((p) => [p, deltaWeight(d, d.tree.deltaTotal[node(d, p)]!)]),
    );
    const expected = { main: 0, 'main;a': 4, 'main;b': -12, 'main;c': 8 };
    for (const [p, w] of Object.entries(expected)) expect(weights[p]).toBeCloseTo(w, 9);
    const a = fn(d, 'a');
    expect(scaledDelta(d, a.baseline.total, a.run.total)).toBe(4);
    // the same in percentage points: a 40% → 60%, b 60% → 0%, c 0% → 40%
    expect(d.tree.deltaTotal[node(d, 'main;a')]).toBeCloseTo(0.2);
    expect(d.tree.deltaTotal[node(d, 'main;b')]).toBeCloseTo(-0.6);
    expect(formatDelta(d, d.tree.deltaTotal[node(d, 'main;c')]!)).toBe('+40.00 pp');
  });

  it('with -n and totals that do not divide: within the per-stack truncation of int()', async () => {
    // total1 3, total2 7. difffolded.pl -n: x int(1*7/3)=2 → "x 2 4", y int(2*7/3)=4 → "y 4 3";
    // deltas x +2, y −1. Flamelens does not truncate: x 4 − 7/3, y 3 − 14/3.
    const d = diffProfiles(await folded('x 1\ny 2'), await folded('x 4\ny 3'), { normalize: 'relative' });
    const x = deltaWeight(d, d.tree.deltaTotal[node(d, 'x')]!);
    const y = deltaWeight(d, d.tree.deltaTotal[node(d, 'y')]!);
    expect(x).toBeCloseTo(4 - 7 / 3, 12);
    expect(y).toBeCloseTo(3 - 14 / 3, 12);
    expect(Math.abs(x - 2)).toBeLessThan(1);
    expect(Math.abs(y - -1)).toBeLessThan(1);
  });

  it("keeps what difffolded.pl's run-width graph cannot show: paths only the baseline has", async () => {
    const d = diffProfiles(await folded(base), await folded(run));
    expect([...d.removedRoots].map((i) => pathOf(d, i))).toEqual(['main;b']);
    expect([...d.newRoots].map((i) => pathOf(d, i))).toEqual(['main;c']);
  });
});

describe('moved under a wrapper', () => {
  const base = 'main;handler;send 4\nmain;other 2';
  // the agent wraps the handler: same functions, called from a new place
  const run = 'main;wrap;handler;send 6\nmain;wrap;agent 3\nmain;other 2';

  it('is new only where the function is nowhere in the baseline; a path of a known function moved', async () => {
    const d = diffProfiles(await folded(base), await folded(run));
    const status = (p: string) => STATUS_NAMES[d.tree.status[node(d, p)]!];
    expect(['main;wrap', 'main;wrap;agent'].map(status)).toEqual(['new', 'new']);
    expect(['main;wrap;handler', 'main;wrap;handler;send'].map(status)).toEqual(['moved', 'moved']);
    // and the other way: the baseline's path of a function the run calls elsewhere
    expect(status('main;handler')).toBe('moved');
    expect(status('main;other')).toBe('unchanged');
    expect([...d.newRoots].map((i) => pathOf(d, i))).toEqual(['main;wrap']);
    expect(d.removedRoots.length).toBe(0);
    const by = Object.fromEntries(d.functions.map((f) => [f.name, [f.status, f.delta.total]]));
    expect(by).toEqual({
      main: ['changed', 5],
      handler: ['changed', 2],
      send: ['changed', 2],
      wrap: ['new', 9],
      agent: ['new', 3],
      other: ['unchanged', 0],
    });
  });

  it('a function gone from the run is removed, on every path', async () => {
    const d = diffProfiles(await folded(run), await folded(base));
    expect(STATUS_NAMES[d.tree.status[node(d, 'main;wrap;handler')]!]).toBe('moved');
    expect(STATUS_NAMES[d.tree.status[node(d, 'main;wrap;agent')]!]).toBe('removed');
    expect(fn(d, 'agent').status).toBe('removed');
  });
});

describe('normalization', () => {
  it('is absolute unless asked: the runs did the same work, a delta is weight added', async () => {
    // the run spent 2 more samples in a and 6 in the new c; as shares a went from 50% to 33%
    const d = diffProfiles(await folded('main;a 4\nmain;b 4'), await folded('main;a 6\nmain;b 4\nmain;c 8'));
    expect([d.normalize, d.measure, d.baselineScale]).toEqual(['absolute', 'weight', 1]);
    expect(fn(d, 'a').delta.total).toBe(2);
    expect(fn(d, 'a').status).toBe('changed');
    expect(d.tree.deltaTotal[node(d, 'main;a')]).toBe(2);
    expect(formatDelta(d, fn(d, 'a').delta.total)).toBe('+2 samples');
    // the same frame in relative mode got narrower
    expect(
      fn(diffProfiles(await folded('main;a 4\nmain;b 4'), await folded('main;a 6\nmain;b 4\nmain;c 8'), { normalize: 'relative' }), 'a')
        .delta.total,
    ).toBeCloseTo(1 / 3 - 1 / 2);
  });
});

describe('status', () => {
  it('labels new, removed, changed and unchanged paths and functions', async () => {
    const d = diffProfiles(await folded('m;same 50\nm;grow 10\nm;gone 40'), await folded('m;same 50\nm;grow 20\nm;born 30'), {
      normalize: 'absolute',
    });
    const st = (p: string) => STATUS_NAMES[d.tree.status[node(d, p)]!];
    // m: 100 in both, its children only moved weight around
    expect([st('m;same'), st('m;grow'), st('m;gone'), st('m;born'), st('m')]).toEqual([
      'unchanged',
      'changed',
      'removed',
      'new',
      'unchanged',
    ]);
    expect(['same', 'grow', 'gone', 'born'].map((k) => fn(d, k).status)).toEqual(['unchanged', 'changed', 'removed', 'new']);
  });

  it('treats deltas up to the threshold as noise', async () => {
    const b = await folded('m;a 500\nm;b 500');
    const r = await folded('m;a 505\nm;b 495');
    // relative: a moves by 0.5 pp
    expect(fn(diffProfiles(b, r), 'a').status).toBe('changed');
    expect(fn(diffProfiles(b, r, { threshold: 0.005 }), 'a').status).toBe('unchanged');
    expect(fn(diffProfiles(b, r, { threshold: 0.0049 }), 'a').status).toBe('changed');
    // absolute: 5 of the baseline's 1000 is the same 0.5%
    expect(fn(diffProfiles(b, r, { normalize: 'absolute', threshold: 0.005 }), 'a').status).toBe('unchanged');
    expect(diffProfiles(b, r, { normalize: 'absolute', threshold: 0.005 }).noise).toBe(5);
  });
});

describe('functions', () => {
  it('counts a recursive function once in its total', async () => {
    const d = diffProfiles(await folded('a;b;a;b 2\na 1'), await folded('a;b;a;b 4\na 1'), { normalize: 'absolute' });
    expect(fn(d, 'a').baseline).toEqual({ self: 1, total: 3 });
    expect(fn(d, 'a').run).toEqual({ self: 1, total: 5 });
    expect(fn(d, 'b').baseline).toEqual({ self: 2, total: 2 });
    expect(fn(d, 'b').delta).toEqual({ self: 2, total: 2 });
  });

  it('agrees with functionStats on each side', async () => {
    const base = await folded('a;b;a;c 3\na;b;b 2\nx;a 1\nx;y;x 4');
    const run = await folded('a;b;a;c 1\na;c;b 5\nx;y;x;y 2\nq;a;q 1');
    const d = diffProfiles(base, run);
    for (const [side, p] of [
      ['baseline', base],
      ['run', run],
    ] as const) {
      const fs = functionStats(p);
      for (const [key, k] of fs.byKey) {
        const f = fn(d, key);
        expect([key, f[side].self, f[side].total]).toEqual([key, fs.self[k], fs.total[k]]);
      }
    }
  });

  it('ranks by |delta| and filters by status', async () => {
    const d = diffProfiles(await folded('m;a 10\nm;b 10'), await folded('m;a 10\nm;b 2\nm;c 4'), { normalize: 'absolute' });
    expect(rankFunctions(d).map((f) => `${f.key} ${f.delta.total}`)).toEqual(['b -8', 'c 4', 'm -4']);
    expect(rankFunctions(d, { status: ['new'] }).map((f) => f.key)).toEqual(['c']);
    expect(rankFunctions(d, { limit: 1 }).map((f) => f.key)).toEqual(['b']);
    expect(deltaShare(d, -8)).toBeCloseTo(-0.4);
  });
});

describe('headline', () => {
  it("gives the total cost change and the matcher's shares of each run", async () => {
    const d = diffProfiles(await folded('main;work 3'), await folded('main;agent;work 3\nmain;agent 2'), {
      matcher: compileQuery('agent')!.match,
    });
    expect(d.change).toBeCloseTo(2 / 3);
    expect(formatChange(d.change)).toBe('+67%');
    expect(d.baseline.match).toMatchObject({ inclusive: 0, self: 0 });
    expect(d.run.match).toMatchObject({ inclusive: 1, self: 0.4 });
  });

  it('can leave out idle samples, and reports them either way', async () => {
    const base = await folded('(idle) 6\nmain;work 4');
    const run = await folded('(idle) 2\nmain;work 8');
    const kept = diffProfiles(base, run);
    expect([kept.baseline.total, kept.baseline.idle, kept.change]).toEqual([10, 6, 0]);
    const dropped = diffProfiles(base, run, { excludeIdle: true, normalize: 'relative' });
    expect([dropped.baseline.total, dropped.run.total, dropped.run.idle, dropped.change]).toEqual([4, 8, 2, 1]);
    expect(fn(dropped, 'work').delta.total).toBe(0);
  });

  it('formats weights in their unit, time in the largest unit that fits', () => {
    expect(formatWeight(2283, 'samples')).toBe('2,283 samples');
    expect(formatWeight(2_324_324_322, 'nanoseconds')).toBe('2.32 s');
    expect(formatWeight(506_506_506, 'nanoseconds')).toBe('507 ms');
    expect(formatWeight(1500, 'microseconds')).toBe('1.5 ms');
    expect(formatWeight(12.5, 'microseconds')).toBe('12.5 µs');
    expect(formatWeight(13_078_288, 'bytes')).toBe('13,078,288 bytes');
  });

  it('warns when the files come from different producers', async () => {
    const a = await folded('a 1');
    const b: Profile = { ...(await folded('a 1')), format: 'cpuprofile' };
    expect(diffProfiles(a, a).warnings).toEqual([]);
    expect(diffProfiles(a, b).warnings.join()).toMatch(/different producers \(folded, cpuprofile\)/);
  });

  it('refuses units that do not compare, converts ns to µs', async () => {
    const a = await folded('a 1');
    const bytes: Profile = { ...(await folded('a 1')), unit: 'bytes' };
    expect(() => diffProfiles(a, bytes)).toThrow(DiffError);
    expect(() => diffProfiles(a, bytes)).toThrow(/samples .* bytes/);
    const ns: Profile = { ...(await folded('a 3000')), unit: 'nanoseconds' };
    const us: Profile = { ...(await folded('a 2')), unit: 'microseconds' };
    const d = diffProfiles(ns, us, { normalize: 'absolute' });
    expect([d.unit, d.baseline.total, d.run.total]).toEqual(['microseconds', 3, 2]);
  });

  it('refuses spans against CPU samples though both are in microseconds, either way round; spans against spans compare', async () => {
    // (weighed by time, as the app and `flamelens diff` weigh V8 samples)
    const cpu = weighByDefault(await importProfile(fileSource(join(SAMPLES, 'baseline/CPU.20261121.233005.6118.0.001.cpuprofile'))));
    const spans = await importProfile(fileSource(join(SAMPLES, 'ddtrace/node_trace.1.log.gz')));
    const spansBase = await importProfile(fileSource(join(SAMPLES, 'baseline/node_trace.1.log.gz')));
    expect([cpu.kind, spans.kind, cpu.unit, spans.unit]).toEqual(['sampled', 'spans', 'microseconds', 'microseconds']);
    for (const [a, b] of [
      [cpu, spans],
      [spans, cpu],
    ] as const) {
      expect(() => diffProfiles(a, b)).toThrow(DiffError);
      expect(() => diffProfiles(a, b)).toThrow(/span time of node_trace\.1\.log\.gz .* samples of CPU\./);
    }
    expect(diffProfiles(spansBase, spans).unit).toBe('microseconds');
  });
});

describe('summary without aligning the trees', () => {
  it("gives the diff's own totals, cost and warnings, for either normalization, idle in or out, and the same refusal", async () => {
    const load = (dir: string) => {
      const f = readdirSync(join(SAMPLES, dir)).find((x) => x.startsWith('CPU.') && x.endsWith('.cpuprofile'))!;
      return importProfile(fileSource(join(SAMPLES, dir, f)));
    };
    const [base, run] = await Promise.all([load('baseline'), load('ddtrace')]);
    const slow: Profile = { ...(await folded('main;work 3\n(idle) 5')), format: 'cpuprofile' };
    for (const [a, b] of [
      [base, run],
      [await folded('main;work 3\n(idle) 5'), slow],
    ] as const)
      for (const normalize of ['absolute', 'relative'] as const)
        for (const excludeIdle of [true, false]) {
          const opts = { normalize, excludeIdle };
          const d = diffProfiles(a, b, opts);
          const s = summarizeDiff(a, b, opts);
          expect([s.normalize, s.unit, s.baseline.name, s.run.name, s.baseline.idle, s.run.idle, s.warnings]).toEqual([
            d.normalize,
            d.unit,
            d.baseline.name,
            d.run.name,
            d.baseline.idle,
            d.run.idle,
            d.warnings,
          ]);
          expect(s.baseline.total).toBeCloseTo(d.baseline.total, 6);
          expect(s.run.total).toBeCloseTo(d.run.total, 6);
          expect(s.change).toBeCloseTo(d.change, 12);
        }
    const bytes: Profile = { ...(await folded('a 1')), unit: 'bytes' };
    expect(() => summarizeDiff(base, bytes)).toThrow(DiffError);
  });
});

describe('real samples: baseline vs dd-trace (node --cpu-prof)', () => {
  let d: ProfileDiff;
  let base: Profile;
  let run: Profile;
  const load = (dir: string) => {
    const f = readdirSync(join(SAMPLES, dir)).find((x) => x.startsWith('CPU.') && x.endsWith('.cpuprofile'))!;
    return importProfile(fileSource(join(SAMPLES, dir, f)));
  };
  beforeAll(async () => {
    [base, run] = await Promise.all([load('baseline'), load('ddtrace')]);
    d = diffProfiles(base, run, { matcher: compileQuery('dd-trace')!.match });
  });
  const isAgent = (file: string) => file.includes('node_modules/dd-trace/');

  it('has every dd-trace function as new, and they lead the new functions by run total', () => {
    const agent = d.functions.filter((f) => isAgent(f.file));
    expect(agent.length).toBeGreaterThan(50);
    expect(agent.every((f) => f.status === 'new' && f.baseline.total === 0)).toBe(true);
    const top = d.functions
      .filter((f) => f.status === 'new')
      .sort((a, b) => b.run.total - a.run.total)
      .slice(0, 20);
    expect(isAgent(top[0]!.file)).toBe(true);
    // The only other: the diagnostics channel dd-trace publishes through (the app's entry file,
    // server-ddtrace.js in this run and server-baseline.js in the baseline, is matched).
    expect(top.filter((f) => !isAgent(f.file)).map((f) => `${f.name} ${f.file.replace(/.*\//, '')}`)).toEqual([
      'publish node:diagnostics_channel',
    ]);
  });

  it('calls a path new exactly where its function is new: Fastify under the agent moved, it is not new', () => {
    const status = new Map(d.functions.map((f) => [f.key, f.status]));
    const counts = [0, 0, 0, 0, 0];
    for (let i = 1; i < d.tree.length; i++) {
      const s = d.tree.status[i]!;
      counts[s]!++;
      const f = status.get(d.keys[d.tree.key[i]!]!);
      if (s === 2) expect(f).toBe('new');
      if (s === 3) expect(f).toBe('removed');
      if (s === 4) expect(f === 'new' || f === 'removed').toBe(false);
      if (f === 'new') expect(s).toBe(2);
    }
    // dd-trace wraps the request handling: many paths moved under it
    expect(counts[4]).toBeGreaterThan(100);
    const reply = d.functions.find((f) => f.name === 'Reply.send' && f.file.includes('node_modules/fastify/'))!;
    expect(reply.status).toBe('changed');
  });

  it("keeps both runs' totals and function figures", () => {
    expect(d.baseline.total).toBe(base.tree.total[0]);
    expect(d.run.total).toBe(run.tree.total[0]);
    expect(d.tree.baseTotal[0]).toBe(d.baseline.total);
    expect(d.tree.runTotal[0]).toBe(d.run.total);
    const fs = functionStats(run);
    for (const [key, k] of fs.byKey) if (fs.total[k]! > 0) expect(fn(d, matchedKey(key, d.entry!)).run.total).toBe(fs.total[k]);
    expect(d.baseline.match!.inclusive).toBe(0);
    expect(d.run.match!.inclusive).toBeGreaterThan(0.3);
  });
});

describe('PairMap', () => {
  it('stores and finds pairs across growth, -1 when absent', () => {
    const m = new PairMap(1);
    for (let a = 0; a < 300; a++) for (let b = 0; b < 30; b++) m.set(a * 7919, b, a * 30 + b);
    expect(m.size).toBe(9000);
    for (let a = 0; a < 300; a++) for (let b = 0; b < 30; b++) expect(m.get(a * 7919, b)).toBe(a * 30 + b);
    expect(m.get(1, 1)).toBe(-1);
    m.set(0, 0, 5);
    expect([m.get(0, 0), m.size]).toEqual([5, 9000]);
  });
});
