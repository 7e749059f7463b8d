import { writeFileSync, mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { expectDrawn, pane, pngStats } from './support';

test('opens the bundled sample comparison with flamegraphs side by side', async ({ page }) => {
  await page.goto('./');
  const base = pane(page, 'baseline.cpuprofile');
  const agent = pane(page, 'dd-trace.cpuprofile');
  await expectDrawn(base);
  await expectDrawn(agent);
  await expect(base.getByText('baseline', { exact: true })).toBeVisible();
  await expect(base).toContainText('cpuprofile');
  // V8 samples are weighed by how long each lasted
  await expect(agent).toContainText('microseconds');

  const shot = await page.screenshot({ fullPage: false });
  const stats = pngStats(shot);
  expect(stats.width).toBe(1400);
  // Two flamegraphs fill a good part of the window with many distinct frame colours.
  expect(stats.colored / (stats.width * stats.height)).toBeGreaterThan(0.15);
  expect(stats.colors).toBeGreaterThan(100);
  mkdirSync('docs', { recursive: true });
  writeFileSync('docs/screenshot.png', shot);
});

test('shows the empty state help when there is nothing to open', async ({ page }) => {
  await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
  await page.goto('./');
  await expect(page.getByRole('heading', { name: 'Compare profiles side by side' })).toBeVisible();
});
