/**
 * Every format an importer produces is saved in a workspace and opened again as the same
 * profile, field by field: the list of formats comes from the importers, so a new format cannot
 * be left out of the workspace file.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { computeDominators } from '../heap/dominators';
import { fineDensity } from '../heatmap/heatmap';
import { importProfile } from '../import/import-profile';
import { IMPORTERS } from '../import/registry';
import { checkProfile } from '../model/integrity';
import type { FormatId, Profile } from '../model/types';
import { weighByDefault } from '../model/weigh';
import { fileSource, fixturePath, folderSource } from '../../test/support/files';
import { DEFAULT_VIEW, type Workspace } from './workspace';
import { decodeWorkspace, encodeWorkspace } from './workspace-file';
import { digest } from '../../test/support/digest';

/** A file other tools wrote, for each format (a Record: a new FormatId without one does not compile). */
const FILES: Record<FormatId, string> = {
  cpuprofile: 'samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile',
  'trace-events': 'corpus/devtools-frontend/two-workers.json.gz',
  'perf-script': 'samples/ddtrace/perf.script.txt',
  folded: 'corpus/FlameGraph/test/results/perf-java-stacks-01-collapsed-pid.txt',
  '0x': 'samples/ddtrace/0x',
  heapprofile: 'samples/ddtrace/Heap.20261121.233100.6609.0.001.heapprofile',
  heapsnapshot: 'samples/ddtrace/heap/after.heapsnapshot.gz',
  pprof: 'pprof/datadog-node20-time.pb.gz',
};

/** The profile as the app holds it: imported, weighed, its density worked out (import.worker.ts). */
async function asTheAppHoldsIt(id: FormatId): Promise<Profile> {
  const path = fixturePath(FILES[id]);
  const source = id === '0x' ? folderSource(path) : fileSource(path);
  const p = weighByDefault(await importProfile(source, { options: id === 'trace-events' ? { thread: 'all' } : {} }));
  const density = fineDensity(p);
  if (density) p.density = density;
  return p;
}

const profiles = new Map<FormatId, Profile>();

beforeAll(async () => {
  for (const imp of IMPORTERS) profiles.set(imp.id, await asTheAppHoldsIt(imp.id));
}, 120_000);

function workspaceOf(p: Profile): Workspace {
  return {
    savedAt: '2026-11-27T08:00:00.000Z',
    runs: [{ id: 'r', title: p.name, fileName: p.name, profile: p }],
    baselineIndex: 0,
    view: DEFAULT_VIEW,
    annotations: { title: '', caption: '', items: [] },
    ranges: [],
  };
}

describe('a workspace holds a run of every format', () => {
  it('has a file of each format the importers produce', () => {
    for (const imp of IMPORTERS) {
      expect(FILES[imp.id], imp.id).toBeDefined();
      expect(profiles.get(imp.id)!.format, FILES[imp.id]).toBe(imp.id);
    }
  });

  it.each(IMPORTERS.map((i) => i.id))('%s: saved and opened, the same profile in every field', async (id) => {
    const a = profiles.get(id)!;
    const b = (await decodeWorkspace(await encodeWorkspace(workspaceOf(a)), `${id}.flamelens`)).runs[0]!.profile;
    expect(checkProfile(b)).toEqual([]);
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    // totals are rebuilt from self weights: equal up to the order they are summed in
    const { total: ta, ...treeA } = a.tree;
    const { total: tb, ...treeB } = b.tree;
    for (let k = 0; k < ta.length; k++) expect(tb[k]).toBeCloseTo(ta[k]!, 6);
    expect(digest({ ...b, tree: treeB })).toEqual(digest({ ...a, tree: treeA }));
  });
});

describe('a heap snapshot in a workspace', () => {
  it('opens with the retained sizes the snapshot gives', async () => {
    const a = profiles.get('heapsnapshot')!;
    const back = await decodeWorkspace(await encodeWorkspace(workspaceOf(a)), 'heap.flamelens');
    const g = back.runs[0]!.profile.heap!;
    // worked out again from the raw file's arrays, independently of what either profile holds
    const NF = a.heap!.nodeFields;
    const EF = a.heap!.edgeFields;
    const { retained } = computeDominators(a.heap!.nodes, a.heap!.edges, {
      nodeCount: a.heap!.nodeCount,
      nodeFieldCount: NF.length,
      selfSizeField: NF.indexOf('self_size'),
      edgeCountField: NF.indexOf('edge_count'),
      edgeFieldCount: EF.length,
      edgeTypeField: EF.indexOf('type'),
      toNodeField: EF.indexOf('to_node'),
      weakType: a.heap!.edgeTypes.indexOf('weak'),
      shortcutType: a.heap!.edgeTypes.indexOf('shortcut'),
    });
    expect(g.nodeCount).toBeGreaterThan(10_000);
    expect(Array.from(g.retained)).toEqual(Array.from(retained));
    expect(back.runs[0]!.profile.tree.total[0]).toBe(retained[0]);
  });
});

describe('a damaged heap graph in a workspace', () => {
  it('is refused with the field and the node named', async () => {
    const a = profiles.get('heapsnapshot')!;
    const bytes = await encodeWorkspace(workspaceOf({ ...a, heap: { ...a.heap!, nodeTypes: a.heap!.nodeTypes.slice(0, 1) } }));
    await expect(decodeWorkspace(bytes, 'bad.flamelens')).rejects.toThrow(
      /^bad\.flamelens: runs\[0\]\.profile\.heap: node \d+ has type \d+, past the 1 types in the meta/,
    );
    const moved = workspaceOf({ ...a, kind: 'sampled' });
    await expect(decodeWorkspace(await encodeWorkspace(moved), 'kind.flamelens')).rejects.toThrow(
      /kind\.flamelens: runs\[0\]\.profile\.kind: a heap graph belongs to a heap snapshot/,
    );
  });
});
