import { expect, test } from '@playwright/test';
import { dropFiles, expectDrawn, pane } from './support';

test('a run sampled at 1 ms against the same load sampled at 10 ms says so beside its cost, naming the intervals', async ({ page }) => {
  await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
  await page.goto('./');
  await dropFiles(page, [
    { path: 'fixtures/samples/baseline/perf.script.txt', name: 'perf-99hz.script.txt' },
    { path: 'fixtures/samples/baseline/perf.F999.script.txt.gz', name: 'perf-999hz.script.txt.gz' },
  ]);
  const fast = pane(page, 'perf-999hz.script.txt.gz');
  await expectDrawn(pane(page, 'perf-99hz.script.txt'), 5);
  await expectDrawn(fast, 5);
  const warning = fast.getByRole('note', { name: 'Warning on perf-999hz.script.txt.gz' });
  await expect(warning).toContainText('sampled at different intervals (10.10 ms and 1.00 ms)');
  await page.screenshot({ path: 'test-results/comparable-warning.png' });
});
