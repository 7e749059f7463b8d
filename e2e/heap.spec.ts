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
