import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixturePath } from '../../test/support/files';
import { readV8Profiles } from '../../test/support/v8-raw';
import { main } from './index';
import { type Captured, capture } from '../../test/support/cli-output';

vi.mock('../server/open', () => ({ openInBrowser: vi.fn() }));

function run(...args: string[]): Promise<Captured> {
  return capture((out) => main(args, out));
}

afterEach(() => vi.restoreAllMocks());

const WORKERS = fixturePath('corpus/devtools-frontend/two-workers.json.gz');
const CPU = fixturePath('samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile');

describe('flamelens info', () => {
  it('lists every thread with samples, counted as in the file', async () => {
    const r = await run('info', WORKERS, '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect([j.format, j.unit, j.shown]).toEqual(['trace-events', 'samples', 'CrRendererMain (71044/259)']);
    const raw = readV8Profiles(WORKERS);
    expect(j.samples).toBe(raw.reduce((n, p) => n + p.ids.length, 0));
    expect(j.threads).toHaveLength(raw.length);
    for (const p of raw) {
      const t = j.threads.find((x: { tid: string }) => x.tid === p.tid);
      expect(t).toMatchObject({ pid: p.pid, name: p.threadName, samples: p.ids.length });
      expect(t.seconds).toBeCloseTo((Math.max(...p.times) - Math.min(...p.times)) / 1e6, 6);
    }
    const text = await run('info', WORKERS);
    expect(text.out).toMatch(/threads {3}3 with samples; shown by default: CrRendererMain \(71044\/259\)/);
    expect(text.out).toMatch(/^ {4}71044 {2}37651 {2}DedicatedWorker thread {4}8,104 {5}1\.06$/m);
  });

  it("gives a .cpuprofile's one thread, its ids from the file name", async () => {
    const j = JSON.parse((await run('info', CPU, '--json')).out);
    expect(j.threads).toEqual([{ pid: '6494', tid: '0', name: 'main', samples: 2283, seconds: j.seconds }]);
    expect(j.samples).toBe(2283);
  });
});

describe('--thread', () => {
  it('says on stderr, once, which thread a command used and how many others there are', async () => {
    const r = await run('collapse', WORKERS);
    expect(r.err).toBe(
      `flamelens: ${WORKERS}: thread CrRendererMain (71044/259); 2 other thread(s) with samples (flamelens info lists them, --thread chooses)\n`,
    );
    const worker = await run('collapse', WORKERS, '--thread', '71044:37651');
    expect(worker.err).toMatch(/thread DedicatedWorker thread \(71044\/37651\); 2 other thread\(s\)/);
    expect(worker.out).not.toBe(r.out);
    const all = await run('collapse', WORKERS, '--thread', 'all');
    const roots = new Set(
      all.out
        .trim()
        .split('\n')
        .map((l) => l.split(';')[0]!.replace(/ \d+$/, '')),
    );
    expect([...roots].sort()).toEqual([
      'CrRendererMain 71044/259',
      'DedicatedWorker thread 71044/35351',
      'DedicatedWorker thread 71044/37651',
    ]);
    // nothing on stderr for a file with one thread, unless a thread is asked for
    expect((await run('collapse', CPU)).err).toBe('');
    expect((await run('collapse', CPU, '--thread', '1:1')).err).toBe(
      `flamelens: ${CPU}: --thread 1:1: the file has one thread (or none) with samples; all of it was read\n`,
    );
  });

  it('works on diff and heatmap, and names the threads there are when one is not there', async () => {
    const d = await run('diff', WORKERS, WORKERS, '--thread', 'DedicatedWorker thread', '--json');
    expect(d.code).toBe(0);
    expect(d.err.split('\n').filter((l) => l.includes('thread DedicatedWorker thread'))).toHaveLength(2);
    expect(JSON.parse(d.out).change).toBe(0);
    const h = await run('heatmap', WORKERS, '--thread', '71044:35351', '--json', '--include-idle');
    expect(h.code).toBe(0);
    const values = JSON.parse(h.out).values as number[][];
    expect(values.flat().reduce((a, b) => a + b, 0)).toBe(8103);
    const bad = await run('collapse', WORKERS, '--thread', '1:2');
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/no thread "1:2" has samples in this file; its threads: CrRendererMain 71044:259 \(16881 samples\)/);
  });
});
