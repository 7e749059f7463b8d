import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { dropFiles, expectDrawn, pane } from './support';

const PERF = 'fixtures/samples/ddtrace/perf.script.txt';

/** Sample times and periods read straight from the perf script headers (`node 6794 3297.854037: 10101010 cpu-clock:pppH:`). */
function perfSamples(): { t: number; period: number }[] {
  const out: { t: number; period: number }[] = [];
  for (const line of readFileSync(PERF, 'utf8').split('\n')) {
    const m = /^\S.*?\s(\d+\.\d+):\s+(\d+)\s+\S+:/.exec(line);
    if (m) out.push({ t: Number(m[1]), period: Number(m[2]) });
  }
  return out;
}

test.beforeEach(async ({ page }) => {
  await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
  await page.goto('./');
});

test('a range picked on the heatmap is what the flamegraph shows', async ({ page }) => {
  await dropFiles(page, [{ path: PERF, name: 'agent.perf.txt' }]);
  const p = pane(page, 'agent.perf.txt');
  await expectDrawn(p);
  await p.getByRole('button', { name: 'Heatmap' }).click();
  const dialog = page.getByRole('dialog', { name: 'Heatmap of agent.perf.txt' });
  await expect(dialog).toBeVisible();
  const canvas = dialog.getByTestId('heatmap-canvas');
  await page.screenshot({ path: 'test-results/heatmap.png' });
  // A click on the bottom cell of the first second (its first 20 ms), then one on the top cell of
  // the second second.
  // The cells are small (8 px high): wait until the dialog has stopped moving (fonts loaded, text
  // wrapped), or a click meant for the bottom row can land below it.
  await page.evaluate(() => document.fonts.ready);
  await expect
    .poll(async () => {
      const a = await canvas.boundingBox();
      await page.waitForTimeout(100);
      const b = await canvas.boundingBox();
      return a !== null && b !== null && a.x === b.x && a.y === b.y;
    })
    .toBe(true);
  // The cell size follows the dialog's width: read it once the dialog has settled.
  const cw = Number(await canvas.getAttribute('data-cell-width'));
  const ch = Number(await canvas.getAttribute('data-cell-height'));
  const start = Number(await canvas.getAttribute('data-start'));
  const cellPoint = async (column: number, row: number) => {
    const box = (await canvas.boundingBox())!;
    return [box.x + column * cw + cw / 2, box.y + row * ch + ch / 2] as const;
  };
  // The grid stays where it is under the pointer while the hint under it changes (the hint once
  // sized the dialog: a shorter one moved the grid, and a click meant for a cell missed it).
  const before = await canvas.boundingBox();
  await page.mouse.move(...(await cellPoint(0, 49)));
  await expect(dialog.getByRole('status')).toContainText(/s into the run|before the run started/);
  expect(await canvas.boundingBox()).toEqual(before);
  await page.mouse.click(...(await cellPoint(0, 49)));
  await expect(dialog.getByRole('status')).toContainText('Now click the last cell');
  await page.mouse.click(...(await cellPoint(1, 0)));
  await expect(dialog).toBeHidden();

  const chosen = perfSamples().filter((s) => Math.floor(s.t) - start <= 1);
  expect(chosen.length).toBeGreaterThan(10);
  const badge = p.getByRole('status', { name: 'Time range of agent.perf.txt' });
  await expect(badge).toContainText(`${chosen.length} samples`);
  // The flamegraph's total — the root box's width in weight — equals those samples' periods.
  const rootValue = await p
    .locator('g.frame[name="agent.perf.txt"]')
    .evaluate((g) => (g as unknown as { __data__: { value: number } }).__data__.value);
  expect(rootValue).toBe(chosen.reduce((s, x) => s + x.period, 0));
  await page.screenshot({ path: 'test-results/heatmap-range.png' });

  await badge.getByRole('button', { name: 'clear' }).click();
  await expect(badge).toBeHidden();
});

test('dragging on the timeline strip narrows the pane to that stretch', async ({ page }) => {
  await dropFiles(page, [{ path: PERF, name: 'agent.perf.txt' }]);
  const p = pane(page, 'agent.perf.txt');
  await expectDrawn(p);
  const strip = p.getByRole('img', { name: /Samples over time in agent\.perf\.txt/ });
  const b = (await strip.boundingBox())!;
  await page.mouse.move(b.x + b.width * 0.05, b.y + 10);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width * 0.25, b.y + 10, { steps: 4 });
  await page.mouse.up();
  const badge = p.getByRole('status', { name: 'Time range of agent.perf.txt' });
  await expect(badge).toBeVisible();
  const n = Number((await badge.textContent())!.match(/([\d,]+) samples/)![1]!.replace(/,/g, ''));
  expect(n).toBeGreaterThan(0);
  expect(n).toBeLessThan(perfSamples().length);
  await strip.dblclick();
  await expect(badge).toBeHidden();
});
