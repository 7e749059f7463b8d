import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { dropFiles, expectDrawn, pane } from './support';

test.beforeEach(async ({ page }) => {
  await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
  await page.goto('./');
});

const H = 'fixtures/samples';
const SNAPSHOTS = [
  { path: `${H}/baseline/heap/before.heapsnapshot.gz`, name: 'baseline-before.heapsnapshot.gz' },
  { path: `${H}/baseline/heap/after.heapsnapshot.gz`, name: 'baseline-after.heapsnapshot.gz' },
  { path: `${H}/ddtrace/heap/before.heapsnapshot.gz`, name: 'ddtrace-before.heapsnapshot.gz' },
  { path: `${H}/ddtrace/heap/after.heapsnapshot.gz`, name: 'ddtrace-after.heapsnapshot.gz' },
];

test('four heap snapshots open side by side as retained-size flamegraphs of the dominator tree', async ({ page }) => {
  await dropFiles(page, SNAPSHOTS);
  for (const s of SNAPSHOTS) {
    const p = pane(page, s.name);
    await expectDrawn(p, 5);
    await expect(p.locator('.pane-facts')).toContainText('heapsnapshot');
    await expect(p.locator('.pane-facts')).toContainText('bytes');
  }
  // the dd-trace run retains more than the baseline, and says so in retained bytes
  await expect(pane(page, 'ddtrace-after.heapsnapshot.gz').getByRole('status', { name: /Cost of/ })).toContainText(
    'retained bytes vs baseline',
  );
  await page.screenshot({ path: 'test-results/heap-snapshots.png' });
});

test("the heap view: classes side by side with dd-trace's new ones marked, what dd-trace's code keeps alive, and why an object is alive", async ({
  page,
}) => {
  await dropFiles(page, SNAPSHOTS);
  for (const s of SNAPSHOTS) await expectDrawn(pane(page, s.name), 5);
  await page.getByRole('tab', { name: 'Heap' }).click();
  const classes = page.getByRole('table', { name: 'Classes' });
  for (const s of SNAPSHOTS)
    await expect(classes.getByRole('columnheader', { name: new RegExp(s.name.replace(/\./g, '\\.')) })).toBeVisible();
  // a class only dd-trace makes is new against the baseline
  await page.getByRole('searchbox').fill('DatadogSpan');
  const span = classes.getByRole('row', { name: /DatadogSpan/ }).first();
  await expect(span).toContainText('new');

  await page.getByRole('searchbox').fill('dd-trace');
  const kept = page.getByRole('status', { name: 'Kept alive by matches' });
  await expect(kept).toContainText('dd-trace');
  const text = (await kept.textContent())!;
  const bytesOf = (title: string) => {
    const m = new RegExp(`${title.replace(/\./g, '\\.')} ([\\d.]+) (B|kB|MB)`).exec(text)!;
    return Number(m[1]) * { B: 1, kB: 1e3, MB: 1e6 }[m[2] as 'B' | 'kB' | 'MB'];
  };
  expect(bytesOf('baseline-after.heapsnapshot.gz')).toBe(0);
  expect(bytesOf('ddtrace-after.heapsnapshot.gz')).toBeGreaterThan(1e6);

  await page.getByRole('searchbox').fill('DatadogSpan');
  await span.click();
  const why = page.getByRole('complementary', { name: 'Retainer path' });
  await expect(why).toContainText('Why DatadogSpan is alive');
  const steps = why.getByRole('listitem');
  expect(await steps.count()).toBeGreaterThan(2);
  await expect(steps.last()).toContainText('DatadogSpan');
  await page.screenshot({ path: 'test-results/heap-view.png' });
});

test('heap snapshots come back after a reload, and from a saved workspace, with the same retained sizes', async ({ page }) => {
  test.setTimeout(120_000);
  const two = SNAPSHOTS.slice(2);
  await dropFiles(page, two);
  for (const s of two) await expectDrawn(pane(page, s.name), 5);
  const facts = async () => Promise.all(two.map((s) => pane(page, s.name).locator('.pane-facts').innerText()));
  const before = await facts();
  expect(before.join(' ')).toContain('bytes');
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Control+s')]);
  const saved = test.info().outputPath('heap.flamelens');
  await download.saveAs(saved);
  await page.waitForTimeout(2500); // the recovery record is written a moment after a change

  // Crash recovery: the runs' profiles, heap graphs included, from the browser's store.
  await page.reload();
  await page.getByRole('alert').getByRole('button', { name: 'Restore' }).click();
  for (const s of two) await expectDrawn(pane(page, s.name), 5);
  expect(await facts()).toEqual(before);

  // The saved file, read in a worker, the dominators and retained sizes worked out again.
  await page.getByLabel('Open profile files').setInputFiles(saved);
  await expect(page.getByRole('region', { name: /^Run / })).toHaveCount(2);
  for (const s of two) await expectDrawn(pane(page, s.name), 5);
  expect(await facts()).toEqual(before);
});

test('objects allocated between two snapshots of one process: counted by id, by class, and why the largest new one is alive', async ({
  page,
}) => {
  // from the raw files: the ids of before, the objects of after without one of them
  const ids = (path: string) => {
    const raw = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as {
      snapshot: { meta: { node_fields: string[] } };
      nodes: number[];
    };
    const f = raw.snapshot.meta.node_fields;
    const out: number[] = [];
    for (let i = 0; i < raw.nodes.length; i += f.length) out.push(raw.nodes[i + f.indexOf('id')]!);
    return out;
  };
  const old = new Set(ids(SNAPSHOTS[2]!.path));
  const fresh = ids(SNAPSHOTS[3]!.path).filter((id) => !old.has(id)).length;

  await dropFiles(page, SNAPSHOTS);
  for (const s of SNAPSHOTS) await expectDrawn(pane(page, s.name), 5);
  await page.getByRole('tab', { name: 'Heap' }).click();
  await page.getByLabel('Earlier snapshot').selectOption({ label: 'ddtrace-before.heapsnapshot.gz' });
  await page.getByLabel('Later snapshot').selectOption({ label: 'ddtrace-after.heapsnapshot.gz' });
  const status = page.getByRole('status', { name: 'Allocated since the earlier snapshot' });
  await expect(status).toContainText(`${fresh.toLocaleString('en-US')} objects`);
  const table = page.getByRole('table', { name: 'Allocated classes' });
  const rows = table.locator('tbody tr');
  expect(await rows.count()).toBeGreaterThan(5);
  const counts = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.children[1]!.textContent!.replace(/,/g, ''))));
  expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(fresh);
  await rows.first().click();
  await expect(page.getByRole('complementary', { name: 'Retainer path' }).last()).toContainText('its largest new object');
  await page.screenshot({ path: 'test-results/heap-allocated.png' });
});
