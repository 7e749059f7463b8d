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

test.beforeEach(async ({ page }) => {
  await page.goto('/');
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
  // Some frames got wider (red) and some narrower (blue), with intensity by size.
  const reds = [...colours.keys()].filter(
    (c) => /^rgb\((\d+), (\d+), (\d+)\)$/.test(c) && Number(c.split(/[(,]/)[1]) > Number(c.split(/[,)]/)[2]) + 60,
  );
  const blues = [...colours.keys()].filter(
    (c) => /^rgb\((\d+), (\d+), (\d+)\)$/.test(c) && Number(c.split(/[,)]/)[2]) > Number(c.split(/[(,]/)[1]) + 60,
  );
  expect(reds.length).toBeGreaterThan(1);
  expect(blues.length).toBeGreaterThan(1);
  // The baseline pane keeps its category colours.
  expect((await fills(pane(page, 'baseline.cpuprofile'))).get(NEW)).toBeUndefined();

  const table = page.getByRole('table', { name: 'Functions ranked by change' });
  await page.getByLabel('Which functions').selectOption('new');
  const firstRows = await table.locator('tbody tr').evaluateAll((trs) => trs.slice(0, 5).map((tr) => tr.textContent ?? ''));
  expect(firstRows.filter((t) => t.includes('dd-trace/')).length).toBeGreaterThanOrEqual(3);
  await page.screenshot({ path: 'test-results/diff.png' });

  // A click on a row focuses that function in every pane.
  const row = table.locator('tbody tr', { hasText: 'sendWithTrace' }).first();
  await row.click();
  await expect(page.getByRole('navigation', { name: 'Focused call path' }).locator('[aria-current="location"]')).toHaveText(
    'sendWithTrace',
  );
  await expect(agent.locator('g.frame[name="sendWithTrace"]').first()).toBeVisible();
});

test('the search box filters the table; absolute mode shows deltas in time', async ({ page }) => {
  await page.getByLabel('Compare with baseline').selectOption('diff');
  const table = page.getByRole('table', { name: 'Functions ranked by change' });
  await page.getByRole('searchbox').fill('fastify/lib');
  const texts = await table.locator('tbody tr').allTextContents();
  expect(texts.length).toBeGreaterThan(0);
  expect(texts.every((t) => t.includes('fastify/lib'))).toBe(true);
  await expect(table.locator('tbody tr').first()).toContainText('pp');
  await page.getByLabel('Normalization').selectOption('absolute');
  await expect(table.locator('tbody tr').first().locator('td').last()).toHaveText(/\d (µs|ms|s)$/);
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
