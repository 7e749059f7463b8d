import { expect, test } from '@playwright/test';
import { expectDrawn, pane } from './support';

test('the recovery banner counts notes, not the title and caption, and does not call saved work unsaved', async ({ page }) => {
  await page.goto('./');
  await expectDrawn(pane(page, 'baseline.cpuprofile'));
  await page.getByLabel('Comparison title').fill('Fastify under dd-trace');
  await page.getByLabel('Caption', { exact: true }).fill('same load, two runs');
  await page.waitForTimeout(2500); // autosave runs a moment after a change
  await page.reload();
  const banner = page.getByRole('alert').filter({ hasText: 'can be' });
  await expect(banner).toContainText(/Unsaved work from .* \(2 runs, 0 notes, a title and a caption\) can be restored\./);
  await banner.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByLabel('Comparison title')).toHaveValue('Fastify under dd-trace');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save', exact: true }).click()]);
  const name = download.suggestedFilename();
  expect(name).toMatch(/\.flamelens$/);
  await page.waitForTimeout(500);
  await page.reload();
  await expect(banner).toContainText(`saved as ${name} (2 runs, 0 notes, a title and a caption), can be opened again.`);
  await expect(banner).not.toContainText(/unsaved/i);
  await page.screenshot({ path: 'test-results/recovery-saved.png' });
});
