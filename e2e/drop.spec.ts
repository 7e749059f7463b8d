import { expect, test } from '@playwright/test';
import { dropFiles, expectDrawn, pane } from './support';

test.beforeEach(async ({ page }) => {
  await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
  await page.goto('./');
});

test('dropped files become runs, each in its own pane', async ({ page }) => {
  await dropFiles(page, [
    { path: 'fixtures/samples/baseline/perf.script.txt', name: 'baseline.perf.txt' },
    { path: 'fixtures/corpus/FlameGraph/generated-41fee1f/default/perf-vertx-stacks-01-collapsed-default.txt', name: 'vertx.folded' },
  ]);
  await expectDrawn(pane(page, 'baseline.perf.txt'));
  await expectDrawn(pane(page, 'vertx.folded'));
  await expect(pane(page, 'baseline.perf.txt')).toContainText('perf-script');
  await expect(pane(page, 'vertx.folded')).toContainText('folded');
});

test('a file that fails shows its error in its own pane and the others keep working', async ({ page }) => {
  await dropFiles(page, [
    { path: 'assets/samples/baseline.cpuprofile' },
    { name: 'garbage.bin', bytes: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)) },
    { name: 'empty.cpuprofile', bytes: Buffer.alloc(0) },
  ]);
  const good = pane(page, 'baseline.cpuprofile');
  await expectDrawn(good);
  await expect(pane(page, 'garbage.bin').getByRole('alert')).toContainText('garbage.bin');
  await expect(pane(page, 'empty.cpuprofile').getByRole('alert')).toContainText('empty');
  // The good pane still responds: a click focuses a frame.
  await good.locator('g.frame').nth(3).click();
  await expect(page.getByRole('navigation', { name: 'Focused call path' })).toBeVisible();
});
