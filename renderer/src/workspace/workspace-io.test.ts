import { beforeAll, describe, expect, it } from 'vitest';
import { decodeWorkspace, encodeWorkspace } from '../../../shared/workspace/workspace-file';
import { folded } from '../../../test/support/folded';
import { importProfile } from '../../../shared/import/import-profile';
import { threadView } from '../../../shared/model/threads';
import type { Profile } from '../../../shared/model/types';
import { weighByDefault } from '../../../shared/model/weigh';
import { fileSource, fixturePath } from '../../../test/support/files';
import { useStore } from '../store/store';

const CPU = (pid: number) => `CPU.20261121.233052.${pid}.0.001.cpuprofile`;
let io: typeof import('./workspace-io');

beforeAll(async () => {
  // The host module picks the Electron bridge or the web host from `window` when loaded.
  (globalThis as { window?: unknown }).window ??= {};
  io = await import('./workspace-io');
});

const titles = () => useStore.getState().runs.map((r) => r.title);

describe('workspace runs keep what names them', () => {
  it('saves paths without the shared folders; reopened, the names still follow the paths', async () => {
    const s = useStore.getState();
    s.runAdded('a', CPU(1), `/home/ana/runs/otel/${CPU(1)}`);
    s.runAdded('b', CPU(2), `/home/ana/runs/baseline/${CPU(2)}`);
    for (const id of ['a', 'b']) useStore.getState().runLoaded(id, await folded('main;work 3'));
    const ws = io.collectWorkspace(useStore.getState());
    expect(ws.runs.map((r) => r.path)).toEqual([`otel/${CPU(1)}`, `baseline/${CPU(2)}`]);

    io.restoreWorkspace(await decodeWorkspace(await encodeWorkspace(ws), 'runs.flamelens'));
    expect(titles()).toEqual(['otel', 'baseline']);
    expect(useStore.getState().runs.some((r) => r.renamed)).toBe(false);
    // Another otel run from elsewhere: both named by the folders that tell them apart.
    useStore.getState().runAdded('c', CPU(3), `/srv/2026-11-22/otel/${CPU(3)}`);
    expect(titles()).toEqual(['otel', 'baseline', '2026-11-22/otel']);
  });
});

describe('workspace runs keep their threads', () => {
  const TRACE = 'two-workers.json.gz';
  const rootNames = (p: Profile) => {
    const out: string[] = [];
    for (let i = 1; i < p.tree.length; i++) if (p.tree.parent[i] === 0) out.push(p.frames.name[p.tree.frame[i]!]!);
    return out;
  };

  it('shows the thread chosen, keeps every thread when saved, and shows the same thread reopened', async () => {
    useStore.setState({ runs: [], ranges: {} });
    const all = weighByDefault(
      await importProfile(fileSource(fixturePath(`corpus/devtools-frontend/${TRACE}`)), { options: { thread: 'all' } }),
    );
    const s = useStore.getState();
    s.runAdded('t', TRACE);
    s.runLoaded('t', all, '71044:259');
    const run = () => useStore.getState().runs.find((r) => r.fileName === TRACE)!;
    expect(run().profile!.meta.thread).toBe('CrRendererMain (71044/259)');
    useStore.getState().rangeSelected('t', { start: 1, end: 2 });
    useStore.getState().threadChosen('t', '71044:37651');
    expect(run().profile!.meta.thread).toBe('DedicatedWorker thread (71044/37651)');
    expect(run().profile!.samples!.length).toBe(8104);
    // a range picked on another thread's samples does not carry over
    expect(useStore.getState().ranges.t).toBeUndefined();

    const ws = io.collectWorkspace(useStore.getState());
    expect(ws.runs[0]!.thread).toBe('71044:37651');
    expect(ws.runs[0]!.profile).toBe(all);
    io.restoreWorkspace(await decodeWorkspace(await encodeWorkspace(ws), 'threads.flamelens'));
    expect(run().profile!.meta.thread).toBe('DedicatedWorker thread (71044/37651)');
    expect(run().profile!.tree.total[0]).toBeCloseTo(threadView(all, '71044:37651')!.tree.total[0]!, 3);
    useStore.getState().threadChosen(run().id, 'all');
    expect(rootNames(run().profile!)).toEqual([
      'CrRendererMain 71044/259',
      'DedicatedWorker thread 71044/37651',
      'DedicatedWorker thread 71044/35351',
    ]);
  });

  it("keeps a perf capture's threads, read once as the app reads it, and the one shown", async () => {
    useStore.setState({ runs: [], ranges: {} });
    const PERF = 'perf.script.txt';
    const read = weighByDefault(
      await importProfile(fileSource(fixturePath(`samples/ddtrace/${PERF}`)), { options: { keepThreads: true } }),
    );
    expect(read.meta.defaultThread).toBe('together');
    useStore.getState().runAdded('p', PERF);
    useStore.getState().runLoaded('p', read, read.meta.defaultThread);
    const run = () => useStore.getState().runs.find((r) => r.fileName === PERF)!;
    expect(run().profile).toBe(read);
    expect(rootNames(run().profile!)).toEqual(['node']);
    useStore.getState().threadChosen('p', ':6802');
    expect(run().profile!.meta.thread).toBe('node (6802)');
    const chosen = run().profile!.tree.total[0]!;

    const ws = io.collectWorkspace(useStore.getState());
    expect(ws.runs[0]!.thread).toBe(':6802');
    io.restoreWorkspace(await decodeWorkspace(await encodeWorkspace(ws), 'perf.flamelens'));
    expect(run().profile!.meta.thread).toBe('node (6802)');
    expect(run().profile!.tree.total[0]).toBe(chosen);
    expect(run().allThreads!.meta.defaultThread).toBe('together');
    useStore.getState().threadChosen(run().id, 'all');
    expect(rootNames(run().profile!).sort()).toEqual(['node-?/6794', 'node-?/6801', 'node-?/6802', 'node-?/6803', 'node-?/6804']);
    useStore.getState().threadChosen(run().id, 'together');
    expect(run().profile).toBe(run().allThreads);
  });

  it('opens a workspace saved with one thread of the file as before: that thread, no other to choose', async () => {
    const one = weighByDefault(await importProfile(fileSource(fixturePath(`corpus/devtools-frontend/${TRACE}`))));
    const ws = {
      ...io.collectWorkspace(useStore.getState()),
      runs: [{ id: 'r', title: TRACE, fileName: TRACE, profile: one }],
      baselineIndex: 0,
    };
    io.restoreWorkspace(await decodeWorkspace(await encodeWorkspace(ws), 'old.flamelens'));
    const run = useStore.getState().runs[0]!;
    expect(run.allThreads).toBeUndefined();
    expect(run.profile!.meta.thread).toBe('CrRendererMain (71044/259)');
    expect(run.profile!.tree.total[0]).toBeCloseTo(one.tree.total[0]!, 3);
  });
});

describe('workspace runs keep their repeats', () => {
  it('saves each repeat and the one shown; reopened, the run is the same repeats with the same one shown', async () => {
    useStore.setState({ runs: [], ranges: {} });
    const s = useStore.getState();
    const profiles = [await folded('main;f 2', '1.folded'), await folded('main;f 4', '2.folded')];
    const mean = await folded('main;f 3', 'agent');
    s.runAdded('v', 'agent', '/r/agent');
    s.runLoaded('v', mean, undefined, {
      profiles,
      names: ['1.folded', '2.folded'],
      failed: [{ name: 'x.folded', error: 'x.folded: bad' }],
    });
    useStore.getState().repeatChosen('v', 1);
    const ws = io.collectWorkspace(useStore.getState());
    expect(ws.runs[0]!.profile).toBe(mean);
    expect(ws.runs[0]!.repeats).toMatchObject({ names: ['1.folded', '2.folded'], shown: 1 });

    io.restoreWorkspace(await decodeWorkspace(await encodeWorkspace(ws), 'repeats.flamelens'));
    const run = useStore.getState().runs[0]!;
    expect(run.repeats!.profiles.map((p) => p.tree.total[0])).toEqual([2, 4]);
    expect(run.repeats!.mean.tree.total[0]).toBe(3);
    expect(run.repeats!.failed).toEqual([{ name: 'x.folded', error: 'x.folded: bad' }]);
    expect(run.repeat).toBe(1);
    expect(run.profile).toBe(run.repeats!.profiles[1]);
    useStore.getState().repeatChosen(run.id, undefined);
    expect(useStore.getState().runs[0]!.profile).toBe(run.repeats!.mean);
  });
});
