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
