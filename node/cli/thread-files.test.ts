/**
 * The per-thread `.cpuprofile` files `node --cpu-prof` writes for a program with a
 * `worker_threads` worker, written here, named together or as their folder: one run of two
 * threads for `info`, `collapse`, `heatmap` and `diff`, as in the app.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readV8Profiles } from '../../test/support/v8-raw';
import { type Captured, capture } from '../../test/support/cli-output';
import { main } from './index';

vi.mock('../server/open', () => ({ openInBrowser: vi.fn() }));

const run = (...args: string[]): Promise<Captured> => capture((out) => main(args, out));

const PROGRAM = `const { Worker, isMainThread } = require('node:worker_threads');
function fibMain(n) { return n < 2 ? n : fibMain(n - 1) + fibMain(n - 2); }
function fibWorker(n) { return n < 2 ? n : fibWorker(n - 1) + fibWorker(n - 2); }
function spin(fib, ms) { const end = Date.now() + ms; let x = 0; while (Date.now() < end) x += fib(18); return x; }
if (isMainThread) { new Worker(__filename); spin(fibMain, 200); } else { spin(fibWorker, 200); }
`;

let dir: string;
/** each folder's files, the main thread's (tid 0) first */
const files: Record<'base' | 'agent', string[]> = { base: [], agent: [] };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'flamelens-cli-threads-'));
  for (const side of ['base', 'agent'] as const) {
    mkdirSync(join(dir, side));
    writeFileSync(join(dir, side, 'fib.js'), PROGRAM);
    execFileSync(process.execPath, ['--cpu-prof', 'fib.js'], { cwd: join(dir, side) });
    files[side] = readdirSync(join(dir, side))
      .filter((f) => f.endsWith('.cpuprofile'))
      .sort((a, b) => Number(a.split('.')[4]) - Number(b.split('.')[4]))
      .map((f) => join(dir, side, f));
  }
}, 30_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The folded lines' first frames. */
const roots = (out: string) =>
  [
    ...new Set(
      out
        .trim()
        .split('\n')
        .map((l) => l.split(';')[0]!),
    ),
  ].sort();

describe("a process's per-thread .cpuprofile files on the command line", () => {
  it('are one run of two threads for info, named together or as their folder', async () => {
    const [mainFile, workerFile] = files.base;
    expect(files.base).toHaveLength(2);
    const pid = /\.(\d+)\.0\.\d+\.cpuprofile$/.exec(mainFile!)![1]!;
    for (const args of [[workerFile!, mainFile!], [join(dir, 'base')]]) {
      const r = await run('info', ...args, '--json');
      expect(r.code).toBe(0);
      const j = JSON.parse(r.out);
      expect(j.shown).toBe(`main (${pid}/0)`);
      const counts = [mainFile!, workerFile!].map((f) => readV8Profiles(f)[0]!.ids.length);
      expect(j.threads.map((t: { pid: string; tid: string; name: string; samples: number }) => [t.pid, t.tid, t.name, t.samples])).toEqual([
        [pid, '0', 'main', counts[0]],
        [pid, '1', 'worker', counts[1]],
      ]);
      expect(j.samples).toBe(counts[0]! + counts[1]!);
    }
    const text = await run('info', mainFile!, workerFile!);
    expect(text.out).toContain(`threads   2 with samples; shown by default: main (${pid}/0)`);
  });

  it('collapse shows the main thread by default, says so, and gives any thread or all', async () => {
    const [mainFile, workerFile] = files.base;
    const both = await run('collapse', workerFile!, mainFile!);
    expect(both.out).toBe((await run('collapse', mainFile!)).out);
    expect(both.err).toMatch(/: thread main \(\d+\/0\); 1 other thread\(s\) with samples/);
    const worker = await run('collapse', join(dir, 'base'), '--thread', 'worker');
    expect(worker.out).toBe((await run('collapse', workerFile!)).out);
    expect(worker.out).toContain('fibWorker');
    const all = await run('collapse', mainFile!, workerFile!, '--thread', 'all');
    const pid = /\.(\d+)\.0\.\d+\.cpuprofile$/.exec(mainFile!)![1]!;
    expect(roots(all.out)).toEqual([`main ${pid}/0`, `worker ${pid}/1`]);
    const bad = await run('collapse', mainFile!, workerFile!, '--thread', '1:1');
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/no thread "1:1" has samples in these files; their threads: main \d+:0 \(\d+ samples\), worker \d+:1/);
    const two = await run('collapse', mainFile!, files.agent[0]!);
    expect(two.code).toBe(1);
    expect(two.err).toContain("collapse takes exactly one FILE (or one process's per-thread .cpuprofile files)");
  });

  it('diff takes a folder or the files of each side, and compares the main threads by default', async () => {
    const mains = await run('diff', files.base[0]!, files.agent[0]!, '--json');
    const folders = await run('diff', join(dir, 'base'), join(dir, 'agent'), '--json');
    const loose = await run('diff', ...files.base, ...files.agent, '--json');
    expect(folders.code).toBe(0);
    expect(loose.code).toBe(0);
    const totals = (r: Captured) => {
      const j = JSON.parse(r.out);
      return [j.baseline.total, j.run.total, j.change];
    };
    expect(totals(folders)).toEqual(totals(mains));
    expect(totals(loose)).toEqual(totals(mains));
    expect(folders.err.split('\n').filter((l) => /thread main \(\d+\/0\); 1 other thread/.test(l))).toHaveLength(2);
    const workers = await run('diff', join(dir, 'base'), join(dir, 'agent'), '--thread', 'worker', '--json');
    expect(totals(workers)).toEqual(totals(await run('diff', files.base[1]!, files.agent[1]!, '--json')));
    // two files of one process are two sides, the main thread against the worker, as before
    const pair = await run('diff', ...files.base, '--json');
    expect(pair.code).toBe(0);
    // nothing about threads (each file is a side of its own); two threads of a loaded machine may
    // be sampled at intervals far enough apart for the warning that says so
    expect(pair.err.split('\n').filter((l) => l && !/warning: the runs were sampled at different intervals/.test(l))).toEqual([]);
    expect(JSON.parse(pair.out).baseline.file).toBe(files.base[0]);
    expect(JSON.parse(pair.out).run.file).toBe(files.base[1]);
  });

  it('reads a folder that holds other profiles too as before, not as the threads alone', async () => {
    const mixed = join(dir, 'mixed');
    mkdirSync(mixed);
    for (const f of files.base) copyFileSync(f, join(mixed, basename(f)));
    writeFileSync(join(mixed, 'other.cpuprofile'), readFileSync(files.agent[0]!));
    const r = await run('collapse', mixed);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
  });

  it('heatmap counts the samples of the thread chosen', async () => {
    const h = await run('heatmap', ...files.base, '--thread', 'all', '--json', '--include-idle');
    expect(h.code).toBe(0);
    const sum = (JSON.parse(h.out).values as number[][]).flat().reduce((a, b) => a + b, 0);
    expect(sum).toBe(files.base.reduce((n, f) => n + readV8Profiles(f)[0]!.ids.length, 0));
  });
});
