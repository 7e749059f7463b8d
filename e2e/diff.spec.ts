import { expect, test, type Locator } from '@playwright/test';
import { expectDrawn, pane } from './support';

/** Fill colours of a pane's boxes, with how many boxes have each. */
async function fills(p: Locator): Promise<Map<string, number>> {
  const list = await p.locator('g.frame rect').evaluateAll((rs) => rs.map((r) => getComputedStyle(r).fill));
  const m = new Map<string, number>();
  for (const f of list) m.set(f, (m.get(f) ?? 0) + 1);
  return m;
}

const NEW = 'rgb(168, 85, 247)';
const GONE = 'rgb(15, 118, 110)';
const MOVED = 'rgb(220, 196, 142)';

test.beforeEach(async ({ page }) => {
  await page.goto('./');
  await expectDrawn(pane(page, 'baseline.cpuprofile'));
  await expectDrawn(pane(page, 'dd-trace.cpuprofile'));
});

test('the agent run says what it costs against the baseline', async ({ page }) => {
  const headline = page.getByRole('status', { name: 'Cost of dd-trace.cpuprofile against the baseline' });
  await expect(headline).toContainText(/\+\d+% CPU time vs baseline/);
  await expect(page.getByRole('status', { name: 'Cost of baseline.cpuprofile against the baseline' })).toHaveCount(0);
});

test('diff colouring marks the agent frames as new and ranks them first', async ({ page }) => {
  await page.getByLabel('Compare with baseline').selectOption('diff');
  const agent = pane(page, 'dd-trace.cpuprofile');
  await expect(agent).toContainText('coloured by change against the baseline');
  const colours = await fills(agent);
  expect(colours.get(NEW) ?? 0).toBeGreaterThan(20);
  // Absolute (the default): the agent run spent more time almost everywhere, red with intensity
  // by size; few frames got less.
  const rgb = (c: string) =>
    c
      .match(/^rgb\((\d+), (\d+), (\d+)\)$/)
      ?.slice(1)
      .map(Number);
  const isRed = (c: string) => rgb(c) !== undefined && rgb(c)![0]! > rgb(c)![2]! + 60;
  // (not the purple of new frames)
  const isBlue = (c: string) => rgb(c) !== undefined && rgb(c)![2]! > rgb(c)![0]! + 60 && rgb(c)![1]! > rgb(c)![0]!;
  const boxes = (m: Map<string, number>, is: (c: string) => boolean) => [...m].filter(([c]) => is(c)).reduce((n, [, k]) => n + k, 0);
  expect([...colours.keys()].filter(isRed).length).toBeGreaterThan(1);
  expect(boxes(colours, isRed)).toBeGreaterThan(5 * boxes(colours, isBlue));
  // Fastify's functions called under dd-trace's wrappers moved there: they are not new.
  const reply = agent.locator('g.frame[name="Reply.send"] rect');
  await expect(reply.first()).toBeVisible();
  const replyFills = await reply.evaluateAll((rs) => rs.map((r) => getComputedStyle(r).fill));
  expect(replyFills).toContain(MOVED);
  expect(replyFills).not.toContain(NEW);
  await expect(page.getByRole('list', { name: 'Diff colours' })).toContainText('moved (same function, other callers)');
  // The baseline pane keeps its category colours.
  expect((await fills(pane(page, 'baseline.cpuprofile'))).get(NEW)).toBeUndefined();

  const table = page.getByRole('table', { name: 'Functions ranked by change' });
  await page.getByLabel('Which functions').selectOption('new');
  const firstRows = await table.locator('tbody tr').evaluateAll((trs) => trs.slice(0, 5).map((tr) => tr.textContent ?? ''));
  expect(firstRows.filter((t) => t.includes('dd-trace/')).length).toBeGreaterThanOrEqual(3);
  await page.screenshot({ path: 'test-results/diff.png' });
  // Relative: as shares of a run that grew, the frames the agent did not touch got narrower.
  await page.getByRole('group', { name: 'Normalization' }).getByRole('button', { name: 'Relative' }).click();
  await expect.poll(async () => [...(await fills(agent)).keys()].filter(isBlue).length).toBeGreaterThan(1);
  await page.getByRole('group', { name: 'Normalization' }).getByRole('button', { name: 'Absolute' }).click();

  // A click on a row focuses that function in every pane.
  const row = table.locator('tbody tr', { hasText: 'sendWithTrace' }).first();
  await row.click();
  await expect(page.getByRole('navigation', { name: 'Focused call path' }).locator('[aria-current="location"]')).toHaveText(
    'sendWithTrace',
  );
  await expect(agent.locator('g.frame[name="sendWithTrace"]').first()).toBeVisible();
});

test('the search box filters the table; absolute by default in time, relative one click away', async ({ page }) => {
  await page.getByLabel('Compare with baseline').selectOption('diff');
  const table = page.getByRole('table', { name: 'Functions ranked by change' });
  await page.getByRole('searchbox').fill('fastify/lib');
  // the search runs once typing pauses
  await expect
    .poll(async () => {
      const texts = await table.locator('tbody tr').allTextContents();
      return texts.length > 0 && texts.every((t) => t.includes('fastify/lib'));
    })
    .toBe(true);
  const normalization = page.getByRole('group', { name: 'Normalization' });
  await expect(normalization.getByRole('button', { name: 'Absolute' })).toHaveAttribute('aria-pressed', 'true');
  await expect(table.locator('tbody tr').first().locator('td').last()).toHaveText(/\d (µs|ms|s)$/);
  const legend = page.getByRole('list', { name: 'Diff colours' });
  await expect(legend).toContainText('more time than the baseline spent here');
  await expect(legend).toContainText("noise: within 0.1% of the baseline's total");
  await normalization.getByRole('button', { name: 'Relative' }).click();
  await expect(table.locator('tbody tr').first()).toContainText('pp');
  await expect(legend).toContainText('larger share of the run than in the baseline');
  await expect(legend).toContainText('noise: within 0.1 pp');
});

test('what disappeared and the merged diff show frames the run no longer has', async ({ page }) => {
  await page.getByLabel('Compare with baseline').selectOption('removed');
  const agent = pane(page, 'dd-trace.cpuprofile');
  await expect(agent).toContainText("the baseline's tree, coloured against this run");
  await expect.poll(async () => (await fills(agent)).get(GONE) ?? 0).toBeGreaterThan(0);
  expect((await fills(agent)).get(NEW)).toBeUndefined();

  await page.getByLabel('Compare with baseline').selectOption('merged');
  await expect(agent).toContainText('merged tree of both runs');
  await expect.poll(async () => ((await fills(agent)).get(GONE) ?? 0) > 0 && ((await fills(agent)).get(NEW) ?? 0) > 0).toBe(true);
  await expect(page.getByRole('list', { name: 'Diff colours' })).toContainText('new (not in baseline)');
  await page.screenshot({ path: 'test-results/merged.png' });
});

test("each run's entry script is the baseline's unless unticked", async ({ page }) => {
  await page.getByLabel('Compare with baseline').selectOption('diff');
  const table = page.getByRole('table', { name: 'Functions ranked by change' });
  await page.getByRole('searchbox').fill('/server-(baseline|ddtrace)\\.js/');
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveClass('row-changed');
  await expect(rows.first()).toContainText('server-ddtrace.js');
  // Zoomed to the run's entry script, the baseline shows its own entry script's frame, full width.
  await rows.first().click();
  await expect(page.getByRole('navigation', { name: 'Focused call path' }).locator('[aria-current="location"]')).toHaveText('(anonymous)');
  const base = pane(page, 'baseline.cpuprofile');
  await expect(base.locator('g.frame[name="(anonymous)"]').first()).toBeVisible();
  await expect(base.getByRole('note')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/entry-zoomed.png' });
  // Hovering the run's entry script outlines the baseline's.
  const agent = pane(page, 'dd-trace.cpuprofile');
  const anon = agent.locator('g.frame[name="(anonymous)"]');
  const wide = await anon.evaluateAll((gs) => gs.map((g, i) => (Number(g.getAttribute('width')) > 60 ? i : -1)).filter((i) => i >= 0));
  for (const i of wide) {
    await anon.nth(i).hover();
    if ((await agent.getByRole('tooltip').textContent())?.includes('server-ddtrace.js')) break;
  }
  await expect(agent.getByRole('tooltip')).toContainText('server-ddtrace.js');
  await expect(base.locator('g.frame.hovered[name="(anonymous)"]').first()).toBeAttached();
  await page.mouse.move(0, 0);
  await page.keyboard.press('Escape');
  const entry = page.getByRole('checkbox', { name: 'match entry scripts' });
  await expect(entry).toBeChecked();
  await entry.uncheck();
  await expect(rows).toHaveCount(2);
  expect((await rows.evaluateAll((trs) => trs.map((tr) => tr.className))).sort()).toEqual(['row-new', 'row-removed']);
});
