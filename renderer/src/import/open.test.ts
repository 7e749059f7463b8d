import { beforeAll, describe, expect, it } from 'vitest';
import { runNames } from '../../../shared/runs/run-names';
import type { WorkerFile, WorkerSource } from './protocol';
import { runSources } from './run-sources';

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

describe('runSources', () => {
  const cpu = (pid: number) => `CPU.20261121.233052.${pid}.0.001.cpuprofile`;
  const folder = (name: string, files: string[]): WorkerSource => ({
    kind: 'folder',
    name,
    path: `/${name}`,
    files: files.map((f) => file(f, `/${name}/${f}`)),
  });

  it('opens the profiles of dropped run folders as runs named by those folders', () => {
    const out = runSources([folder('ddtrace', [cpu(2), 'notes.md']), folder('baseline', [cpu(1)])]);
    expect(out.map((s) => [s.kind, s.name, s.path])).toEqual([
      ['token', cpu(2), `/ddtrace/${cpu(2)}`],
      ['token', cpu(1), `/baseline/${cpu(1)}`],
    ]);
    expect(runNames(out.map((s) => s.path!))).toEqual(['ddtrace', 'baseline']);
  });

  it('opens a folder of several profiles of one kind as one run of repeats, named by the folder', () => {
    const five = [5, 3, 1, 4, 2].map(cpu);
    const out = runSources([folder('baseline', [...five, 'notes.md']), folder('agent', [cpu(7), cpu(8)])]);
    expect(out.map((s) => [s.kind, s.name, s.path])).toEqual([
      ['repeats', 'baseline', '/baseline'],
      ['repeats', 'agent', '/agent'],
    ]);
    expect(out[0]!.kind === 'repeats' && out[0]!.files.map((f) => f.path)).toEqual([1, 2, 3, 4, 5].map((p) => `/baseline/${cpu(p)}`));
    expect(runNames(out.map((s) => s.path!))).toEqual(['baseline', 'agent']);
  });

  it('keeps files picked one by one from a folder runs of their own, and a folder of several kinds a run per file', () => {
    const picked = runSources([file(cpu(1), `/baseline/${cpu(1)}`), file(cpu(2), `/baseline/${cpu(2)}`)]);
    expect(picked.map((s) => s.kind)).toEqual(['token', 'token']);
    const mixed = runSources([folder('baseline', [cpu(1), 'node_trace.1.log.gz', 'perf.script.txt'])]);
    expect(mixed.map((s) => s.kind)).toEqual(['token', 'token', 'token']);
  });

  it('keeps a 0x output folder, and the files of one dropped together, one run each', () => {
    const zx = ['flamegraph.html', 'isolate-0x33817a80-6265-6265-v8.log.json', 'meta.json'];
    const out = runSources([folder('7001.0x', zx), ...zx.map((f) => file(f))]);
    expect(out.map((s) => [s.kind, s.name])).toEqual([
      ['folder', '7001.0x'],
      ['folder', '6265.0x'],
    ]);
    expect(out[1]!.kind === 'folder' && out[1]!.files.map((f) => f.name)).toEqual(zx);
  });

  it("opens a process's per-thread .cpuprofile files, in a dropped folder or dropped together, as one run named by its main thread's file", () => {
    const main = 'CPU.20261125.121703.1215.0.001.cpuprofile';
    const worker = 'CPU.20261125.121703.1215.1.002.cpuprofile';
    const out = runSources([folder('otel', [worker, main]), file(worker), file(main)]);
    expect(out.map((s) => [s.kind, s.name, s.path])).toEqual([
      ['threads', main, `/otel/${main}`],
      ['threads', main, `/${main}`],
    ]);
    expect(out[0]!.kind === 'threads' && out[0]!.files.map((f) => f.name)).toEqual([main, worker]);
    expect(runNames(out.map((s) => s.path!))).toEqual(['otel', main]);
  });
});

describe('opening a workspace', () => {
  it('refuses a workspace file larger than a workspace can be before reading any of it', async () => {
    const { useStore } = await import('../store/store');
    let read = false;
    const huge = {
      size: 40 * 1024 ** 3,
      stream: () => {
        read = true;
        throw new Error('read');
      },
    } as unknown as File;
    expect(open.openSources([{ kind: 'file', file: huge, name: 'big.flamelens' }])).toEqual([]);
    await expect
      .poll(() => useStore.getState().notice)
      .toBe('big.flamelens: the file is 40.0 GiB; a Flamelens workspace holds at most 16 GiB, so it was not read');
    expect(read).toBe(false);
  });
});
