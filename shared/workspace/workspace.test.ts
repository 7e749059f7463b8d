import { beforeAll, describe, expect, it } from 'vitest';
import { fineDensity } from '../heatmap/heatmap';
import { sampleWeights } from '../model/sample-weights';
import { importProfile } from '../import/import-profile';
import { checkProfile } from '../model/integrity';
import type { Profile } from '../model/types';
import { weighByDefault, weighProfile } from '../model/weigh';
import { fileSource, fixturePath } from '../../test/support/files';
import { folded } from '../../test/support/folded';
import { base64ToBytes, base64ToTyped, bytesToBase64, typedToBase64 } from './base64';
import { DEFAULT_VIEW, MIGRATIONS, type Workspace, WorkspaceError, isWorkspace, isWorkspaceFileName, workspaceDocument } from './workspace';
import { decodeWorkspace, encodeWorkspace } from './workspace-file';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let cpu: Profile;
let trace: Profile;
let stacks: Profile;
let ws: Workspace;

beforeAll(async () => {
  // as the app holds it: V8 samples weighed by time
  cpu = weighByDefault(await importProfile(fileSource(fixturePath('samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile'))));
  trace = await importProfile(fileSource(fixturePath('corpus/speedscope/sample/profiles/trace-event/matching-x.json')));
  stacks = await folded('main;handler;<anon> & co 3\nmain;handler 2\nmain;gc 1', 'agent.folded');
  ws = {
    savedAt: '2026-01-02T03:04:05.000Z',
    runs: [
      { id: 'r1', title: 'baseline', fileName: 'CPU.cpuprofile', path: 'baseline/CPU.cpuprofile', profile: cpu },
      { id: 'r2', title: 'with dd-trace', fileName: 'agent.folded', profile: stacks },
      { id: 'r3', title: 'trace', fileName: 'matching-x.json', profile: trace },
    ],
    baselineIndex: 0,
    view: {
      ...DEFAULT_VIEW,
      layout: 'columns',
      orientation: 'icicle',
      focus: [stacks.frames.key[0]!],
      query: 'dd-trace',
      filterMode: 'only',
      diffView: 'diff',
      noisePercent: 0.5,
    },
    annotations: {
      title: 'dd-trace costs <12%> & more',
      caption: 'Fastify hello world',
      items: [
        {
          id: 'a1',
          kind: 'note',
          text: 'agent "hooks"',
          anchor: { keyPath: [stacks.frames.key[0]!, stacks.frames.key[1]!] },
          createdAt: 1,
        },
        { id: 'a2', kind: 'box', text: '', anchor: { region: { x: 0.1, y: 0.2, w: 0.3, h: 0.4 } }, runId: 'r2', createdAt: 2 },
      ],
    },
    ranges: [{ runId: 'r1', start: 1.5, end: 2.25 }],
  };
});

async function gunzipText(bytes: Uint8Array): Promise<string> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).text();
}

/** The workspace as one JSON text, profiles embedded (as version 1 was written, and as a hand-edited file may be). */
async function docOf(w: Workspace): Promise<Doc> {
  return JSON.parse(JSON.stringify(workspaceDocument(w, true))) as Doc;
}

const bytesOf = (doc: unknown) => new TextEncoder().encode(JSON.stringify(doc));

async function failure(bytes: Uint8Array): Promise<string> {
  try {
    await decodeWorkspace(bytes, 'evil.flamelens');
  } catch (e) {
    expect(e).toBeInstanceOf(WorkspaceError);
    expect((e as Error).message.startsWith('evil.flamelens: ')).toBe(true);
    return (e as Error).message;
  }
  throw new Error('expected the workspace to be refused');
}

async function mutated(fn: (doc: Doc) => void): Promise<string> {
  const doc = await docOf(ws);
  fn(doc);
  return failure(bytesOf(doc));
}

describe('base64', () => {
  it('round-trips bytes of every length and refuses malformed text', () => {
    for (let n = 0; n < 10; n++) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 97 + 13) & 255);
      const text = bytesToBase64(b);
      expect(text).toBe(Buffer.from(b).toString('base64'));
      expect(base64ToBytes(text)).toEqual(b);
    }
    expect(base64ToBytes('abc')).toBeUndefined();
    expect(base64ToBytes('ab=c')).toBeUndefined();
    expect(base64ToBytes('ab\u00e9c')).toBeUndefined();
    const f = new Float64Array([1.5, NaN, -0, Infinity]);
    expect(base64ToTyped(typedToBase64(f), Float64Array, 4)).toEqual(f);
    expect(base64ToTyped(typedToBase64(f), Float64Array, 3)).toBeUndefined();
  });
});

describe('workspace file', () => {
  it('round-trips runs, settings, annotations and ranges', async () => {
    const bytes = await encodeWorkspace(ws);
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    const back = await decodeWorkspace(bytes, 'a.flamelens');
    expect(back.savedAt).toBe(ws.savedAt);
    expect(back.view).toEqual(ws.view);
    expect(back.annotations).toEqual(ws.annotations);
    expect(back.ranges).toEqual(ws.ranges);
    expect(back.baselineIndex).toBe(0);
    expect(back.runs.map((r) => [r.id, r.title, r.fileName, r.path])).toEqual(ws.runs.map((r) => [r.id, r.title, r.fileName, r.path]));
    for (let i = 0; i < ws.runs.length; i++) {
      const a = ws.runs[i]!.profile;
      const b = back.runs[i]!.profile;
      expect(checkProfile(b)).toEqual([]);
      // totals are rebuilt from self weights: equal up to summation order
      const { total: ta, ...treeA } = a.tree;
      const { total: tb, ...treeB } = b.tree;
      expect(treeB).toEqual(treeA);
      for (let k = 0; k < ta.length; k++) expect(tb[k]).toBeCloseTo(ta[k]!, 6);
      // the timeline's density is worked out on reading, as an import works it out
      expect(b.density).toEqual(fineDensity(b));
      expect({ ...b, tree: undefined, density: undefined }).toEqual({ ...a, tree: undefined });
    }
    expect(back.runs[0]!.profile.samples!.length).toBeGreaterThan(0);
    expect(back.runs[2]!.profile.traceStats!.length).toBeGreaterThan(0);
  });

  it('weighs a run saved in sample counts by time, as a new import of the same file is', async () => {
    const counted = weighProfile(cpu, 'samples');
    expect(counted.unit).toBe('samples');
    const back = await decodeWorkspace(
      await encodeWorkspace({ ...ws, runs: [{ ...ws.runs[0]!, profile: counted }, ...ws.runs.slice(1)] }),
      'old.flamelens',
    );
    const p = back.runs[0]!.profile;
    expect(p.unit).toBe('microseconds');
    expect(checkProfile(p)).toEqual([]);
    expect(p.tree.total[0]).toBeCloseTo(cpu.tree.total[0]!, 6);
    // (a file written before weights that follow from the unit were left out stores them: the same values)
    expect(sampleWeights(p.samples!, p.unit)).toEqual(sampleWeights(cpu.samples!, cpu.unit));
  });

  it("keeps a run's threads, and which thread each sample is of", async () => {
    const all = await importProfile(fileSource(fixturePath('corpus/devtools-frontend/two-workers.json.gz')), {
      options: { thread: 'all' },
    });
    expect(all.samples!.thread).toBeDefined();
    const back = await decodeWorkspace(
      await encodeWorkspace({ ...ws, runs: [{ ...ws.runs[0]!, profile: all }, ...ws.runs.slice(1)] }),
      'threads.flamelens',
    );
    const p = back.runs[0]!.profile;
    expect(checkProfile(p)).toEqual([]);
    expect(p.meta.threads).toEqual(all.meta.threads);
    expect(Array.from(p.samples!.thread!)).toEqual(Array.from(all.samples!.thread!));
    // weighed by time per thread, as a new import is
    expect(p.tree.total[0]).toBeCloseTo(weighByDefault(all).tree.total[0]!, 3);
  });

  it('keeps the Node.js and V8 versions a trace names', async () => {
    const node = await importProfile(fileSource(fixturePath('samples/ddtrace/node_trace.1.log.gz')));
    expect(node.meta.runtime?.node).toMatch(/^\d+\.\d+\.\d+$/);
    const back = await decodeWorkspace(
      await encodeWorkspace({ ...ws, runs: [{ ...ws.runs[0]!, profile: node }, ...ws.runs.slice(1)] }),
      'runtime.flamelens',
    );
    expect(back.runs[0]!.profile.meta.runtime).toEqual(node.meta.runtime);
  });

  it('leaves out a time range on a run without sample timestamps, and says so', async () => {
    const cells = { a: { column: 0, row: 49 }, b: { column: 1, row: 0 }, rows: 50, includeIdle: false };
    const bytes = await encodeWorkspace({
      ...ws,
      ranges: [...ws.ranges, { runId: 'r2', start: 1, end: 2, cells }, { runId: 'r3', start: 0, end: 1 }],
    });
    const back = await decodeWorkspace(bytes, 'shared.flamelens');
    expect(back.ranges).toEqual(ws.ranges);
    expect(back.dropped).toEqual([
      'shared.flamelens: ranges[1] (a time range on run "with dd-trace") was left out: that run has no sample timestamps.',
      'shared.flamelens: ranges[2] (a time range on run "trace") was left out: that run has no sample timestamps.',
    ]);
    expect((await decodeWorkspace(await encodeWorkspace(ws), 'a.flamelens')).dropped).toBeUndefined();
  });

  it('keeps which thread a run of every thread shows, and checks it names one of them', async () => {
    const all = weighByDefault(
      await importProfile(fileSource(fixturePath('corpus/devtools-frontend/two-workers.json.gz')), { options: { thread: 'all' } }),
    );
    const withThread = { ...ws, runs: [{ ...ws.runs[0]!, profile: all, thread: '71044:37651' }, ...ws.runs.slice(1)] };
    const back = await decodeWorkspace(await encodeWorkspace(withThread), 'threads.flamelens');
    expect(back.runs[0]!.thread).toBe('71044:37651');
    expect(back.runs[1]!.thread).toBeUndefined();
    const doc = await docOf(withThread);
    doc.runs[0].thread = '1:2';
    expect(await failure(bytesOf(doc))).toMatch(/runs\[0\]\.thread.*"1:2" is not one of the threads/);
    doc.runs[0].thread = 'all';
    doc.runs[1].thread = 'all'; // a run of one thread
    expect(await failure(bytesOf(doc))).toMatch(/runs\[1\]\.thread/);
  });

  it('keeps what a recorded comparison measured of each run under load, each value checked', async () => {
    const measured = { runs: 7, requests: 10_000, seconds: 2.49, overhead: { median: 3.82, low: 3.77, high: 3.88 } };
    const withFigures = {
      ...ws,
      runs: [
        { ...ws.runs[0]!, measured: { runs: 7, requests: 10_000, seconds: 0.52 } },
        { ...ws.runs[1]!, measured },
      ],
    };
    const back = await decodeWorkspace(await encodeWorkspace(withFigures), 'recorded.flamelens');
    expect(back.runs.map((r) => r.measured)).toEqual([{ runs: 7, requests: 10_000, seconds: 0.52 }, measured]);
    expect((await decodeWorkspace(await encodeWorkspace(ws), 'plain.flamelens')).runs[0]!.measured).toBeUndefined();
    const doc = await docOf(withFigures);
    doc.runs[1].measured.runs = 0;
    expect(await failure(bytesOf(doc))).toMatch(/runs\[1\]\.measured\.runs: is 0, below/);
    doc.runs[1].measured.runs = 7;
    doc.runs[1].measured.overhead.low = 'x';
    expect(await failure(bytesOf(doc))).toMatch(/runs\[1\]\.measured\.overhead\.low: expected a number/);
    doc.runs[1].measured.overhead = { median: 0.1, low: 0.3, high: 0.2 };
    expect(await failure(bytesOf(doc))).toMatch(/runs\[1\]\.measured\.overhead: the interval's low end/);
  });

  it('is identified by its decompressed head and its extension', async () => {
    const head = (await gunzipText(await encodeWorkspace(ws))).slice(0, 200);
    expect(isWorkspace(head)).toBe(true);
    expect(isWorkspace('{"traceEvents":[]}')).toBe(false);
    expect(isWorkspaceFileName('Agent Comparison.FLAMELENS')).toBe(true);
    expect(isWorkspaceFileName('a.cpuprofile')).toBe(false);
  });

  it('opens plain (not gzipped) JSON and fills in view settings a file lacks', async () => {
    const doc = await docOf(ws);
    delete doc.view.palette;
    delete doc.ranges;
    const back = await decodeWorkspace(bytesOf(doc), 'plain.flamelens');
    expect(back.view.palette).toBe('default');
    expect(back.ranges).toEqual([]);
  });

  it('opens a file without the normalization or entry matching as it was saved, and keeps what a file says', async () => {
    const doc = await docOf(ws);
    expect([doc.view.normalize, doc.view.matchEntry]).toEqual(['absolute', true]);
    delete doc.view.normalize;
    delete doc.view.matchEntry;
    // written before these settings existed: relative deltas, entry scripts not matched
    const old = await decodeWorkspace(bytesOf(doc), 'old.flamelens');
    expect([old.view.normalize, old.view.matchEntry]).toEqual(['relative', false]);
    doc.view.normalize = 'absolute';
    doc.view.matchEntry = false;
    const kept = await decodeWorkspace(bytesOf(doc), 'kept.flamelens');
    expect([kept.view.normalize, kept.view.matchEntry]).toEqual(['absolute', false]);
    doc.view.matchEntry = 'yes';
    await expect(decodeWorkspace(bytesOf(doc), 'bad.flamelens')).rejects.toThrow(
      /bad\.flamelens.*view\.matchEntry: expected true or false, found/,
    );
  });

  it('fills in the save time when empty and saves only known settings', async () => {
    const view = { ...ws.view, hoveredKey: 'x', runs: [1, 2] } as Workspace['view'];
    const doc = await docOf({ ...ws, savedAt: '', view });
    expect(Number.isNaN(Date.parse(doc.savedAt))).toBe(false);
    expect(Object.keys(doc.view).sort()).toEqual(Object.keys(DEFAULT_VIEW).sort());
  });

  it('brings older versions forward through the migration table', async () => {
    const doc = await docOf(ws);
    doc.version = 0;
    doc.legacyTitle = doc.annotations.title;
    delete doc.annotations;
    const migrations = {
      ...MIGRATIONS,
      0: (d: Doc) => ({ ...d, version: 1, annotations: { title: d.legacyTitle, caption: '', items: [] } }),
    };
    const back = await decodeWorkspace(bytesOf(doc), 'old.flamelens', { migrations });
    expect(back.annotations.title).toBe(ws.annotations.title);
    expect(await failure(bytesOf(doc))).toMatch(/version 0 is no longer supported/);
  });
});

describe('hostile workspaces give a clear error naming the file', () => {
  it('refuses what is not a workspace', async () => {
    expect(await failure(new Uint8Array([1, 2, 3, 255]))).toMatch(/not a Flamelens workspace/);
    expect(await failure(bytesOf({ traceEvents: [] }))).toMatch(/not a Flamelens workspace/);
    expect(await failure(new TextEncoder().encode('{"format":"flamelens-workspace","version":1,'))).toMatch(/not valid JSON/);
  });

  it('refuses damaged and oversized compression', async () => {
    const bytes = await encodeWorkspace(ws);
    expect(await failure(bytes.subarray(0, bytes.length >> 1))).toMatch(/gzip compression does not decode/);
    await expect(decodeWorkspace(bytes, 'big.flamelens', { maxBytes: 1000 })).rejects.toThrow(/big.flamelens: is larger than/);
  });

  it('refuses files from a newer Flamelens', async () => {
    expect(await mutated((d) => (d.version = 4))).toMatch(/newer Flamelens \(workspace version 4\)/);
    // a streamed file's head line says so before anything else is read
    const streamed = new TextEncoder().encode(`${JSON.stringify({ ...workspaceDocument(ws), version: 4 })}\n\u0000\u0001binary`);
    expect(await failure(streamed)).toMatch(/newer Flamelens \(workspace version 4\)/);
  });

  it('names the field that is wrong', async () => {
    expect(await mutated((d) => (d.runs = 'x'))).toMatch(/runs: expected a list, found text "x"/);
    expect(await mutated((d) => (d.runs[1].profile.unit = 'parsecs'))).toMatch(/runs\[1\]\.profile\.unit: expected one of/);
    expect(await mutated((d) => (d.runs[0].profile.tree.self = 'AAAA'))).toMatch(/runs\[0\]\.profile\.tree\.self: expected base64 text/);
    expect(await mutated((d) => (d.runs[0].profile.frames.name = [1]))).toMatch(/runs\[0\]\.profile\.frames\.name: has 1 entries/);
    expect(await mutated((d) => (d.runs[0].path = 12))).toMatch(/runs\[0\]\.path: expected text, found/);
    expect(await mutated((d) => (d.baselineIndex = 7))).toMatch(/baselineIndex: is 7, above/);
    expect(await mutated((d) => (d.view.layout = 'grid'))).toMatch(/view\.layout: expected one of "rows", "columns"/);
    expect(await mutated((d) => (d.annotations.items[1].runId = 'ghost'))).toMatch(/annotations\.items\[1\]\.runId: refers to run "ghost"/);
    expect(await mutated((d) => (d.annotations.items[0].anchor = { somewhere: 1 }))).toMatch(/items\[0\]\.anchor: expected a frame/);
    expect(await mutated((d) => (d.annotations.items[1].id = 'a1'))).toMatch(/"a1" is used twice/);
    expect(await mutated((d) => (d.ranges[0].end = 0))).toMatch(/ranges\[0\]: ends \(0\) before it starts/);
    expect(await mutated((d) => (d.runs[1].id = 'r1'))).toMatch(/runs\[1\]\.id: "r1" is used twice/);
  });

  it('checks the call tree', async () => {
    const stackBytes = (xs: number[]) => typedToBase64(Int32Array.from(xs));
    // main;handler;x 3 / main;handler 2 / main;gc 1: nodes root, main, handler, x, gc
    expect(stacks.tree.length).toBe(5);
    expect(await mutated((d) => (d.runs[1].profile.tree.parent = stackBytes([-1, 0, 1, 0, 1])))).toMatch(
      /tree\.parent\[4\]: node 4 has parent 1, .*not in pre-order/,
    );
    expect(await mutated((d) => (d.runs[1].profile.tree.frame = stackBytes([-1, 0, 1, 2, 99])))).toMatch(
      /profile is inconsistent: node 4 points at frame 99/,
    );
    const negative = typedToBase64(Float64Array.from([0, 0, 2, -3, 1]));
    expect(await mutated((d) => (d.runs[1].profile.tree.self = negative))).toMatch(/node 3 has self weight -3/);
  });

  it('keeps "__proto__" keys as plain data', async () => {
    const doc = await docOf(ws);
    doc.runs[0].profile.meta.threadNames = JSON.parse('{"__proto__": "evil", "1:2": "main"}');
    const back = await decodeWorkspace(bytesOf(doc), 'x.flamelens');
    const names = back.runs[0]!.profile.meta.threadNames!;
    expect(Object.getPrototypeOf(names)).toBe(Object.prototype);
    expect(Object.keys(names)).toEqual(['__proto__', '1:2']);
  });

  it('survives deep nesting', async () => {
    const deep = `{"format":"flamelens-workspace","version":1,"runs":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    expect(await failure(new TextEncoder().encode(deep))).toMatch(/evil\.flamelens: /);
  });
});
