import { expect, test } from '@playwright/test';
import { expectDrawn, pane } from './support';

test.use({ viewport: { width: 1280, height: 800 } });

/** The distinct rows the toolbar's items sit on (their tops, rounded). */
async function toolbarRows(page: import('@playwright/test').Page): Promise<number> {
  return page.locator('header.toolbar').evaluate((bar) => {
    const tops = new Set<number>();
    for (const el of bar.children) {
      const r = el.getBoundingClientRect();
      if (r.width > 0) tops.add(Math.round((r.top + r.bottom) / 2 / 8));
    }
    return tops.size;
  });
}

test('the toolbar fits one row at 1280 px, its view choices in a menu', async ({ page }) => {
  await page.goto('./');
  await expectDrawn(pane(page, 'dd-trace.cpuprofile'));
  expect(await toolbarRows(page)).toBe(1);
  await page.getByText('View', { exact: true }).click();
  await page.getByRole('button', { name: 'Icicle' }).click();
  await expect(page.getByRole('button', { name: 'Flame' })).toBeVisible();
  // an icicle shows its root at the top: the pane scrolls there from the flame's bottom
  const root = pane(page, 'dd-trace.cpuprofile').locator('g.frame[name="dd-trace.cpuprofile"]');
  await expect(root).toBeInViewport();
  await page.screenshot({ path: 'test-results/toolbar-1280.png' });
  // a click elsewhere closes the menu
  await page.getByRole('tab', { name: 'Flamegraphs' }).click();
  await expect(page.getByRole('button', { name: 'Flame' })).toBeHidden();
  await page.getByLabel('Compare with baseline').selectOption('diff');
  await expect(root).toBeInViewport();
  await page.screenshot({ path: 'test-results/toolbar-1280-diff.png' });
});
