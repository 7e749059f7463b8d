/** V8 .cpuprofile importer on real files: detection, speedscope's and 0x's results for the same files, and node --cpu-prof runs. */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { collapse } from '../../../model/collapse';
import { checkProfile } from '../../../model/integrity';
import { meanInterval, sampleDurations, sampleTimeSelf } from '../../../model/sample-time';
import { Category, type Profile } from '../../../model/types';
import { load, speedscope, summary, zeroEx } from '../../../../test/support/cpuprofile';
import { fixturePath, readText } from '../../../../test/support/files';
import { cpuprofileImporter } from './cpuprofile';
import { timeColumn } from '../../../model/sample-times';

const json = (path: string) => JSON.parse(readText(path));

/** Sum of `weights` over call-tree nodes whose frame is not `(idle)` (speedscope's "non-idle" weight). */
function nonIdle(p: Profile, weights: Float64Array): number {
  let sum = 0;
  for (let i = 1; i < p.tree.length; i++) if (p.frames.name[p.tree.frame[i]!] !== '(idle)') sum += weights[i]!;
  return sum;
}

describe('V8 .cpuprofile: detection', () => {
  const profiles = [
    speedscope('Chrome/65/simple.cpuprofile'),
    speedscope('Chrome/65/sucrase.cpuprofile'),
    speedscope('node/10.11.0/example.cpuprofile'),
    zeroEx('examples/cpu-profiler/samples-cpu-prof.cpuprofile'),
    zeroEx('examples/cpu-profiler/samples.cpuprofile'),
    zeroEx('test/inline-data/exampleCpuProfProfile.cpuprofile.json'),
    zeroEx('test/inline-data/exampleProfile.cpuprofile.json'),
  ];
  it('claims modern and legacy profiles from content alone', () => {
    for (const f of profiles) {
      const head = readText(f).slice(0, 64 * 1024);
      expect(cpuprofileImporter.sniff(head, ''), f).toBe(true);
      expect(cpuprofileImporter.sniff(head, 'x.cpuprofile'), f).toBe(true);
    }
  });

  it('does not claim heap profiles, traces (even named .cpuprofile) or 0x output', () => {
    const gz = (f: string) =>
      gunzipSync(readFileSync(f))
        .toString('utf8')
        .slice(0, 64 * 1024);
    const others = [
      readText(speedscope('Chrome/69/Heap-20181005T144546.heapprofile')),
      readText(speedscope('Chrome/116/Trace-20230603T221323.json')), // {"traceEvents":[… ProfileChunk "cpuProfile":{"nodes":…
      readText(speedscope('Chrome/69/simple.json')), // [{"pid":…}] with ProfileChunk events
      readText(speedscope('Chrome/65/simple-timeline.json')),
      readText(zeroEx('test/fixtures/crypto-ticks.json')),
      gz(fixturePath('samples/baseline/0x/stacks.6265.json.gz')),
      gz(fixturePath('samples/baseline/0x/isolate-0x33817a80-6265-6265-v8.log.json.gz')),
      gz(fixturePath('samples/baseline/0x/ticks.json.gz')),
      readText(fixturePath('samples/baseline/0x/meta.json')),
      '{"traceEvents":[{"name":"ProfileChunk","args":{"data":{"cpuProfile":{"nodes":[{"callFrame":{}}]}}}}]}',
      'a;b;c 3\n',
    ];
    for (const head of others) {
      expect(cpuprofileImporter.sniff(head.slice(0, 64 * 1024), ''), head.slice(0, 60)).toBe(false);
      expect(cpuprofileImporter.sniff(head.slice(0, 64 * 1024), 'x.cpuprofile'), head.slice(0, 60)).toBe(false);
    }
  });

  it('lets the file name break a tie only when the content cannot tell', () => {
    expect(cpuprofileImporter.sniff('{"startTime":1,"endTime":2', '')).toBe(false);
    expect(cpuprofileImporter.sniff('{"startTime":1,"endTime":2', 'CPU.1.cpuprofile')).toBe(true);
    expect(cpuprofileImporter.sniff('{"samples":[1,2,3', 'x.cpuprofile.gz')).toBe(true);
  });
});

describe('V8 .cpuprofile: against speedscope', () => {
  // speedscope weighs each sample by the time to the next one, leaves out (root) and (idle), and
  // spans the profile from startTime to endTime (widened to the last sample time for legacy
  // files, whose start and end are whole seconds). Flamelens weighs as Chrome DevTools does: the
  // same, except that the last sample lasts the mean interval instead of nothing (and samples
  // recorded out of order are sorted, not held back, which moves no time in these files).
  const cases: [string, string][] = [
    ['Chrome/65/simple.cpuprofile', speedscope('Chrome/65/simple.cpuprofile')],
    ['Chrome/65/sucrase.cpuprofile', speedscope('Chrome/65/sucrase.cpuprofile')],
    ['node/10.11.0/example.cpuprofile (legacy)', speedscope('node/10.11.0/example.cpuprofile')],
    ['0x samples-cpu-prof.cpuprofile', zeroEx('examples/cpu-profiler/samples-cpu-prof.cpuprofile')],
    ['0x samples.cpuprofile (legacy)', zeroEx('examples/cpu-profiler/samples.cpuprofile')],
  ];
  for (const [label, path] of cases) {
    it(`matches speedscope's exact totals for ${label}`, async () => {
      const expected = json(`${path}.expected.json`).speedscope_run;
      const ref = expected.profiles?.[0] ?? expected;
      const samples = (json(path).samples as number[]).length;
      for (const name of [path.split('/').pop()!, '']) {
        const p = await load(path, name);
        expect(checkProfile(p)).toEqual([]);
        expect(p.format).toBe('cpuprofile');
        expect(p.unit).toBe('samples');
        expect(p.kind).toBe('sampled');
        // one unit of weight per sample, every sample kept with its time
        expect(p.tree.total[0]).toBe(samples);
        expect(p.samples!.length).toBe(samples);
        // the same model, weighed by time, gives speedscope's microseconds and the last sample
        const s = p.samples!;
        const last = p.frames.name[p.tree.frame[s.node[s.length - 1]!]!] === '(idle)' ? 0 : meanInterval(s);
        expect(nonIdle(p, sampleTimeSelf(p)!)).toBeCloseTo(ref.total_non_idle_weight + last, 6);
        expect(p.meta.endTime! - p.meta.startTime!).toBe(ref.total_weight);
        // speedscope has no (idle) frame; every other frame is the same
        expect(p.frames.name.filter((n) => n !== '(idle)').length).toBe(ref.frame_count);
      }
    });
  }

  it('reproduces speedscope stack by stack on simple.cpuprofile, by count and by time', async () => {
    const p = await load(speedscope('Chrome/65/simple.cpuprofile'));
    expect(summary(p)).toEqual({ format: 'cpuprofile', unit: 'samples', total: 29, samples: 29, frames: 5, nodes: 7 });
    expect(collapse(p)).toEqual(['(anonymous) 1', '(anonymous);a;b;d 14', '(anonymous);a;c;d 14']);
    // speedscope's stacks_exact, less its '' stack (the time before the first sample), and with
    // the last sample's mean interval, a 34,345 µs span over 28 intervals = 1,226.6 µs, on its stack
    expect(timeColumn(p.samples!)[28]! - timeColumn(p.samples!)[0]!).toBe(34345);
    expect(collapse(p, sampleTimeSelf(p)!)).toEqual(['(anonymous) 1060', '(anonymous);a;b;d 17002', '(anonymous);a;c;d 17510']);
    // sample i lasts timeDeltas[i+1]: `"timeDeltas":[11575,1060,1045,…,1143]`
    expect(Array.from(sampleDurations(p.samples!).slice(0, 3))).toEqual([1060, 1045, 1270]);
    expect(timeColumn(p.samples!)[0]).toBe(163140599286 + 11575);
    expect(p.meta).toMatchObject({
      producer: 'node --cpu-prof or Chrome DevTools',
      startTime: 163140599286,
      endTime: 163140647178,
      warnings: [],
    });
  });

  it('puts a sample recorded out of order (a negative time delta) in time order, with its own time', async () => {
    const path = zeroEx('examples/cpu-profiler/samples-cpu-prof.cpuprofile');
    const p = await load(path);
    expect(p.meta.warnings).toEqual(['1 sample(s) were recorded out of time order (negative timeDeltas); they were put in time order']);
    const t = timeColumn(p.samples!);
    let backwards = 0;
    for (let i = 1; i < t.length; i++) if (t[i]! < t[i - 1]!) backwards++;
    expect(backwards).toBe(0);
    // the times are the file's, sorted: startTime plus the running sum of timeDeltas
    const raw = json(path) as { startTime: number; timeDeltas: number[] };
    let clock = raw.startTime;
    const times = raw.timeDeltas.map((d) => (clock += d)).sort((a, b) => a - b);
    expect(Array.from(t)).toEqual(times);
  });
});

interface ZeroExNode {
  name: string;
  top: number;
  children: ZeroExNode[];
}

/** 0x's tree as folded stacks: label path → `top`. */
function zeroExStacks(root: ZeroExNode): Map<string, number> {
  const out = new Map<string, number>();
  const todo: [ZeroExNode, string][] = root.children.map((c) => [c, c.name]);
  while (todo.length > 0) {
    const [n, path] = todo.pop()!;
    if (n.top > 0) out.set(path, (out.get(path) ?? 0) + n.top);
    for (const c of n.children) todo.push([c, `${path};${c.name}`]);
  }
  return out;
}

interface RawNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}

/** 0x's frame label: `fn url:line`, with the file's own line number when it is > 0. */
const zeroExLabel = (name: string, url: string, line: number) => `${name}${url ? ` ${url}` : ''}${line > 0 ? `:${line}` : ''}`;

/** Our tree with 0x's labels, leaving out what 0x zeroes. */
function ourStacksAs0x(p: Profile, lineBase: 0 | 1): Map<string, number> {
  const f = p.frames;
  const t = p.tree;
  const label = (i: number) =>
    zeroExLabel(f.name[i] === '(anonymous)' ? '' : f.name[i]!, f.file[i]!, f.line[i]! - (lineBase === 0 ? 1 : 0));
  const path = [''];
  const out = new Map<string, number>();
  for (let i = 1; i < t.length; i++) {
    const parent = path[t.parent[i]!]!;
    path[i] = parent === '' ? label(t.frame[i]!) : `${parent};${label(t.frame[i]!)}`;
    // 0x zeroes childless "(…)" nodes: (idle), (program), (garbage collector); its unnamed
    // frames are '' (our "(anonymous)") and keep their weight
    const name = f.name[t.frame[i]!]!;
    const zeroed = name.startsWith('(') && name !== '(anonymous)' && f.file[t.frame[i]!] === '' && t.end[i] === i + 1;
    if (t.self[i]! > 0 && !zeroed) out.set(path[i]!, (out.get(path[i]!) ?? 0) + t.self[i]!);
  }
  return out;
}

const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

describe("V8 .cpuprofile: against 0x's trees", () => {
  it("matches the inline examples of 0x's own tests (no samples: hitCount, with a warning)", async () => {
    for (const [input, tree, base] of [
      ['exampleCpuProfProfile.cpuprofile.json', 'exampleCpuProfProfile.expected-tree.json', 0],
      ['exampleProfile.cpuprofile.json', 'exampleProfile.expected-tree.json', 1],
    ] as const) {
      for (const name of [input, '']) {
        const p = await load(zeroEx(`test/inline-data/${input}`), name);
        expect(checkProfile(p)).toEqual([]);
        expect(p.samples).toBeUndefined();
        expect(p.meta.warnings[0]).toMatch(/no "samples": weights are V8's per-node hitCount/);
        const expected = json(zeroEx(`test/inline-data/${tree}`));
        expect(ourStacksAs0x(p, base)).toEqual(zeroExStacks(expected));
        expect(sum(ourStacksAs0x(p, base))).toBe(expected.value);
      }
    }
    // the tiny --cpu-prof example: (garbage collector) is kept (0x zeroes it), its 766 hits with it
    const p = await load(zeroEx('test/inline-data/exampleCpuProfProfile.cpuprofile.json'));
    expect(collapse(p)).toEqual([
      '(garbage collector) 766',
      'main one.js:64:29 2',
      'main one.js:64:29;first_function two.js:33:32 3',
      'main one.js:64:29;second_function two.js:65:31 7',
    ]);
  });

  it("matches 0x on samples-cpu-prof.cpuprofile once V8's hitCount/sample disagreement is accounted for", async () => {
    const path = zeroEx('examples/cpu-profiler/samples-cpu-prof.cpuprofile');
    const p = await load(path);
    const ours = ourStacksAs0x(p, 0);
    const theirs = zeroExStacks(json(`${path}.0x-cpu-profile-to-tree.json`));
    expect(sum(theirs)).toBe(14433); // 0x's root value: hitCounts less (idle)/(program)/(GC)
    expect(sum(ours)).toBe(14486); // ours counts samples[]

    // 0x counts hitCount, we count samples[]; per node the two differ a little. Recompute the
    // difference per stack from the raw file: it must explain every stack that differs.
    const raw = json(path) as { nodes: RawNode[]; samples: number[] };
    const byId = new Map(raw.nodes.map((n) => [n.id, n]));
    const parentOf = new Map<number, number>();
    for (const n of raw.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
    const sampled = new Map<number, number>();
    for (const s of raw.samples) sampled.set(s, (sampled.get(s) ?? 0) + 1);
    const expectedGap = new Map<string, number>();
    for (const n of raw.nodes) {
      const gap = (sampled.get(n.id) ?? 0) - n.hitCount;
      if (gap === 0 || (n.callFrame.functionName.startsWith('(') && !n.children?.length)) continue;
      const labels: string[] = [];
      for (let id: number | undefined = n.id; id !== undefined && id !== 1; id = parentOf.get(id)) {
        const c = byId.get(id)!.callFrame;
        labels.push(zeroExLabel(c.functionName, c.url, c.lineNumber));
      }
      const key = labels.reverse().join(';');
      expectedGap.set(key, (expectedGap.get(key) ?? 0) + gap);
    }
    let identical = 0;
    const unexplained: string[] = [];
    for (const key of new Set([...ours.keys(), ...theirs.keys()])) {
      const gap = (ours.get(key) ?? 0) - (theirs.get(key) ?? 0);
      if (gap === 0) identical++;
      if (gap !== (expectedGap.get(key) ?? 0)) unexplained.push(`${gap} ${expectedGap.get(key)} ${key}`);
    }
    expect(unexplained).toEqual([]);
    expect({ stacks0x: theirs.size, ours: ours.size, identical }).toEqual({ stacks0x: 996, ours: 1006, identical: 958 });
  });
});

describe('V8 .cpuprofile: real runs (fixtures/samples)', () => {
  it('loads the baseline and dd-trace profiles', async () => {
    const base = await load(fixturePath('samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile'));
    const dd = await load(fixturePath('samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile'), '');
    for (const p of [base, dd]) {
      expect(checkProfile(p)).toEqual([]);
      expect(p.meta.producer).toBe('node --cpu-prof');
      expect(p.meta.warnings).toEqual([]);
      expect(p.meta.sampleInterval!).toBeGreaterThan(1000); // `--cpu-prof` samples about every 1 ms
      expect(p.meta.sampleInterval!).toBeLessThan(1300);
    }
    expect(summary(base)).toEqual({ format: 'cpuprofile', unit: 'samples', total: 1256, samples: 1256, frames: 391, nodes: 1045 });
    expect(summary(dd)).toEqual({ format: 'cpuprofile', unit: 'samples', total: 2283, samples: 2283, frames: 914, nodes: 3139 });
  });

  it('puts dd-trace frames in the Dependency category with package dd-trace', async () => {
    const p = await load(fixturePath('samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile'));
    const f = p.frames;
    const agent = [...Array(f.length).keys()].filter((i) => f.file[i]!.includes('node_modules/dd-trace/'));
    expect(agent.length).toBeGreaterThan(100);
    for (const i of agent) expect(f.category[i]).toBe(Category.Dependency);
    // the package is the innermost one: dd-trace's own copy of import-in-the-middle is not dd-trace
    const own = agent.filter((i) => !f.file[i]!.includes('node_modules/dd-trace/node_modules/'));
    expect(own.length).toBeGreaterThan(100);
    for (const i of own) expect(f.pkg[i]).toBe('dd-trace');
    const nested = agent.filter((i) => f.file[i]!.includes('node_modules/dd-trace/node_modules/import-in-the-middle/'));
    for (const i of nested) expect(f.pkg[i]).toBe('import-in-the-middle');
    const fastify = f.file.findIndex((file) => file.includes('node_modules/fastify/'));
    expect(f.pkg[fastify]).toBe('fastify');
    // the README says agent frames sit on about two thirds of all stacks
    let onStack = 0;
    const t = p.tree;
    const hasAgent = new Uint8Array(t.length);
    for (let i = 1; i < t.length; i++) hasAgent[i] = hasAgent[t.parent[i]!]! | (f.pkg[t.frame[i]!] === 'dd-trace' ? 1 : 0);
    for (let i = 1; i < t.length; i++) if (hasAgent[i]) onStack += t.self[i]!;
    expect(onStack / t.total[0]!).toBeGreaterThan(0.5);
  });
});
