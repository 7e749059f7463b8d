import { beforeAll, describe, expect, it } from 'vitest';
import { runNames } from '../../../shared/runs/run-names';
import type { WorkerFile, WorkerSource } from './protocol';

let open: typeof import('./open');

beforeAll(async () => {
  // The host module picks the Electron bridge or the web host from `window` when loaded.
  (globalThis as { window?: unknown }).window ??= {};
  open = await import('./open');
});

const file = (name: string, path = `/${name}`): WorkerFile => ({ kind: 'token', token: 't', name, size: 1, path });

describe('withDiskPaths', () => {
  it('gives dropped files and folders the paths Electron sees, so runs are named by their folders', () => {
    const cpu = 'CPU.20261121.233052.6494.0.001.cpuprofile';
    const sources: WorkerSource[] = [
      file(cpu),
      { kind: 'folder', name: '0x', path: '/0x', files: [file('ticks.json', '/0x/ticks.json')] },
      file('x.folded'),
    ];
    const out = open.withDiskPaths(sources, [`/home/ana/runs/ddtrace/${cpu}`, 'C:\\runs\\baseline\\0x', '']);
    expect(out.map((s) => s.path)).toEqual([`/home/ana/runs/ddtrace/${cpu}`, 'C:\\runs\\baseline\\0x', '/x.folded']);
    expect(out[1]!.kind === 'folder' && out[1]!.files.map((f) => f.path)).toEqual(['C:\\runs\\baseline\\0x\\ticks.json']);
    expect(runNames(out.slice(0, 2).map((s) => s.path!))).toEqual(['ddtrace', 'baseline']);
  });
});
