import { expect, test } from '@playwright/test';
import { expectDrawn, pane } from './support';

test.beforeEach(async ({ page }) => {
  await page.goto('./');
  await expectDrawn(pane(page, 'baseline.cpuprofile'));
});

test('? lists the keyboard shortcuts, which do what they say; Esc closes the list and nothing else', async ({ page }) => {
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  for (const label of [
    'Save the workspace',
    'Reset the zoom',
    'Zoom out one level',
    'Show the trace statistics',
    'Undo',
    'Rows or columns',
  ])
    await expect(dialog.getByRole('row', { name: new RegExp(label) })).toBeVisible();
  await expect(dialog).toContainText(/Flamelens \d+\.\d+\.\d+/);
  await page.screenshot({ path: 'test-results/shortcuts.png' });

  // A single key does nothing underneath the open list.
  const panes = page.locator('.panes');
  await expect(panes).toHaveClass(/panes-rows/);
  await page.keyboard.press('l');
  await expect(panes).toHaveClass(/panes-rows/);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.keyboard.press('l');
  await expect(panes).toHaveClass(/panes-columns/);
  await page.keyboard.press('4');
  await expect(page.getByRole('tab', { name: 'Trace statistics' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('1');
  await expect(page.getByRole('tab', { name: 'Flamegraphs' })).toHaveAttribute('aria-selected', 'true');

  // Typing in the search box is typing, not shortcuts.
  await page.getByRole('searchbox').fill('');
  await page.getByRole('searchbox').pressSequentially('li2');
  await expect(page.getByRole('searchbox')).toHaveValue('li2');
  await expect(panes).toHaveClass(/panes-columns/);
  await expect(page.getByRole('tab', { name: 'Flamegraphs' })).toHaveAttribute('aria-selected', 'true');
});
