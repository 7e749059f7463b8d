import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { fixturePath } from '../../test/support/files';
import { tinySnapshot } from '../../test/support/heapsnapshot';
import { heapCommand } from './heap';
import { type Captured, captureFailure } from '../../test/support/cli-output';

function run(...args: string[]): Promise<Captured> {
  return captureFailure((out) => heapCommand.run(args, out));
}
afterEach(() => vi.restoreAllMocks());

const BASE = fixturePath('samples/baseline/heap/after.heapsnapshot.gz');
const DD = fixturePath('samples/ddtrace/heap/after.heapsnapshot.gz');

interface Raw {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** count and self size per "type\0name", straight from the file's JSON */
function rawClasses(path: string): {
  nodes: number;
  edges: number;
  total: number;
  classes: Map<string, { count: number; selfSize: number }>;
} {
  const raw = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as Raw;
  const f = raw.snapshot.meta.node_fields;
  const [t, n, s] = ['type', 'name', 'self_size'].map((x) => f.indexOf(x));
  const classes = new Map<string, { count: number; selfSize: number }>();
  let total = 0;
  for (let i = 0; i < raw.nodes.length; i += f.length) {
    const key = `${raw.snapshot.meta.node_types[0][raw.nodes[i + t!]!]}\u0000${raw.strings[raw.nodes[i + n!]!]}`;
    const c = classes.get(key) ?? { count: 0, selfSize: 0 };
    c.count++;
    c.selfSize += raw.nodes[i + s!]!;
    total += raw.nodes[i + s!]!;
    classes.set(key, c);
  }
  return { nodes: raw.nodes.length / f.length, edges: raw.edges.length / 3, total, classes };
}

const dir = mkdtempSync(join(tmpdir(), 'flamelens-heap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('flamelens heap', () => {
  it('--json: totals, one class per type and name, the 25 largest objects', async () => {
    const r = await run(BASE, '--json');
    expect(r.error).toBeUndefined();
    const got = JSON.parse(r.out) as {
      nodes: number;
      edges: number;
      totalSize: number;
      classes: { type: string; name: string; count: number; selfSize: number; retainedSize: number }[];
      largest: { id: number; type: string; name: string; selfSize: number; retainedSize: number }[];
    };
    expect(Object.keys(got)).toEqual(['nodes', 'edges', 'totalSize', 'classes', 'largest']);
    const raw = rawClasses(BASE);
    expect([got.nodes, got.edges, got.totalSize]).toEqual([raw.nodes, raw.edges, raw.total]);
    expect(got.classes).toHaveLength(raw.classes.size);
    for (const c of got.classes) {
      expect(Object.keys(c)).toEqual(['type', 'name', 'count', 'selfSize', 'retainedSize']);
      expect({ count: c.count, selfSize: c.selfSize }).toEqual(raw.classes.get(`${c.type}\u0000${c.name}`));
      expect(c.retainedSize).toBeGreaterThanOrEqual(c.selfSize);
    }
    expect(got.largest).toHaveLength(25);
    expect(Object.keys(got.largest[0]!)).toEqual(['id', 'type', 'name', 'selfSize', 'retainedSize']);
    for (let i = 1; i < 25; i++) expect(got.largest[i]!.retainedSize).toBeLessThanOrEqual(got.largest[i - 1]!.retainedSize);
  });

  it('BASE RUN --json: each class in both, largest change in self size first', async () => {
    const r = await run(BASE, DD, '--json');
    expect(r.error).toBeUndefined();
    const got = JSON.parse(r.out) as {
      classes: { type: string; name: string; base: object; run: object; delta: { count: number; selfSize: number } }[];
    };
    expect(Object.keys(got)).toEqual(['classes']);
    const [b, d] = [rawClasses(BASE).classes, rawClasses(DD).classes];
    expect(got.classes).toHaveLength(new Set([...b.keys(), ...d.keys()]).size);
    const none = { count: 0, selfSize: 0 };
    for (const c of got.classes.slice(0, 200)) {
      const key = `${c.type}\u0000${c.name}`;
      const [x, y] = [b.get(key) ?? none, d.get(key) ?? none];
      expect(c).toEqual({
        type: c.type,
        name: c.name,
        base: x,
        run: y,
        delta: { count: y.count - x.count, selfSize: y.selfSize - x.selfSize },
      });
    }
    for (let i = 1; i < got.classes.length; i++)
      expect(Math.abs(got.classes[i]!.delta.selfSize)).toBeLessThanOrEqual(Math.abs(got.classes[i - 1]!.delta.selfSize));
  });

  it('--match: what the agent keeps alive, nothing in the baseline', async () => {
    const r = await run(BASE, DD, '--json', '--match', 'dd-trace');
    const m = (
      JSON.parse(r.out) as { match: { base: { retainedSize: number; objects: number }; run: { retainedSize: number; objects: number } } }
    ).match;
    expect(m.base).toEqual({ objects: 0, retainedSize: 0 });
    expect(m.run.objects).toBeGreaterThan(100);
    expect(m.run.retainedSize).toBeGreaterThan(10_000);
    const text = await run(BASE, DD, '--match', 'dd-trace');
    expect(text.out).toMatch(/"dd-trace" keeps 0 bytes alive in baseline \(0 objects\) and [\d,]+ in ddtrace/);
  });

  it('--match counts each byte once: closures by their script, objects by constructor', async () => {
    // root → wrap (closure of dd-trace) → Span(100) → Tags(50); root → Span(7); the closure's
    // SharedFunctionInfo names its script
    const text = tinySnapshot(
      [
        { name: 'root', size: 0, type: 'synthetic' },
        { name: 'wrap', size: 32, type: 'closure' },
        { name: 'wrap', size: 40, type: 'code' },
        { name: '/srv/app/node_modules/dd-trace/packages/shim.js', size: 8, type: 'code' },
        { name: 'Span', size: 100 },
        { name: 'Tags', size: 50 },
        { name: 'Span', size: 7 },
      ],
      [
        [0, 1],
        [1, 2, 'internal', 'shared'],
        [2, 3, 'internal', 'script_or_debug_info'],
        [1, 4],
        [4, 5],
        [0, 6],
      ],
    );
    const file = join(dir, 'tiny.heapsnapshot');
    writeFileSync(file, text);
    const byScript = JSON.parse((await run(file, '--json', '--match', 'node_modules/dd-trace')).out) as { match: object };
    expect(byScript.match).toEqual({ pattern: 'node_modules/dd-trace', objects: 1, retainedSize: 32 + 40 + 8 + 100 + 50 });
    const byName = JSON.parse((await run(file, '--json', '--match', '/^(Span|Tags)$/')).out) as { match: object };
    expect(byName.match).toEqual({ pattern: '/^(Span|Tags)$/', objects: 3, retainedSize: 150 + 7 });
    const summary = JSON.parse((await run(file, '--json')).out) as {
      classes: { name: string; type: string; retainedSize: number; count: number }[];
    };
    expect(summary.classes.find((c) => c.name === 'Span')).toEqual({
      type: 'object',
      name: 'Span',
      count: 2,
      selfSize: 107,
      retainedSize: 157,
    });
  });

  it('says which file is not a heap snapshot, and what it takes', async () => {
    const cpu = fixturePath('samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile');
    const r = await run(cpu);
    expect(r.error?.message).toBe(`${cpu}: not a heap snapshot (it reads as cpuprofile); heap takes .heapsnapshot files`);
    expect((await run(BASE, DD, BASE)).error?.message).toMatch(/heap takes one FILE, or two/);
    const text = (await run(BASE, '--top', '3')).out.split('\n');
    expect(text[0]).toMatch(/after\.heapsnapshot\.gz: [\d,]+ nodes, [\d,]+ edges, [\d,]+ bytes$/);
    expect(text[2]).toMatch(/^ *count +self size +retained size +class$/);
  });

  it('--allocated: the objects of AFTER whose ids BEFORE lacks, by class, as the files say', async () => {
    const before = fixturePath('samples/ddtrace/heap/before.heapsnapshot.gz');
    const ids = (path: string) => {
      const raw = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as Raw;
      const f = raw.snapshot.meta.node_fields;
      const out: { id: number; selfSize: number }[] = [];
      for (let i = 0; i < raw.nodes.length; i += f.length)
        out.push({ id: raw.nodes[i + f.indexOf('id')]!, selfSize: raw.nodes[i + f.indexOf('self_size')]! });
      return out;
    };
    const old = new Set(ids(before).map((n) => n.id));
    const fresh = ids(DD).filter((n) => !old.has(n.id));
    const r = JSON.parse((await run(before, DD, '--allocated', '--json', '--top', '0')).out) as {
      allocated: { count: number; selfSize: number; retainedSize: number };
      classes: { type: string; name: string; count: number; selfSize: number; retainedSize: number }[];
    };
    expect(r.allocated.count).toBe(fresh.length);
    expect(r.allocated.selfSize).toBe(fresh.reduce((x, n) => x + n.selfSize, 0));
    expect(r.allocated.retainedSize).toBeGreaterThanOrEqual(r.allocated.selfSize);
    expect(r.classes.reduce((x, c) => x + c.count, 0)).toBe(fresh.length);
    expect(Object.keys(r.classes[0]!).sort()).toEqual(['count', 'name', 'retainedSize', 'selfSize', 'type']);
    const text = (await run(before, DD, '--allocated', '--top', '5')).out.split('\n');
    expect(text[0]).toBe(
      `${DD}: ${fresh.length.toLocaleString('en-US')} objects allocated since ${before} (${r.allocated.selfSize.toLocaleString('en-US')} bytes), keeping ${r.allocated.retainedSize.toLocaleString('en-US')} bytes alive`,
    );
    expect((await run(DD, '--allocated')).error?.message).toMatch(/--allocated takes two snapshots of one process/);
  });
});
