/**
 * Every thread of a file, chosen in its pane: DevTools' two-workers recording (a page's main
 * thread and two workers), a perf capture of a Node.js server (its main thread and four
 * others), and the per-thread `.cpuprofile` files of a Node.js program with a
 * worker_threads worker, written by `node --cpu-prof` here and opened together.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Locator, type Page, expect, test } from '@playwright/test';
import { type RunningServer, startServer } from '../node/server/serve';
import { readV8Profiles } from '../test/support/v8-raw';
import { dropFiles, expectDrawn, pane } from './support';

const TWO_WORKERS = 'fixtures/corpus/devtools-frontend/two-workers.json.gz';
const PERF = 'fixtures/samples/ddtrace/perf.script.txt';

/** The frames a pane draws, with their depth below the root. */
async function drawnFrames(p: Locator): Promise<{ name: string; depth: number }[]> {
  return p.locator('g.frame').evaluateAll((gs) =>
    gs.map((g) => {
      const d = (g as unknown as { __data__?: { depth: number; data: { name: string } } }).__data__;
      return { name: d?.data.name ?? '', depth: d?.depth ?? -1 };
    }),
  );
}

test('a trace of three threads shows its main thread and offers the others, one at a time or all', async ({ page }) => {
  await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
  await page.goto('./');
  await dropFiles(page, [{ path: TWO_WORKERS }]);
  const p = pane(page, 'two-workers.json.gz');
  await expectDrawn(p, 5);
  await expect(p.getByText('3 threads', { exact: true })).toBeVisible();
  const picker = p.getByRole('combobox', { name: 'Thread of two-workers.json.gz' });
  await expect(picker).toBeVisible();
  await expect(picker).toHaveValue('71044:259');
  await expect(p).toContainText('CrRendererMain (71044/259), 1 of 3 threads with samples');
  expect((await drawnFrames(p)).some((f) => f.name === 'fibonacci')).toBe(false);
  // each thread's samples and span, counted here from the file's raw profiles
  const raw = readV8Profiles(TWO_WORKERS);
  const facts = (tid: string) => {
    const r = raw.find((x) => x.tid === tid)!;
    const span = (Math.max(...r.times) - Math.min(...r.times)) / 1e6;
    return `${r.ids.length.toLocaleString('en-US')} samples · ${span.toFixed(1)} s`;
  };
  await expect(picker.locator('option')).toHaveText([
    `CrRendererMain 71044/259 · ${facts('259')}`,
    `DedicatedWorker thread 71044/37651 · ${facts('37651')}`,
    `DedicatedWorker thread 71044/35351 · ${facts('35351')}`,
    'all threads, each under its own root',
  ]);
  await page.screenshot({ path: 'test-results/thread-picker.png', clip: { x: 0, y: 60, width: 1280, height: 260 } });

  await picker.selectOption('71044:37651');
  await expect(p).toContainText('DedicatedWorker thread (71044/37651), 1 of 3 threads with samples');
  // the worker's JavaScript: self.onmessage, with fibonacci on top of it
  await expect(async () => {
    const frames = await drawnFrames(p);
    const onmessage = frames.find((f) => f.name === 'self.onmessage');
    expect(onmessage).toBeDefined();
    expect(frames.some((f) => f.name === 'fibonacci' && f.depth === onmessage!.depth + 1)).toBe(true);
  }).toPass();
  await page.screenshot({ path: 'test-results/thread-worker.png' });

  await picker.selectOption('all');
  await expect(p).toContainText('all 3 threads');
  await expect(async () => {
    const roots = (await drawnFrames(p)).filter((f) => f.depth === 1).map((f) => f.name);
    expect(roots.sort()).toEqual(['CrRendererMain 71044/259', 'DedicatedWorker thread 71044/35351', 'DedicatedWorker thread 71044/37651']);
  }).toPass();
});

/** A perf capture's samples by thread id, read from its header and frame lines: sample count, span and period, with and without `fastify` on the stack. */
function perfThreads(path: string): Map<string, { samples: number; first: number; last: number; period: number; fastify: number }> {
  const out = new Map<string, { samples: number; first: number; last: number; period: number; fastify: number }>();
  for (const block of readFileSync(path, 'utf8').split(/\n\s*\n/)) {
    const m = /^\S.*?\s+(\d+)\s+(\d+\.\d+):\s+(\d+)\s+\S+:/.exec(block);
    if (!m) continue;
    const [tid, time, period] = [m[1]!, Number(m[2]) * 1e6, Number(m[3])];
    const t = out.get(tid) ?? { samples: 0, first: Infinity, last: -Infinity, period: 0, fastify: 0 };
    t.samples++;
    t.first = Math.min(t.first, time);
    t.last = Math.max(t.last, time);
    t.period += period;
    if (
      block
        .split('\n')
        .slice(1)
        .some((l) => l.includes('fastify'))
    )
      t.fastify += period;
    out.set(tid, t);
  }
  return out;
}

test("a perf capture's threads: together by default, one at a time, or a root each as stackcollapse-perf.pl --tid names them", async ({
  page,
}) => {
  await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
  await page.goto('./');
  await dropFiles(page, [{ path: PERF }]);
  const p = pane(page, 'perf.script.txt');
  await expectDrawn(p, 20);
  const raw = perfThreads(PERF);
  await expect(p.getByText(`${raw.size} threads`, { exact: true })).toBeVisible();
  const picker = p.getByRole('combobox', { name: 'Thread of perf.script.txt' });
  await expect(picker).toBeEnabled();
  await expect(picker).toHaveValue('together');
  // most samples first, a tie in the order the file first has them
  const byCount = [...raw].sort((a, b) => b[1].samples - a[1].samples);
  await expect(picker.locator('option')).toHaveText([
    ...byCount.map(([tid, t]) => `node ${tid} · ${t.samples} samples · ${((t.last - t.first) / 1e6).toFixed(1)} s`),
    'all threads together',
    'all threads, each under its own root',
  ]);
  // search follows the thread shown: fastify's share of busy CPU, worked out here from the file
  const share = page.getByRole('status', { name: 'Search share in perf.script.txt' });
  const pct = (f: number, all: number) => `matches own ${f === 0 ? '0' : ((f / all) * 100).toFixed(1)}% inclusive`;
  const sum = (k: 'period' | 'fastify') => [...raw.values()].reduce((n, t) => n + t[k], 0);
  await page.getByRole('searchbox').fill('fastify');
  await expect(share).toContainText(pct(sum('fastify'), sum('period')));
  // the flamegraph's total, its root box's weight, is the periods of the samples shown
  const rootValue = () =>
    p.locator('g.frame[name="perf.script.txt"]').evaluate((g) => (g as unknown as { __data__: { value: number } }).__data__.value);
  expect(await rootValue()).toBe(sum('period'));
  // and the facts line calls it what a cpu-clock capture's periods are: busy CPU time
  await expect(p.getByTitle('total weight')).toHaveText(`${(sum('period') / 1e9).toFixed(1)} s busy CPU`);

  const [main, t] = byCount[0]!;
  await picker.selectOption(`:${main}`);
  await expect(p).toContainText(`node (${main}), 1 of ${raw.size} threads with samples`);
  await expect(share).toContainText(pct(t.fastify, t.period));
  const [worker] = byCount.at(-1)!;
  await picker.selectOption(`:${worker}`);
  await expect(p).toContainText(`node (${worker}), 1 of ${raw.size} threads with samples`);
  await expect(share).toContainText(pct(raw.get(worker)!.fastify, raw.get(worker)!.period));
  await expect.poll(rootValue).toBe(raw.get(worker)!.period);
  await page.screenshot({ path: 'test-results/perf-thread.png' });

  await picker.selectOption('all');
  await expect(p).toContainText(`all ${raw.size} threads`);
  await expect(async () => {
    const roots = (await drawnFrames(p)).filter((f) => f.depth === 1).map((f) => f.name);
    expect(roots.sort()).toEqual([...raw.keys()].map((tid) => `node-?/${tid}`).sort());
  }).toPass();
  await expect(share).toContainText(pct(sum('fastify'), sum('period')));
  await page.screenshot({ path: 'test-results/perf-threads-roots.png' });

  // crash recovery keeps the choice: the page reloaded and its work restored shows the same thread
  await picker.selectOption(`:${worker}`);
  await expect.poll(() => recoveredThreads(page), { timeout: 15_000 }).toEqual([`:${worker}`]);
  await page.reload();
  await page.getByRole('alert').getByRole('button', { name: 'Restore' }).click();
  await expect(p).toContainText(`node (${worker}), 1 of ${raw.size} threads with samples`);
  await expect(p.getByRole('combobox', { name: 'Thread of perf.script.txt' })).toHaveValue(`:${worker}`);
  await expect.poll(rootValue).toBe(raw.get(worker)!.period);
});

/** The thread of each run in the crash-recovery record the page stored. */
function recoveredThreads(page: Page): Promise<(string | undefined)[] | undefined> {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const req = indexedDB.open('flamelens');
        req.onerror = () => resolve(undefined);
        req.onsuccess = () => {
          const db = req.result;
          if (!db.objectStoreNames.contains('recovery')) return resolve(undefined);
          const get = db.transaction('recovery').objectStore('recovery').get('last');
          get.onsuccess = () => resolve(get.result?.workspace?.runs?.map((r: { thread?: string }) => r.thread));
          get.onerror = () => resolve(undefined);
        };
      }),
  );
}

test.describe('the files node --cpu-prof writes for a program with a worker', () => {
  let dir: string;
  let files: string[];
  let server: RunningServer;

  test.beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flamelens-threads-'));
    writeFileSync(
      join(dir, 'fib.js'),
      `const { Worker, isMainThread } = require('node:worker_threads');
function fibMain(n) { return n < 2 ? n : fibMain(n - 1) + fibMain(n - 2); }
function fibWorker(n) { return n < 2 ? n : fibWorker(n - 1) + fibWorker(n - 2); }
function spin(fib, ms) { const end = Date.now() + ms; let x = 0; while (Date.now() < end) x += fib(18); return x; }
if (isMainThread) { new Worker(__filename); spin(fibMain, 300); } else { spin(fibWorker, 300); }
`,
    );
    execFileSync(process.execPath, ['--cpu-prof', 'fib.js'], { cwd: dir });
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => join(dir, f));
    server = await startServer({ items: files, rendererDir: resolve('out/renderer') });
  });

  test.afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function expectOneRunOfTwoThreads(p: Locator): Promise<void> {
    await expectDrawn(p, 3);
    await expect(p.getByText('2 threads', { exact: true })).toBeVisible();
    await expect(p).toContainText(/main \(\d+\/0\), 1 of 2 threads with samples/);
    expect((await drawnFrames(p)).some((f) => f.name.startsWith('fibMain'))).toBe(true);
    await p.getByRole('combobox').selectOption({ index: 1 });
    await expect(p).toContainText(/worker \(\d+\/1\), 1 of 2 threads with samples/);
    await expect(async () => {
      const names = (await drawnFrames(p)).map((f) => f.name);
      expect(names.some((n) => n.startsWith('fibWorker'))).toBe(true);
      expect(names.some((n) => n.startsWith('fibMain'))).toBe(false);
    }).toPass();
  }

  test('opened together from the command line, they are one run with two threads', async ({ page }) => {
    expect(files).toHaveLength(2);
    await page.goto(server.url);
    await expect(page.locator('section.pane')).toHaveCount(1);
    await expectOneRunOfTwoThreads(page.locator('section.pane'));
  });

  test('dropped together, they are one run with two threads', async ({ page }) => {
    await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
    await page.goto('./');
    await dropFiles(
      page,
      files.map((path) => ({ path })),
    );
    await expect(page.locator('section.pane')).toHaveCount(1);
    await expectOneRunOfTwoThreads(page.locator('section.pane'));
  });
});
