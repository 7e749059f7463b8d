import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { type Page, expect, test } from '@playwright/test';
import { dropFiles, expectDrawn, pane } from './support';

const BASE_PERF = 'fixtures/samples/baseline/perf.script.txt';
const AGENT_PERF = 'fixtures/samples/ddtrace/perf.script.txt';

/** Errors the page threw and did not catch: a blank window starts with one of them. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

test.beforeEach(async ({ page }) => {
  await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
  await page.goto('./');
});

test("a range picked late in one run's heatmap does not break another run's heatmap", async ({ page }) => {
  const errors = collectErrors(page);
  await dropFiles(page, [
    { path: BASE_PERF, name: 'base.perf.txt' },
    { path: AGENT_PERF, name: 'agent.perf.txt' },
  ]);
  const base = pane(page, 'base.perf.txt');
  const agent = pane(page, 'agent.perf.txt');
  await expectDrawn(base);
  await expectDrawn(agent);

  // The agent's run spans ten seconds, the baseline's two: pick the agent's third second.
  await agent.getByRole('button', { name: 'Heatmap' }).click();
  const dialog = page.getByRole('dialog', { name: 'Heatmap of agent.perf.txt' });
  const canvas = dialog.getByTestId('heatmap-canvas');
  await page.evaluate(() => document.fonts.ready);
  const cw = Number(await canvas.getAttribute('data-cell-width'));
  const ch = Number(await canvas.getAttribute('data-cell-height'));
  const box = (await canvas.boundingBox())!;
  await page.mouse.click(box.x + 2 * cw + cw / 2, box.y + 49 * ch + ch / 2);
  await page.mouse.click(box.x + 2 * cw + cw / 2, box.y + ch / 2);
  await expect(dialog).toBeHidden();
  await expect(agent.getByRole('status', { name: 'Time range of agent.perf.txt' })).toBeVisible();

  await base.getByRole('button', { name: 'Heatmap' }).click();
  const baseDialog = page.getByRole('dialog', { name: 'Heatmap of base.perf.txt' });
  await expect(baseDialog).toBeVisible();
  await expect(baseDialog.getByRole('status')).toContainText('Drag across cells');
  await page.screenshot({ path: 'test-results/heatmap-second-run.png' });
  await page.keyboard.press('Escape');
  await expect(baseDialog).toBeHidden();
  await expectDrawn(base);
  await expectDrawn(agent, 3);
  expect(errors).toEqual([]);
});

test('a pane that fails shows its error in its place; the other panes and the toolbar keep working', async ({ page }) => {
  const errors = collectErrors(page);
  // The chart of one pane fails as it mounts (any fault in a pane's code would do the same).
  await page.addInitScript(() => {
    const observe = ResizeObserver.prototype.observe;
    ResizeObserver.prototype.observe = function (this: ResizeObserver, el: Element, opts?: ResizeObserverOptions) {
      if (el.closest('[aria-label="Run broken.perf.txt"]')) throw new TypeError('the chart could not be measured');
      observe.call(this, el, opts);
    };
  });
  await page.reload();
  await dropFiles(page, [
    { path: BASE_PERF, name: 'fine.perf.txt' },
    { path: AGENT_PERF, name: 'broken.perf.txt' },
  ]);
  const broken = pane(page, 'broken.perf.txt');
  const alert = broken.getByRole('alert');
  await expect(alert).toContainText('The pane of broken.perf.txt failed.');
  await expect(alert).toContainText('TypeError: the chart could not be measured');
  const fine = pane(page, 'fine.perf.txt');
  await expectDrawn(fine);
  await page.getByRole('searchbox').fill('uv_run');
  await expect(fine.locator('g.frame.match, g.frame[name="uv_run"]').first()).toBeAttached();
  await page.screenshot({ path: 'test-results/pane-failed.png' });
  // Trying again fails again here, and shows the same message (not a blank pane).
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(broken.getByRole('alert')).toContainText('The pane of broken.perf.txt failed.');
  expect(errors).toEqual([]);
});

test('a dialog that fails shows its error as a dialog that Esc closes', async ({ page }) => {
  await page.addInitScript(() => {
    const getContext = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, ...args: Parameters<typeof getContext>) {
      if (this.dataset.testid === 'heatmap-canvas') throw new Error('no canvas here');
      return getContext.apply(this, args);
    } as typeof getContext;
  });
  await page.reload();
  await dropFiles(page, [{ path: BASE_PERF, name: 'base.perf.txt' }]);
  const base = pane(page, 'base.perf.txt');
  await expectDrawn(base);
  await base.getByRole('button', { name: 'Heatmap' }).click();
  const failed = page.getByRole('dialog', { name: 'The heatmap failed' });
  await expect(failed).toContainText('Error: no canvas here');
  await page.screenshot({ path: 'test-results/dialog-failed.png' });
  await page.keyboard.press('Escape');
  await expect(failed).toBeHidden();
  await expectDrawn(base);
  // It can be opened again (and fails again, in its place).
  await base.getByRole('button', { name: 'Heatmap' }).click();
  await expect(failed).toBeVisible();
  await failed.getByRole('button', { name: 'Close' }).click();
  await expect(failed).toBeHidden();
});

test('a workspace with a heatmap range on a run without timestamps opens, without that range', async ({ page }) => {
  const errors = collectErrors(page);
  await dropFiles(page, [
    { path: BASE_PERF, name: 'base.perf.txt' },
    { name: 'stacks.folded', bytes: Buffer.from('main;serve;handler 30\nmain;serve;agentHook 12\nmain;gc 3\n') },
  ]);
  await expectDrawn(pane(page, 'base.perf.txt'));
  await expect(pane(page, 'stacks.folded').locator('g.frame[name="agentHook"]')).toBeAttached();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save', exact: true }).click()]);
  const saved = test.info().outputPath('saved.flamelens');
  await download.saveAs(saved);
  // The same workspace with a heatmap selection on the folded run, as a hand-edited or
  // foreign-made file could have it.
  // The document is the file's first line; the runs' profiles follow it.
  const plain = gunzipSync(readFileSync(saved));
  const eol = plain.indexOf(10);
  const doc = JSON.parse(plain.subarray(0, eol).toString('utf8'));
  const folded = doc.runs.find((r: { title: string }) => r.title === 'stacks.folded');
  doc.ranges = [
    { runId: folded.id, start: 0, end: 1, cells: { a: { column: 0, row: 49 }, b: { column: 0, row: 0 }, rows: 50, includeIdle: false } },
  ];
  const edited = test.info().outputPath('edited.flamelens');
  writeFileSync(edited, gzipSync(Buffer.concat([Buffer.from(JSON.stringify(doc)), plain.subarray(eol)])));

  await page.getByLabel('Open profile files').setInputFiles(edited);
  await expect(page.getByRole('status').filter({ hasText: 'edited.flamelens: ranges[0]' })).toContainText(
    'edited.flamelens: ranges[0] (a time range on run "stacks.folded") was left out: that run has no sample timestamps.',
  );
  await expect(pane(page, 'stacks.folded').locator('g.frame[name="agentHook"]')).toBeAttached();
  await expectDrawn(pane(page, 'base.perf.txt'));
  expect(errors).toEqual([]);
});

test('Esc closes the export, note and heatmap dialogs, and only them', async ({ page }) => {
  await dropFiles(page, [{ path: BASE_PERF, name: 'base.perf.txt' }]);
  const base = pane(page, 'base.perf.txt');
  await expectDrawn(base);
  await base.locator('g.frame[name="uv_run"]').click();
  const crumbs = page.getByRole('navigation', { name: 'Focused call path' });
  await expect(crumbs.locator('[aria-current="location"]')).toHaveText('uv_run');

  await page.getByRole('button', { name: 'Export…' }).click();
  const exportDialog = page.getByRole('dialog', { name: 'Export' });
  await expect(exportDialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(exportDialog).toBeHidden();

  await page.keyboard.press('Control+e');
  await exportDialog.getByLabel('Picture size', { exact: true }).focus();
  await page.keyboard.press('Escape');
  await expect(exportDialog).toBeHidden();

  await base.locator('g.frame[name="uv_run"]').click({ button: 'right' });
  const noteDialog = page.getByRole('dialog', { name: 'Add a note' });
  await expect(noteDialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(noteDialog).toBeHidden();

  await base.getByRole('button', { name: 'Heatmap' }).click();
  const heatmap = page.getByRole('dialog', { name: 'Heatmap of base.perf.txt' });
  await expect(heatmap).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(heatmap).toBeHidden();

  // Each Esc closed a dialog and did nothing else: the zoom is where it was.
  await expect(crumbs.locator('[aria-current="location"]')).toHaveText('uv_run');
  await page.keyboard.press('Escape');
  await expect(crumbs).toBeHidden();
});
