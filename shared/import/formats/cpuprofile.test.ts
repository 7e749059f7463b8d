import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { collapse } from '../../model/collapse';
import { checkProfile } from '../../model/integrity';
import { sampleDurations, sampleTimeSelf } from '../../model/sample-time';
import { Category, type Profile, Tier } from '../../model/types';
import { fileSource, fixturePath, readText } from '../../test/files';
import { ImportError } from '../errors';
import { importProfile } from '../import-profile';
import { bytesSource, openSource } from '../source';
import { cpuprofileImporter } from './cpuprofile';

const speedscope = (f: string) => fixturePath('corpus/speedscope/sample/profiles', f);
const zeroEx = (f: string) => fixturePath('corpus/0x', f);
const json = (path: string) => JSON.parse(readText(path));

/** A small readable picture of a profile. */
function summary(p: Profile) {
  return {
    format: p.format,
    unit: p.unit,
    total: p.tree.total[0],
    samples: p.samples?.length,
    frames: p.frames.length,
    nodes: p.tree.length,
  };
}

/** Sum of `weights` over call-tree nodes whose frame is not `(idle)` (speedscope's "non-idle" weight). */
function nonIdle(p: Profile, weights: Float64Array): number {
  let sum = 0;
  for (let i = 1; i < p.tree.length; i++) if (p.frames.name[p.tree.frame[i]!] !== '(idle)') sum += weights[i]!;
  return sum;
}

const load = (path: string, name?: string) => importProfile(fileSource(path, name));
const fromText = (text: string, name = 't.cpuprofile') => importProfile(bytesSource(name, text, 7));

/** A modern profile from `[id, name, url, line, column, children]` rows (0-based positions, as V8 writes them). */
function modern(rows: [number, string, string, number, number, number[]][], samples: number[], deltas?: number[]): string {
  const nodes = rows.map(([id, functionName, url, lineNumber, columnNumber, children]) => ({
    id,
    callFrame: { functionName, scriptId: '1', url, lineNumber, columnNumber },
    hitCount: 0,
    children,
  }));
  return JSON.stringify({
    nodes,
    startTime: 1000,
    endTime: 1000 + samples.length * 10,
    samples,
    timeDeltas: deltas ?? samples.map(() => 10),
  });
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
  // speedscope weighs each sample by the time to the next one (the last sample gets nothing),
  // leaves out (root) and (idle), and spans the profile from startTime to endTime (widened to
  // the last sample time for legacy files, whose start and end are whole seconds).
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
        // the same model, weighed by time, gives speedscope's microseconds
        expect(nonIdle(p, sampleTimeSelf(p)!)).toBe(ref.total_non_idle_weight);
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
    // speedscope's stacks_exact, less its '' stack (the time before the first sample)
    expect(collapse(p, sampleTimeSelf(p)!)).toEqual(['(anonymous) 1060', '(anonymous);a;b;d 17002', '(anonymous);a;c;d 16283']);
    // sample i lasts timeDeltas[i+1]: `"timeDeltas":[11575,1060,1045,…,1143]`
    expect(Array.from(sampleDurations(p.samples!).slice(0, 3))).toEqual([1060, 1045, 1270]);
    expect(p.samples!.time[0]).toBe(163140599286 + 11575);
    expect(p.meta).toMatchObject({
      producer: 'node --cpu-prof or Chrome DevTools',
      startTime: 163140599286,
      endTime: 163140647178,
      warnings: [],
    });
  });

  it('keeps sample times monotonic where a time delta is negative', async () => {
    const p = await load(zeroEx('examples/cpu-profiler/samples-cpu-prof.cpuprofile'));
    expect(p.meta.warnings).toEqual(['1 sample time(s) go back in time; they were taken as the latest time before them']);
    const t = p.samples!.time;
    let backwards = 0;
    for (let i = 1; i < t.length; i++) if (t[i]! < t[i - 1]!) backwards++;
    expect(backwards).toBe(0);
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

describe('V8 .cpuprofile: frames and labels', () => {
  it('writes NAME FILE:LINE:COLUMN, 1-based, with (anonymous), bare pseudo-frames and no (root)', async () => {
    const text = modern(
      [
        [1, '(root)', '', -1, -1, [2, 3, 4, 5]],
        [2, '', 'file:///srv/app/server.js', 0, 0, [6]],
        [3, '(program)', '', -1, -1, []],
        [4, '(garbage collector)', '', -1, -1, []],
        [5, '(idle)', '', -1, -1, []],
        [6, '*handler', 'file:///srv/app/server.js', 11, 2, []],
      ],
      [6, 6, 3, 4, 5, 2],
    );
    const p = await fromText(text);
    expect(checkProfile(p)).toEqual([]);
    expect(collapse(p)).toEqual([
      '(anonymous) file:///srv/app/server.js:1:1 1',
      '(anonymous) file:///srv/app/server.js:1:1;handler file:///srv/app/server.js:12:3 2',
      '(garbage collector) 1',
      '(idle) 1',
      '(program) 1',
    ]);
    const handler = p.frames.name.indexOf('handler');
    expect(p.frames.tier[handler]).toBe(Tier.Optimized);
    expect(p.frames.category[p.frames.name.indexOf('(garbage collector)')]).toBe(Category.GC);
    expect(p.frames.category[p.frames.name.indexOf('(idle)')]).toBe(Category.Idle);
  });

  it('keeps legacy line numbers, which count from 1 already', async () => {
    // `{"functionName":"parserOnHeadersComplete","url":"_http_common.js","lineNumber":64,…}`
    const p = await load(zeroEx('examples/cpu-profiler/samples.cpuprofile'));
    const i = p.frames.name.indexOf('parserOnHeadersComplete');
    expect([p.frames.file[i], p.frames.line[i], p.frames.column[i], p.frames.category[i]]).toEqual([
      '_http_common.js',
      64,
      0,
      Category.NodeCore,
    ]);
  });

  it('reads nodes out of id order that name their parent instead of their children', async () => {
    const nodes = [
      { id: 3, parent: 2, callFrame: { functionName: 'leaf', url: 'a.js', lineNumber: 4, columnNumber: 0 } },
      { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1, columnNumber: -1 } },
      { id: 2, parent: 1, callFrame: { functionName: 'main', url: 'a.js', lineNumber: 0, columnNumber: 0 } },
    ];
    const p = await fromText(JSON.stringify({ nodes, startTime: 0, endTime: 30, samples: [3, 2, 3], timeDeltas: [1, 10, 10] }), '');
    expect(collapse(p)).toEqual(['main a.js:1:1 1', 'main a.js:1:1;leaf a.js:5:1 2']);
    expect(Array.from(p.samples!.time)).toEqual([1, 11, 21]);
  });
});

describe('V8 .cpuprofile: damaged and unusual files', () => {
  const simple = readText(speedscope('Chrome/65/simple.cpuprofile'));

  it('reads gzip, CRLF and a byte-order mark', async () => {
    const expected = summary(await fromText(simple));
    const pretty = '\uFEFF' + JSON.stringify(JSON.parse(simple), null, 2).replace(/\n/g, '\r\n');
    const variants = [
      bytesSource('simple.cpuprofile.gz', new Uint8Array(gzipSync(simple)), 100),
      bytesSource('', new Uint8Array(gzipSync(simple))),
      bytesSource('', pretty, 13),
    ];
    for (const v of variants) {
      const p = await importProfile(v);
      expect(summary(p)).toEqual(expected);
      expect(collapse(p)).toEqual(['(anonymous) 1', '(anonymous);a;b;d 14', '(anonymous);a;c;d 14']);
    }
  });

  it('rejects a truncated file, naming the byte where it ends', async () => {
    // cut inside "nodes", inside "samples" and inside "timeDeltas"
    for (const cut of [300, simple.indexOf('"samples"') + 20, simple.length - 10]) {
      const err = await fromText(simple.slice(0, cut)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImportError);
      expect((err as ImportError).offset).toBe(cut);
      expect((err as ImportError).message).toMatch(new RegExp(`\\(byte ${cut}\\): the file ends before the profile is complete`));
    }
  });

  it('says what is wrong with files that are not CPU profiles', async () => {
    const reject = async (text: string) => {
      const source = await openSource(bytesSource('x.cpuprofile', text));
      const err = await cpuprofileImporter.parse({ file: 'x.cpuprofile', source, options: {} }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImportError);
      return (err as ImportError).message;
    };
    expect(await reject('{"startTime":1,"endTime":2}')).toBe('x.cpuprofile: not a V8 CPU profile: no "nodes" (and no legacy "head")');
    expect(await reject('[{"ph":"X"}]')).toMatch(/\(byte 1\): not a V8 CPU profile: the file is a JSON array/);
    expect(await reject('{"nodes":[{"id":1,"callFrame":{}}],"samples":[1,"x"]}')).toBe(
      'x.cpuprofile (byte 48): "samples" holds "x", expected a number',
    );
    expect(await reject('{"nodes":[{"callFrame":{}}]}')).toBe('x.cpuprofile (byte 10): a node in "nodes" has no numeric "id"');
  });

  it('builds a 50,000-deep stack without recursion, from children or from parent links', async () => {
    const depth = 50_000;
    const rows: [number, string, string, number, number, number[]][] = [[1, '(root)', '', -1, -1, [2]]];
    for (let id = 2; id <= depth; id++) rows.push([id, `f${id % 5}`, 'deep.js', id % 100, 0, id < depth ? [id + 1] : []]);
    rows.reverse(); // leaf first: children are named before they are read
    const big = (text: string) => importProfile(bytesSource('deep.cpuprofile', text));
    const viaChildren = await big(modern(rows, [depth, depth, 2]));
    const nodes = rows.map(([id, functionName, url, lineNumber]) => ({
      id,
      ...(id > 1 ? { parent: id - 1 } : {}),
      callFrame: { functionName, url, lineNumber, columnNumber: 0 },
    }));
    const viaParents = await big(JSON.stringify({ nodes, startTime: 0, endTime: 3, samples: [depth, depth, 2], timeDeltas: [1, 1, 1] }));
    for (const p of [viaChildren, viaParents]) {
      expect(checkProfile(p)).toEqual([]);
      expect(summary(p)).toMatchObject({ total: 3, nodes: depth, frames: 100 });
      expect(p.tree.depth.reduce((a, b) => Math.max(a, b), 0)).toBe(depth - 1);
      const stacks = collapse(p);
      expect(stacks.map((s) => s.split(';').length)).toEqual([1, depth - 1]);
    }
  });

  it('survives a parent cycle and ids that point nowhere, with warnings', async () => {
    const nodes = [
      { id: 1, callFrame: { functionName: '(root)', url: '' }, children: [2, 99] },
      { id: 2, callFrame: { functionName: 'main', url: 'a.js', lineNumber: 0 }, children: [] },
      // 3 → 4 → 3: a loop with no way to the root
      { id: 3, parent: 4, callFrame: { functionName: 'x', url: 'a.js', lineNumber: 1 } },
      { id: 4, parent: 3, callFrame: { functionName: 'y', url: 'a.js', lineNumber: 2 } },
      { id: 5, parent: 77, callFrame: { functionName: 'orphan', url: 'a.js', lineNumber: 3 } },
    ];
    const p = await fromText(JSON.stringify({ nodes, startTime: 0, endTime: 5, samples: [2, 3, 4, 5, 55], timeDeltas: [1, 1, 1, 1, 1] }));
    expect(checkProfile(p)).toEqual([]);
    expect(p.tree.total[0]).toBe(4);
    expect(collapse(p)).toEqual(['main a.js:1:0 1', 'orphan a.js:4:0 1', 'y a.js:3:0 1', 'y a.js:3:0;x a.js:2:0 1']);
    expect(p.meta.warnings).toEqual([
      '2 parent or child link(s) name node ids that are not in the file (first: node 5 names parent 77); nodes without a parent were put under the root',
      '1 cycle(s) in the parent links (first through node 4); each was cut and put under the root',
      '1 sample(s) name node ids that are not in the file (first: 55); they were left out',
    ]);
  });

  it('handles a self-parent and a sample of (root) without hanging', async () => {
    const nodes = [
      { id: 1, callFrame: { functionName: '(root)', url: '' } },
      { id: 2, parent: 2, callFrame: { functionName: 'me', url: '' } },
    ];
    const p = await fromText(JSON.stringify({ nodes, samples: [1, 2], timeDeltas: [0, 5] }));
    expect(checkProfile(p)).toEqual([]);
    expect(p.tree.total[0]).toBe(2);
    expect(collapse(p)).toEqual(['me 1']);
  });

  it('warns when timeDeltas are fewer than samples', async () => {
    const p = await fromText(
      modern(
        [
          [1, '(root)', '', -1, -1, [2]],
          [2, 'f', '', 0, 0, []],
        ],
        [2, 2, 2],
        [5, 5],
      ),
    );
    expect(p.meta.warnings).toEqual(['"timeDeltas" has 2 entries for 3 samples; the samples without one have no time']);
    expect(Array.from(p.samples!.time)).toEqual([1005, 1010, NaN]);
  });
});
