/**
 * The same load captured with two tools, both runs' files opened at once: each run is compared
 * with the baseline folder's capture of its own tool (shared/runs/kind-baselines.ts), perf with
 * perf, not perf with a `.cpuprofile` (one thread's JavaScript against the whole process).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { type RunningServer, startServer } from '../node/server/serve';
import { expectDrawn, pane } from './support';

const SAMPLES = resolve('fixtures/samples');
const cpuProfileIn = (run: string) => readdirSync(join(SAMPLES, run)).find((f) => /^CPU\.\d+\.\d+\.\d+\.0\.001\.cpuprofile$/.test(f))!;

/** perf script's CPU time straight from the text: the period (ns) in every sample's header line. */
function perfBusyNs(path: string): number {
  let ns = 0;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^\S.*\s(\d+) cpu-clock/.exec(line);
    if (m) ns += Number(m[1]);
  }
  return ns;
}

let dir: string;
let server: RunningServer;

test.beforeAll(async () => {
  // The captures as a person keeps them: a folder per run, each file as its tool named it.
  dir = mkdtempSync(join(tmpdir(), 'flamelens-kinds-'));
  const paths = ['baseline', 'ddtrace'].flatMap((run) => {
    mkdirSync(join(dir, run));
    return [cpuProfileIn(run), 'perf.script.txt'].map((name) => {
      copyFileSync(join(SAMPLES, run, name), join(dir, run, name));
      return join(dir, run, name);
    });
  });
  server = await startServer({ items: paths, rendererDir: resolve('out/renderer') });
});

test.afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('perf is compared with the baseline folder’s perf, the .cpuprofile with the baseline', async ({ page }, info) => {
  await page.goto(server.url);
  const baseCpu = pane(page, `baseline/${cpuProfileIn('baseline')}`);
  const ddCpu = pane(page, `ddtrace/${cpuProfileIn('ddtrace')}`);
  const basePerf = pane(page, 'baseline/perf.script.txt');
  const ddPerf = pane(page, 'ddtrace/perf.script.txt');
  for (const p of [baseCpu, ddCpu, basePerf, ddPerf]) await expectDrawn(p, 3);

  await expect(baseCpu.locator('.badge.baseline')).toHaveText('baseline');
  // the baseline folder's perf capture is the baseline of the perf runs: nothing compared with it
  await expect(basePerf.locator('.badge.baseline')).toHaveText('baseline · perf-script');
  await expect(basePerf.getByRole('status', { name: /^Cost of / })).toHaveCount(0);

  const perfChange = Math.round(
    (perfBusyNs(join(SAMPLES, 'ddtrace/perf.script.txt')) / perfBusyNs(join(SAMPLES, 'baseline/perf.script.txt')) - 1) * 100,
  );
  expect(perfChange).toBe(480);
  await expect(ddPerf.getByRole('status', { name: 'Cost of ddtrace/perf.script.txt against the baseline' })).toHaveText(
    `+${perfChange}% CPU time vs baseline/perf.script.txt`,
  );
  // the .cpuprofile runs as before (e2e/cpu-time.spec.ts computes the same +259% from the raw profiles)
  await expect(ddCpu.getByRole('status', { name: /^Cost of / })).toHaveText('+259% CPU time vs baseline (idle left out)');

  await page.screenshot({ path: info.outputPath('kind-baselines.png') });

  // The sandwich's Δ of each run is against the same run: perf's node::Start against the
  // baseline folder's perf (the .cpuprofile has no such frame: against it, Δ would be the whole).
  await page.keyboard.press('2');
  await page.getByRole('searchbox', { name: 'Function to show' }).fill('node::Start');
  await page
    .getByRole('list', { name: 'Functions' })
    .getByRole('button', { name: /^node::Start / })
    .first()
    .click();
  const summary = page.getByRole('table', { name: 'Function totals' });
  const row = (name: string) =>
    summary
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name, exact: true }) })
      .getByRole('cell');
  // columns in pane order: baseline .cpuprofile, baseline perf, ddtrace .cpuprofile, ddtrace perf
  const ms = (text: string) => {
    const m = /([+−-]?)\s*([\d.]+)\s*(s|ms)/.exec(text)!;
    return (m[1] === '−' || m[1] === '-' ? -1 : 1) * Number(m[2]) * (m[3] === 's' ? 1000 : 1);
  };
  const [basePerfTotal, ddPerfTotal] = [ms((await row('total').nth(1).textContent())!), ms((await row('total').nth(3).textContent())!)];
  await expect(row('total').nth(2)).toHaveText('not in this run');
  await expect(row('Δ total vs baseline').nth(1)).toHaveText('');
  await expect(row('Δ total vs baseline').nth(3)).toHaveAttribute('title', 'against baseline/perf.script.txt');
  const delta = ms((await row('Δ total vs baseline').nth(3).textContent())!);
  expect(Math.abs(delta - (ddPerfTotal - basePerfTotal))).toBeLessThan(0.02 * ddPerfTotal);
  await page.keyboard.press('1');

  // Another baseline: the kinds follow its folder.
  await ddPerf.getByRole('button', { name: 'Make baseline' }).click();
  await expect(ddPerf.locator('.badge.baseline')).toHaveText('baseline');
  await expect(ddCpu.locator('.badge.baseline')).toHaveText('baseline · cpuprofile');
  await expect(basePerf.getByRole('status', { name: /^Cost of / })).toContainText('vs baseline');
  await expect(baseCpu.getByRole('status', { name: /^Cost of / })).toContainText(`vs ddtrace/${cpuProfileIn('ddtrace')}`);
});

test.describe('trace statistics with a baseline of another tool', () => {
  let traceDir: string;
  let traceServer: RunningServer;

  test.beforeAll(async () => {
    traceDir = mkdtempSync(join(tmpdir(), 'flamelens-kinds-traces-'));
    // the agent's trace first: before its folder's trace, the first run with trace events
    const items = [
      ['ddtrace', 'node_trace.1.log.gz'],
      ['baseline', cpuProfileIn('baseline')],
      ['baseline', 'node_trace.1.log.gz'],
    ].map(([run, name]) => {
      mkdirSync(join(traceDir, run!), { recursive: true });
      copyFileSync(join(SAMPLES, run!, name!), join(traceDir, run!, name!));
      return join(traceDir, run!, name!);
    });
    traceServer = await startServer({ items, rendererDir: resolve('out/renderer') });
  });

  test.afterAll(async () => {
    await traceServer?.close();
    rmSync(traceDir, { recursive: true, force: true });
  });

  test("are counted against the baseline folder's trace when the baseline has none", async ({ page }) => {
    await page.goto(traceServer.url);
    await expectDrawn(pane(page, 'baseline/node_trace.1.log.gz'), 3);
    // (the only run from its folder is named by the folder alone)
    await expectDrawn(pane(page, 'ddtrace'), 3);
    await page.getByRole('tab', { name: 'Trace statistics' }).click();
    const table = page.getByRole('table', { name: 'Trace event statistics' });
    await expect(table.getByRole('columnheader', { name: 'ddtrace change' })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'baseline/node_trace.1.log.gz change' })).toHaveCount(0);
    await expect(page.getByRole('note')).toContainText(
      `The baseline, baseline/${cpuProfileIn('baseline')}, has no trace events; baseline/node_trace.1.log.gz is compared against instead.`,
    );
  });
});

test.describe('two run folders of several captures each', () => {
  let folderServer: RunningServer;

  test.beforeAll(async () => {
    // the folders as the tools filled them: a .cpuprofile, a heap profile, a trace, two perf captures, 0x and heap snapshots
    folderServer = await startServer({
      items: [join(SAMPLES, 'baseline'), join(SAMPLES, 'ddtrace')],
      rendererDir: resolve('out/renderer'),
    });
  });

  test.afterAll(async () => {
    await folderServer?.close();
  });

  test('open the same captures from both folders, each compared with its own', async ({ page }, info) => {
    await page.goto(folderServer.url);
    const titles = page.locator('section.pane .pane-title');
    const opened = ['CPU', 'node_trace.1.log.gz', 'perf.F999.script.txt.gz'];
    await expect(titles).toHaveCount(6);
    const names = await titles.allInnerTexts();
    for (const [i, run] of ['baseline', 'ddtrace'].entries())
      opened.forEach((name, j) => expect(names[i * 3 + j]).toContain(`${run}/${name === 'CPU' ? 'CPU.' : name}`));
    await expect(page.getByText(/compares up to 6 runs at once; not opened: /)).toContainText(
      'not opened: baseline/Heap.20261121.233010.6213.0.001.heapprofile, baseline/perf.script.txt, ddtrace/Heap.20261121.233100.6609.0.001.heapprofile, ddtrace/perf.script.txt.',
    );
    const ddPerf = pane(page, 'ddtrace/perf.F999.script.txt.gz');
    await expectDrawn(ddPerf, 3);
    await expect(ddPerf.getByRole('status', { name: /^Cost of / })).toContainText('vs baseline/perf.F999.script.txt.gz');
    await expect(pane(page, 'baseline/node_trace.1.log.gz').locator('.badge.baseline')).toHaveText('baseline · trace-events');
    await page.screenshot({ path: info.outputPath('two-folders.png') });
  });
});
