import { expect, test } from '@playwright/test';
import { dropFiles, expectDrawn, pane } from './support';

test.beforeEach(async ({ page }) => {
  await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
  await page.goto('./');
});

const S = 'fixtures/samples';
const C = 'fixtures/corpus';

// Every format, as a person would drop it: file, pane title, the format the pane must report.
// Dropped four at a time; the two 0x files go in different drops (0x files dropped together are one run).
const FORMATS: { path: string; name: string; format: string }[] = [
  { path: `${S}/baseline/CPU.20261121.233005.6118.0.001.cpuprofile`, name: 'base.cpuprofile', format: 'cpuprofile' },
  { path: `${S}/ddtrace/Heap.20261121.233100.6609.0.001.heapprofile`, name: 'agent.heapprofile', format: 'heapprofile' },
  { path: `${S}/ddtrace/perf.F999.script.txt.gz`, name: 'agent.perf.txt.gz', format: 'perf-script' },
  { path: `${S}/baseline/0x/flamegraph.html`, name: 'flamegraph.html', format: '0x' },
  { path: `${C}/FlameGraph/generated-41fee1f/default/perf-vertx-stacks-01-collapsed-default.txt`, name: 'vertx.txt', format: 'folded' },
  { path: 'fixtures/pprof/datadog-node20-time.pb.gz', name: 'datadog.pb.gz', format: 'pprof' },
  { path: `${S}/ddtrace/0x/ticks.json.gz`, name: 'ticks.json.gz', format: '0x' },
  { path: `${C}/speedscope/sample/profiles/Chrome/116/Trace-20230603T221323.json`, name: 'chrome-trace.json', format: 'trace-events' },
];

test('every format opens by drag and drop', async ({ page }) => {
  for (let i = 0; i < FORMATS.length; i += 4) {
    const batch = FORMATS.slice(i, i + 4);
    if (i > 0) await page.reload();
    await dropFiles(page, batch);
    for (const f of batch) {
      const p = pane(page, f.name);
      await expectDrawn(p, 3);
      await expect(p.locator('.pane-facts')).toContainText(f.format);
    }
  }
});

test('files open through the open dialog', async ({ page }) => {
  await page.getByLabel('Open profile files').setInputFiles([`${S}/baseline/perf.script.txt`, `${S}/ddtrace/node_trace.1.log.gz`]);
  await expectDrawn(pane(page, 'perf.script.txt'));
  await expectDrawn(pane(page, 'node_trace.1.log.gz'));
  const facts = pane(page, 'node_trace.1.log.gz').locator('.pane-facts');
  await expect(facts).toContainText('trace-events');
  // spans against perf's CPU samples: no change is claimed, the pane says why
  await expect(facts).toContainText('cannot compare the span time of node_trace.1.log.gz');
  await expect(facts).not.toContainText('vs baseline');
});

test('a 0x output folder opens as one run', async ({ page }) => {
  await page.getByLabel('Open a 0x output folder').setInputFiles(`${S}/ddtrace/0x`);
  const p = pane(page, '0x');
  await expectDrawn(p);
  await expect(p.locator('.pane-facts')).toContainText('0x');
});

test('a large file shows its progress while it loads', async ({ page }) => {
  await dropFiles(page, [{ path: `${S}/ddtrace/node_trace.1.log.gz`, name: 'trace-80MB.log.gz' }]);
  const p = pane(page, 'trace-80MB.log.gz');
  await expect(p.getByRole('progressbar', { name: 'Loading trace-80MB.log.gz' })).toBeVisible();
  await expect(p.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expectDrawn(p);
});

test('a load can be cancelled', async ({ page }) => {
  await dropFiles(page, [{ path: `${S}/baseline/node_trace.1.log.gz`, name: 'slow.log.gz' }]);
  const p = pane(page, 'slow.log.gz');
  await p.getByRole('button', { name: 'Cancel' }).click();
  // Nothing was made: the pane goes, with no error left behind, and the empty state is back.
  await expect(p).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Compare profiles side by side' })).toBeVisible();
});
