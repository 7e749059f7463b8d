import { type Locator, expect, test } from '@playwright/test';
import { dropFiles, expectDrawn, pane } from './support';

const BASE_PERF = 'fixtures/samples/baseline/perf.script.txt';
const AGENT_PERF = 'fixtures/samples/ddtrace/perf.script.txt';

test.beforeEach(async ({ page }) => {
  await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
  await page.goto('./');
});

interface Drawn {
  index: number;
  name: string;
  depth: number;
  width: number;
}

/** Each drawn box's name, depth in the drawing and width in pixels. */
async function boxes(p: Locator): Promise<Drawn[]> {
  return p.locator('g.frame').evaluateAll((gs) =>
    gs.map((g, index) => {
      const d = (g as unknown as { __data__: { depth: number; data: { name: string } } }).__data__;
      return { index, name: d.data.name, depth: d.depth, width: Number(g.querySelector('rect')!.getAttribute('width')) };
    }),
  );
}

/** Whether a box lies inside the visible part of its pane's (scrolling) chart. */
async function inView(p: Locator, box: Locator): Promise<boolean> {
  const chart = (await p.getByTestId('flame-chart').boundingBox())!;
  const b = (await box.locator('rect').boundingBox())!;
  // (a focused box's outline reaches 1 px past its box: a box as wide as the chart overhangs it)
  const slack = 1.5;
  return (
    b.y >= chart.y - slack && b.y + b.height <= chart.y + chart.height + slack && b.x >= chart.x - slack && b.x < chart.x + chart.width
  );
}

test('zooming into a deep stack shows the focused frame in every pane, its ancestors in one row', async ({ page }) => {
  await dropFiles(page, [
    { path: BASE_PERF, name: 'base.perf.txt' },
    { path: AGENT_PERF, name: 'agent.perf.txt' },
  ]);
  const panes = [pane(page, 'base.perf.txt'), pane(page, 'agent.perf.txt')];
  for (const p of panes) await expectDrawn(p);
  await page.screenshot({ path: 'test-results/zoom-deep-before.png' });

  // A frame 16 deep in the agent's run, wide enough to click, present in both runs.
  const agent = panes[1]!;
  const all = await boxes(agent);
  const target = all.filter((b) => b.depth === 16 && b.width > 20).sort((a, b) => b.width - a.width)[0]!;
  expect(target).toBeDefined();
  await agent.locator('g.frame').nth(target.index).locator('rect').click();
  const crumbs = page.getByRole('navigation', { name: 'Focused call path' });
  await expect(crumbs.locator('[aria-current="location"]')).toHaveText(target.name);
  await page.screenshot({ path: 'test-results/zoom-deep-after.png' });

  for (const p of panes) {
    // Root, one row of ancestors, the focused frame: the focused frame is the third row, in view.
    const focused = p.locator('g.frame.focused');
    await expect(focused).toHaveCount(1);
    await expect.poll(() => inView(p, focused)).toBe(true);
    expect(await focused.evaluate((g) => (g as unknown as { __data__: { depth: number } }).__data__.depth)).toBe(2);
    await expect(p.locator('g.frame.ancestors')).toHaveCount(1);
  }
  const ancestors = agent.locator('g.frame.ancestors');
  await expect(ancestors).toHaveCount(1);
  // The row names the chain (the innermost names, as many as fit), and a click on one of its
  // names goes up to that frame.
  const crumbNames = await ancestors.locator('tspan.crumb').allTextContents();
  expect(crumbNames.length).toBeGreaterThan(3);
  const parentName = crumbNames[crumbNames.length - 1]!;
  const upTo = crumbNames[crumbNames.length - 3]!;
  await ancestors
    .locator('tspan.crumb')
    .nth(crumbNames.length - 3)
    .click();
  await expect(crumbs.locator('[aria-current="location"]')).toHaveText(upTo);
  await expect(agent.locator('g.frame.focused')).toHaveAttribute('name', upTo);
  expect(parentName).not.toBe(upTo);
  for (const p of panes) await expect.poll(() => inView(p, p.locator('g.frame.focused'))).toBe(true);
});
