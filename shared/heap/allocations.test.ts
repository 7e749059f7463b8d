import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importProfile } from '../import/import-profile';
import { checkProfile } from '../model/integrity';
import { fileSource } from '../../test/support/files';
import { trackedSnapshot } from '../../test/support/track-heap';
import { DEFAULT_VIEW } from '../workspace/workspace';
import { decodeWorkspace, encodeWorkspace } from '../workspace/workspace-file';
import { allocationProfile, liveByStack, readAllocations } from './allocations';

interface Raw {
  snapshot: { meta: { node_fields: string[]; trace_function_info_fields: string[] } };
  nodes: number[];
  trace_function_infos: number[];
  trace_tree: unknown[];
  strings: string[];
}

let dir = '';
let path = '';
let raw: Raw;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'flamelens-track-'));
  path = trackedSnapshot(dir);
  raw = JSON.parse(readFileSync(path, 'utf8')) as Raw;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** From the raw file alone: each stack (function names from the root, joined by ;) with its live objects' count and bytes. */
function rawLiveByPath(r: Raw): Map<string, { count: number; size: number }> {
  const FF = r.snapshot.meta.trace_function_info_fields.length;
  const nameAt = r.snapshot.meta.trace_function_info_fields.indexOf('name');
  const pathOf = new Map<number, string>();
  const walk = (list: unknown[], prefix: string[]) => {
    for (let i = 0; i < list.length; i += 5) {
      const [id, fn, , , children] = list.slice(i, i + 5) as [number, number, number, number, unknown[]];
      const name = r.strings[r.trace_function_infos[fn * FF + nameAt]!] || '(anonymous)';
      const here = prefix.length === 0 && pathOf.size === 0 ? [] : [...prefix, name];
      pathOf.set(id, here.join(';'));
      walk(children, here);
    }
  };
  walk(r.trace_tree, []);
  const f = r.snapshot.meta.node_fields;
  const [t, s] = [f.indexOf('trace_node_id'), f.indexOf('self_size')];
  const out = new Map<string, { count: number; size: number }>();
  for (let i = 0; i < r.nodes.length; i += f.length) {
    const key = pathOf.get(r.nodes[i + t]!);
    if (key === undefined) continue;
    const c = out.get(key) ?? { count: 0, size: 0 };
    c.count++;
    c.size += r.nodes[i + s]!;
    out.set(key, c);
  }
  return out;
}

describe('allocation stacks of a snapshot taken with --track-heap-objects', () => {
  it("the flamegraph holds each stack's live bytes as the raw nodes and trace tree give them", async () => {
    const p = await importProfile(fileSource(path));
    const g = p.heap!;
    expect(g.allocations).toBeDefined();
    const a = allocationProfile(g, 'tracked')!;
    expect(checkProfile(a)).toEqual([]);
    // the profile's bytes per stack path (frame names from the root)
    const got = new Map<string, number>();
    const pathOf: string[] = [];
    for (let n = 0; n < a.tree.length; n++) {
      const parent = a.tree.parent[n]!;
      pathOf[n] = parent < 0 ? '' : [pathOf[parent], a.frames.name[a.tree.frame[n]!]].filter((x) => x !== '').join(';');
      if (a.tree.self[n]! > 0) got.set(pathOf[n]!, (got.get(pathOf[n]!) ?? 0) + a.tree.self[n]!);
    }
    const want = rawLiveByPath(raw);
    expect(got).toEqual(new Map([...want].filter(([, c]) => c.size > 0).map(([k, c]) => [k, c.size])));
    const total = [...want.values()].reduce((x, c) => x + c.size, 0);
    expect(a.tree.total[0]).toBe(total);
    // the program's own allocation sites are there, with the objects they keep
    const sessions = [...want].find(([k]) => k.endsWith('makeSessions;Session'));
    expect(sessions?.[1].count).toBeGreaterThanOrEqual(500);
    expect([...got.keys()].some((k) => k.endsWith('makeNames'))).toBe(true);
  }, 60_000);

  it('live counts per trace node match the raw nodes', async () => {
    const g = (await importProfile(fileSource(path))).heap!;
    const { count, size, unknown } = liveByStack(g);
    const want = rawLiveByPath(raw);
    expect(unknown).toBe(0);
    expect(count.reduce((x, y) => x + y, 0)).toBe([...want.values()].reduce((x, c) => x + c.count, 0));
    expect(size.reduce((x, y) => x + y, 0)).toBe([...want.values()].reduce((x, c) => x + c.size, 0));
  }, 60_000);

  it('a saved workspace keeps the allocation stacks, and a damaged tree in one is refused', async () => {
    const p = await importProfile(fileSource(path));
    const ws = (profile: typeof p) => ({
      savedAt: '2026-11-27T08:00:00.000Z',
      runs: [{ id: 'r', title: 'tracked', fileName: 'tracked.heapsnapshot', profile }],
      baselineIndex: 0,
      view: DEFAULT_VIEW,
      annotations: { title: '', caption: '', items: [] },
      ranges: [],
    });
    const back = (await decodeWorkspace(await encodeWorkspace(ws(p)), 'tracked.flamelens')).runs[0]!.profile;
    expect(back.heap!.allocations).toEqual(p.heap!.allocations);
    const [a, b] = [allocationProfile(p.heap!, 'x')!, allocationProfile(back.heap!, 'x')!];
    expect(Array.from(b.tree.total)).toEqual(Array.from(a.tree.total));
    const bad = { ...p.heap!.allocations!, traceParent: p.heap!.allocations!.traceParent.map((x, i) => (i === 3 ? 9 : x)) };
    await expect(
      decodeWorkspace(await encodeWorkspace(ws({ ...p, heap: { ...p.heap!, allocations: bad } })), 'bad.flamelens'),
    ).rejects.toThrow(/^bad\.flamelens: runs\[0\]\.profile\.heap: trace node 3 has parent 9, not a node before it/);
  }, 60_000);

  it('a snapshot without allocation tracking has none', async () => {
    const g = (
      await importProfile(fileSource(new URL('../../fixtures/samples/baseline/heap/before.heapsnapshot.gz', import.meta.url).pathname))
    ).heap!;
    expect(g.allocations).toBeUndefined();
    expect(allocationProfile(g, 'x')).toBeUndefined();
  });
});

describe('readAllocations', () => {
  const meta = {
    trace_function_info_fields: ['function_id', 'name', 'script_name', 'script_id', 'line', 'column'],
    trace_node_fields: ['id', 'function_info_index', 'count', 'size', 'children'],
  };
  const fns = Uint32Array.of(0, 1, 0, 0, 0, 0, 1, 2, 3, 7, 10, 4);
  const fail = (m: string): never => {
    throw new Error(m);
  };
  it('reads a nested trace tree in pre-order, each node with its parent', () => {
    const a = readAllocations(meta, fns, [1, 0, 0, 0, [2, 1, 5, 80, [3, 1, 1, 16, []], 4, 1, 2, 32, []]], fail)!;
    expect(Array.from(a.traceId)).toEqual([1, 2, 3, 4]);
    expect(Array.from(a.traceParent)).toEqual([-1, 0, 1, 0]);
    expect(Array.from(a.traceSize)).toEqual([0, 80, 16, 32]);
  });
  it('says what is wrong with a tree that is not one', () => {
    expect(() => readAllocations(meta, fns, [1, 0, 0, 0, [2, 5, 1, 1, []]], fail)).toThrow(/names function 5, past the 2/);
    expect(() => readAllocations(meta, fns, [1, 0, 0, 0, 'x'], fail)).toThrow(/not five fields/);
    expect(() => readAllocations({ ...meta, trace_node_fields: ['id'] }, fns, [1, 0, 0, 0, []], fail)).toThrow(/trace_node_fields/);
    expect(() => readAllocations(meta, fns.subarray(1), [1, 0, 0, 0, []], fail)).toThrow(/not a multiple of the 6 fields/);
    expect(readAllocations(meta, fns, [], fail)).toBeUndefined();
  });
});
