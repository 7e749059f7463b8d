import { beforeAll, describe, expect, it } from 'vitest';
import { decodeWorkspace, encodeWorkspace } from '../../../shared/workspace/workspace';
import { folded } from '../../../shared/test/folded';
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
