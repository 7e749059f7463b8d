import { writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openWithMore } from './support';

const RUNS = [
  'fixtures/samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile',
  'fixtures/samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile',
  'fixtures/samples/ddtrace/Heap.20261121.233100.6609.0.001.heapprofile',
];

/** Titles whose text is cut to fewer than 10 letters' width while they hold more. */
async function crushedTitles(page: import('@playwright/test').Page): Promise<string[]> {
  return page
    .locator('.pane-title')
    .evaluateAll((els) =>
      els
        .filter((el) => el.scrollWidth > el.clientWidth && el.clientWidth < 10 * 7)
        .map((el) => `${el.textContent} (${el.clientWidth} of ${el.scrollWidth} px)`),
    );
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 1600, height: 1000 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('five runs: names stay legible, a search scrolls every pane to its matches, [ and ] move between panes, M maximises one while the others keep their figures', async ({
      page,
    }) => {
      const panes = await openWithMore(
        page,
        RUNS.map((path) => ({ path })),
      );

      expect(await crushedTitles(page)).toEqual([]);

      // a search shows what it matches in every pane, however deep (each pane shows a few rows)
      await page.getByRole('searchbox').fill('writev');
      await page.getByRole('searchbox').press('Enter');
      for (let i = 0; i < 4; i++) {
        const chart = panes.nth(i).locator('.pane-chart');
        // a box the search highlights lies within the pane's view
        await expect
          .poll(() =>
            chart.evaluate((el) => {
              const view = el.getBoundingClientRect();
              const boxes = [...el.querySelectorAll('g.frame')].filter((g) => g.querySelector('rect')?.getAttribute('fill') === '#e600e6');
              return boxes.map((g) => g.getBoundingClientRect()).some((r) => r.top >= view.top - 1 && r.bottom <= view.bottom + 1);
            }),
          )
          .toBe(true);
      }
      await page.screenshot({ path: `test-results/panes-search-${viewport.width}.png` });
      await page.getByRole('searchbox').fill('');
      await page.getByRole('searchbox').press('Enter');
      await page.getByRole('searchbox').blur();

      await page.keyboard.press('l'); // columns: five panes of 250 px
      await expect(page.locator('.panes-columns')).toBeVisible();
      expect(await crushedTitles(page)).toEqual([]);
      // a long name is there in full as the title's tooltip
      const title = await panes.nth(2).locator('.pane-title').textContent();
      await expect(panes.nth(2).locator('.pane-title')).toHaveAttribute(
        'title',
        new RegExp(`^${title!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      );
      await page.keyboard.press('l');

      // ] and [ move the keyboard from pane to pane
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press(']');
      await expect(panes.nth(0)).toBeFocused();
      await page.keyboard.press(']');
      await page.keyboard.press(']');
      await expect(panes.nth(2)).toBeFocused();
      await page.keyboard.press('[');
      await expect(panes.nth(1)).toBeFocused();

      // M: the pane in focus takes the height; the others are strips with their figures
      const big = panes.nth(1);
      const shareHeight = await big.locator('.pane-chart').evaluate((el) => el.clientHeight);
      await page.keyboard.press('m');
      await expect(big.getByRole('button', { name: /^Restore / })).toBeVisible();
      const shot = await page.screenshot({ path: `test-results/panes-maximised-${viewport.width}.png` });
      if (viewport.width === 1280) writeFileSync('docs/five-runs.png', shot);
      const chartHeight = await big.locator('.pane-chart').evaluate((el) => el.clientHeight);
      expect(chartHeight).toBeGreaterThan(3 * shareHeight);
      for (const i of [0, 2, 3, 4]) {
        await expect(panes.nth(i).locator('.pane-chart')).toBeHidden();
        await expect(panes.nth(i).locator('.pane-header')).toBeInViewport();
        await expect(panes.nth(i).locator('.pane-facts')).toBeInViewport();
      }
      // the maximised chart draws its frames at the full width
      await expect(big.locator('g.frame').nth(20)).toBeAttached();

      // M on the maximised pane (or its button) gives every pane its share again
      await page.keyboard.press('m');
      for (let i = 0; i < 5; i++) await expect(panes.nth(i).locator('.pane-chart')).toBeVisible();
      await panes
        .nth(3)
        .getByRole('button', { name: /^Maximise / })
        .click();
      await expect(panes.nth(0).locator('.pane-chart')).toBeHidden();
      await panes
        .nth(3)
        .getByRole('button', { name: /^Restore / })
        .click();
      await expect(panes.nth(0).locator('.pane-chart')).toBeVisible();
      await page.screenshot({ path: `test-results/panes-five-${viewport.width}.png` });

      // a pane's bottom edge drags to a height of the user's own; double-click gives it its share again
      const heightOf = (i: number) => panes.nth(i).evaluate((el) => el.getBoundingClientRect().height);
      const [first, second] = [await heightOf(0), await heightOf(1)];
      const handle = panes.nth(0).getByRole('separator', { name: /^Resize / });
      const hb = (await handle.boundingBox())!;
      await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
      await page.mouse.down();
      await page.mouse.move(hb.x + hb.width / 2, hb.y + 150, { steps: 5 });
      await page.mouse.up();
      await expect.poll(() => heightOf(0)).toBeGreaterThan(first + 140);
      expect(await heightOf(0)).toBeLessThan(first + 160);
      await page.screenshot({ path: `test-results/panes-resized-${viewport.width}.png` });
      await handle.focus();
      await page.keyboard.press('ArrowUp');
      await expect.poll(() => heightOf(0)).toBeLessThan(first + 145);
      await handle.dblclick();
      await expect.poll(async () => Math.abs((await heightOf(0)) - first)).toBeLessThan(2);
      expect(Math.abs((await heightOf(1)) - second)).toBeLessThan(2);

      // the sandwich of a function: its callers in every run that has it, a column per run
      const titles = await panes.locator('.pane-title').allTextContents();
      expect(titles).toHaveLength(5);
      await page.keyboard.press('2');
      await page.getByRole('searchbox', { name: 'Function to show' }).fill('writevGeneric');
      await page
        .getByRole('list', { name: 'Functions' })
        .getByRole('button', { name: /^writevGeneric / })
        .first()
        .click();
      const callers = page.getByRole('table', { name: 'Callers of writevGeneric' });
      await expect(callers.getByRole('columnheader')).toHaveText(['function', ...titles]);
      const firstCaller = callers.getByRole('row').nth(1).getByRole('cell');
      // each of the four CPU profiles calls it
      for (const i of [0, 1, 2, 3]) await expect(firstCaller.nth(i + 1)).not.toHaveText(/not in this run|^$/);
      // bytes of a heap profile are not compared with the baseline's time
      const deltas = page
        .getByRole('table', { name: 'Function totals' })
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: 'Δ total vs baseline' }) })
        .getByRole('cell');
      await expect(deltas.nth(4)).toHaveText('other unit');
      await expect(firstCaller.nth(5)).not.toContainText('bytes');
      const sandwichShot = await page.screenshot({ path: `test-results/panes-sandwich-${viewport.width}.png` });
      if (viewport.width === 1280) writeFileSync('docs/sandwich.png', sandwichShot);
    });
  });
}
