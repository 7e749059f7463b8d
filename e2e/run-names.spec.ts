/**
 * What runs are called and which one is the baseline, with files named as their tools name them,
 * opened the way the command line opens them (`npm start -- ddtrace/CPU… baseline/CPU…`: the
 * local server's initial items); 0x files dropped together; removing a run and taking it back.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { type RunningServer, startServer } from '../node/server/serve';
import { dropFiles, expectDrawn, pane } from './support';

const SAMPLES = resolve('fixtures/samples');
const cpuProfileIn = (run: string) => readdirSync(join(SAMPLES, run)).find((f) => /^CPU\.\d+\.\d+\.\d+\.0\.001\.cpuprofile$/.test(f))!;

test.describe('runs opened from the command line', () => {
  let dir: string;
  let server: RunningServer;

  test.beforeAll(async () => {
    // The captures as a person keeps them: one folder per run, the files as node --cpu-prof named them.
    dir = mkdtempSync(join(tmpdir(), 'flamelens-names-'));
    const paths = ['ddtrace', 'baseline'].map((run) => {
      mkdirSync(join(dir, 'runs', run), { recursive: true });
      const name = cpuProfileIn(run);
      copyFileSync(join(SAMPLES, run, name), join(dir, 'runs', run, name));
      return join(dir, 'runs', run, name);
    });
    server = await startServer({ items: paths, rendererDir: resolve('out/renderer') });
  });

  test.afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('are named by their folders, and the baseline folder is the baseline whatever the order', async ({ page }, info) => {
    await page.goto(server.url);
    const panes = page.locator('section.pane');
    await expect(panes).toHaveCount(2);
    await expect(panes.locator('.pane-title')).toHaveText(['ddtrace', 'baseline']);
    const base = pane(page, 'baseline');
    const dd = pane(page, 'ddtrace');
    await expectDrawn(base);
    await expectDrawn(dd);
    await expect(base.locator('.badge.baseline')).toHaveText('baseline');
    await expect(dd.locator('.badge.baseline')).toHaveCount(0);
    await expect(dd.getByRole('button', { name: 'Make baseline' })).toBeVisible();
    // The cost line is the agent run's, measured against the baseline run.
    await expect(dd.getByRole('status', { name: 'Cost of ddtrace against the baseline' })).toContainText('vs baseline');
    await page.screenshot({ path: info.outputPath('run-names.png') });
  });
});

test.describe('traces opened from the command line', () => {
  let dir: string;
  let server: RunningServer;

  test.beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flamelens-traces-'));
    const paths = ['ddtrace', 'baseline'].map((run) => {
      mkdirSync(join(dir, run));
      copyFileSync(join(SAMPLES, run, 'node_trace.1.log.gz'), join(dir, run, 'node_trace.1.log.gz'));
      return join(dir, run, 'node_trace.1.log.gz');
    });
    server = await startServer({ items: paths, rendererDir: resolve('out/renderer') });
  });

  test.afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('trace statistics columns carry the run names, the baseline first', async ({ page }, info) => {
    test.setTimeout(240_000);
    await page.goto(server.url);
    await expect(page.locator('section.pane .pane-title')).toHaveText(['ddtrace', 'baseline']);
    await page.getByRole('tab', { name: 'Trace statistics' }).click();
    const head = page.getByRole('table', { name: 'Trace event statistics' }).locator('thead th.ts-run-head');
    // Both 80 MB traces are read before both columns exist.
    await expect(head).toHaveCount(2, { timeout: 180_000 });
    await expect(head.nth(0)).toContainText('baseline');
    await expect(head.nth(1)).toContainText('ddtrace');
    await expect(head.nth(1)).not.toContainText('node_trace');
    await page.screenshot({ path: info.outputPath('trace-stats-names.png') });
  });
});

test.describe('dropped files', () => {
  test.beforeEach(async ({ page }) => {
    await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
    await page.goto('./');
  });

  test('the files of a 0x folder dropped together are one run, named as 0x names the folder', async ({ page }) => {
    const zx = join(SAMPLES, 'ddtrace', '0x');
    const files = readdirSync(zx).filter((f) => /^(flamegraph\.html|meta\.json|isolate-.*-v8\.log\.json\.gz)$/.test(f));
    expect(files).toHaveLength(3);
    await dropFiles(
      page,
      files.map((f) => ({ path: join(zx, f) })),
    );
    const panes = page.locator('section.pane');
    await expect(panes).toHaveCount(1);
    const pid = /isolate-0x[0-9a-f]+-(\d+)-/.exec(files.find((f) => f.startsWith('isolate'))!)![1];
    const p = pane(page, `${pid}.0x`);
    await expectDrawn(p);
    await expect(p.locator('.pane-facts')).toContainText('0x');
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('a removed run comes back with Ctrl+Z, or with Undo in the notice', async ({ page }, info) => {
    await dropFiles(page, [{ path: 'assets/samples/baseline.cpuprofile' }, { path: 'assets/samples/dd-trace.cpuprofile' }]);
    const titles = page.locator('section.pane .pane-title');
    await expect(titles).toHaveText(['baseline.cpuprofile', 'dd-trace.cpuprofile']);
    await expectDrawn(pane(page, 'dd-trace.cpuprofile'));
    await pane(page, 'baseline.cpuprofile').getByRole('button', { name: 'Remove baseline.cpuprofile' }).click();
    await expect(titles).toHaveText(['dd-trace.cpuprofile']);
    const notice = page.getByRole('status', { name: 'Run removed' });
    await expect(notice).toContainText('Removed baseline.cpuprofile');
    await page.screenshot({ path: info.outputPath('run-removed.png') });

    await page.keyboard.press('Control+z');
    await expect(titles).toHaveText(['baseline.cpuprofile', 'dd-trace.cpuprofile']);
    await expect(notice).toHaveCount(0);
    await expect(pane(page, 'baseline.cpuprofile').locator('.badge.baseline')).toHaveText('baseline');
    await expectDrawn(pane(page, 'baseline.cpuprofile'));

    await pane(page, 'dd-trace.cpuprofile').getByRole('button', { name: 'Remove dd-trace.cpuprofile' }).click();
    await expect(titles).toHaveText(['baseline.cpuprofile']);
    await notice.getByRole('button', { name: 'Undo' }).click();
    await expect(titles).toHaveText(['baseline.cpuprofile', 'dd-trace.cpuprofile']);
    await expectDrawn(pane(page, 'dd-trace.cpuprofile'));
  });
});
