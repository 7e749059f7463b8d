import { readFileSync } from 'node:fs';
import { type Locator, type Page, expect, test } from '@playwright/test';
import { dropFiles } from './support';

test.beforeEach(async ({ page }) => {
  await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
  await page.goto('./');
});

const BASE = 'baseline.trace.log.gz';
const DD = 'ddtrace.trace.log.gz';

function statsTable(page: Page): Locator {
  return page.getByRole('table', { name: 'Trace event statistics' });
}

/** The body row whose event (or category, or phase) is exactly `name`. */
function row(page: Page, name: string): Locator {
  return statsTable(page)
    .locator('tbody tr')
    .filter({ has: page.getByText(name, { exact: true }) });
}

function cell(page: Page, name: string, run: string, measure = 'count'): Locator {
  return row(page, name).locator(`td[data-run="${run}"][data-measure="${measure}"]`);
}

/** The first column's text of every body row, top to bottom. */
async function eventNames(page: Page): Promise<string[]> {
  return statsTable(page).locator('tbody tr td:nth-child(2)').allInnerTexts();
}

test('trace statistics: the agent run against the baseline, sorted, filtered and exported', async ({ page }) => {
  test.setTimeout(240_000);
  await dropFiles(page, [
    { path: 'fixtures/samples/baseline/node_trace.1.log.gz', name: BASE },
    { path: 'fixtures/samples/ddtrace/node_trace.1.log.gz', name: DD },
  ]);
  await page.getByRole('tab', { name: 'Trace statistics' }).click();
  await expect(page.getByRole('tab', { name: 'Trace statistics' })).toHaveAttribute('aria-selected', 'true');
  // Both 80 MB traces have to be read before the agent's column exists.
  await expect(cell(page, 'PROMISE', DD)).toBeVisible({ timeout: 180_000 });
  await expect(cell(page, 'PROMISE', BASE)).toHaveText('39,714', { timeout: 180_000 });

  await test.step('async lifetimes: the summed duration and the wall time they cover, side by side', async () => {
    // Computed from the raw trace in shared/stats/trace-table.test.ts and node/cli/stats.test.ts.
    await expect(cell(page, 'PROMISE', DD, 'duration')).toHaveText('1,297.7 s');
    await expect(cell(page, 'PROMISE', DD, 'covered')).toHaveText('3.6 s');
    await expect(statsTable(page).getByRole('columnheader', { name: `${DD} wall time` })).toHaveAttribute(
      'title',
      /union of their intervals/,
    );
    await statsTable(page).scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/trace-stats-wall-time.png' });
  });

  await test.step('new event types and differing counts are highlighted', async () => {
    const head = statsTable(page).locator('thead th.ts-run-head');
    await expect(head.first()).toContainText(BASE);
    await expect(head.first()).toContainText('baseline');
    await expect(head.nth(1)).toContainText(DD);

    await expect(cell(page, 'HTTPCLIENTREQUEST', DD)).toHaveClass(/\bnew\b/);
    await expect(cell(page, 'HTTPCLIENTREQUEST', DD)).toHaveText('30');
    await expect(cell(page, 'HTTPCLIENTREQUEST', BASE)).toHaveText('0');
    for (const name of ['UDPWRAP', 'CustomGC']) await expect(cell(page, name, DD)).toHaveClass(/\bnew\b/);

    const lstat = cell(page, 'fs.sync.lstat', DD);
    await expect(lstat).toHaveClass(/\bdiffers\b/);
    await expect(lstat).toHaveText('1,446');
    await expect(lstat).toHaveAttribute('title', /^\+120% vs baseline \(\+790\)/);
    await expect(cell(page, 'fs.sync.lstat', BASE)).toHaveText('656');
    await expect(cell(page, 'fs.sync.lstat', BASE)).not.toHaveClass(/differs/);
    // the bulk of the trace is the same in both runs
    await expect(cell(page, 'TickObject', DD)).not.toHaveClass(/differs|new/);
    await expect(page.getByRole('list', { name: 'Cell highlighting' })).toContainText('new: the baseline has no such events');
  });

  await test.step('a higher threshold hides smaller differences, never new types', async () => {
    const threshold = page.getByLabel('Difference threshold (%)');
    await threshold.fill('200');
    await expect(cell(page, 'fs.sync.lstat', DD)).not.toHaveClass(/differs/);
    await expect(cell(page, 'HTTPCLIENTREQUEST', DD)).toHaveClass(/\bnew\b/);
    await threshold.fill('10');
    await expect(cell(page, 'fs.sync.lstat', DD)).toHaveClass(/\bdiffers\b/);
  });

  await test.step('column headers sort', async () => {
    const change = page.getByRole('button', { name: `${DD} change` });
    await change.click();
    await expect(page.getByRole('columnheader', { name: `${DD} change` })).toHaveAttribute('aria-sort', 'descending');
    // New event types first, the most frequent of them on top (Immediate: 72 events).
    const first = statsTable(page).locator('tbody tr').first();
    await expect(first.locator(`td[data-run="${DD}"][data-measure="count"]`)).toHaveClass(/\bnew\b/);
    await expect(first).toContainText('Immediate');

    await page.getByRole('button', { name: 'Event', exact: true }).click();
    await expect(page.getByRole('columnheader', { name: 'Event', exact: true })).toHaveAttribute('aria-sort', 'ascending');
    await expect(page.getByRole('columnheader', { name: `${DD} change` })).not.toHaveAttribute('aria-sort', /./);
    const names = await eventNames(page);
    expect(names[0]).toBe('AtExit');
    expect(names).toEqual([...names].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));

    await page.getByRole('button', { name: `${BASE} events` }).click();
    await expect(page.getByRole('columnheader', { name: `${BASE} events` })).toHaveAttribute('aria-sort', 'descending');
    expect((await eventNames(page)).slice(0, 2).sort()).toEqual(['TickObject', 'TickObject_CALLBACK']);
  });

  await test.step('the filter keeps matching event types, the totals follow', async () => {
    await page.getByLabel('Filter event types').fill('fs.sync');
    const names = await eventNames(page);
    expect(names.sort()).toEqual(
      [
        'fs.sync.access',
        'fs.sync.close',
        'fs.sync.lstat',
        'fs.sync.open',
        'fs.sync.read',
        'fs.sync.readdir',
        'fs.sync.stat',
        'fs.sync.write',
      ].sort(),
    );
    const total = statsTable(page).locator('tfoot tr');
    await expect(total).toContainText('of the 8 shown');
    // 656 + 506 × 3 + 2 fs.sync events in the baseline
    await expect(total.locator(`td[data-run="${BASE}"][data-measure="count"]`)).toHaveText('2,176');
    await expect(total.locator(`td[data-run="${DD}"][data-measure="count"]`)).toHaveClass(/\bdiffers\b/);
  });

  await test.step('CSV and Markdown export what is shown', async () => {
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(csv.suggestedFilename()).toBe('trace-stats-name.csv');
    const lines = readFileSync((await csv.path())!, 'utf8').split('\r\n');
    expect(lines[0]).toBe(
      `category,name,phases,${BASE} count,${BASE} bytes,${BASE} duration summed (us),${BASE} wall time covered (us),` +
        `${DD} count,${DD} bytes,${DD} duration summed (us),${DD} wall time covered (us),${DD} status`,
    );
    expect(lines).toHaveLength(1 + 8 + 1 + 1); // header, the 8 rows shown, totals, final line end
    expect(lines.find((l) => l.includes(',fs.sync.lstat,'))).toMatch(
      /^"node,node\.fs,node\.fs\.sync",fs\.sync\.lstat,B E,656,\d+,[\d.]+,[\d.]+,1446,\d+,[\d.]+,[\d.]+,differs$/,
    );
    expect(lines.find((l) => l.includes(',fs.sync.readdir,'))).toMatch(/,0,0,0,0,12,\d+,[\d.]+,[\d.]+,new$/);

    const [md] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Markdown' }).click()]);
    expect(md.suggestedFilename()).toBe('trace-stats-name.md');
    const text = readFileSync((await md.path())!, 'utf8');
    expect(text).toContain(
      `| category | name | phases | ${BASE}: events | ${BASE}: bytes | ${BASE}: duration (summed) | ${BASE}: wall time covered | ${DD}: events |`,
    );
    expect(text).toMatch(/\| `node,node\.fs,node\.fs\.sync` \| `fs\.sync\.lstat` \| B E \| 656 \| .* \| \*\*1,446\*\* \(\+120%\) \|/);
  });

  await test.step('grouping by phase or by category', async () => {
    await page.getByLabel('Filter event types').fill('');
    await page.getByLabel('Group by').selectOption('phase');
    await expect(page.getByRole('columnheader', { name: 'Phase', exact: true })).toBeVisible();
    await expect(statsTable(page).locator('tbody tr').filter({ hasText: 'async begin' })).toHaveCount(1);
    await page.getByLabel('Group by').selectOption('category');
    await expect(cell(page, 'node,node.net,node.net.native', DD)).toHaveClass(/\bnew\b/);
  });
});

test('runs without trace events are listed apart; the tabs switch views', async ({ page }) => {
  const trace = JSON.stringify({
    traceEvents: [
      { pid: 1, tid: 1, ts: 0, ph: 'X', cat: 'node', name: 'work', dur: 5 },
      { pid: 1, tid: 1, ts: 10, ph: 'X', cat: 'node', name: 'work', dur: 7 },
      { pid: 1, tid: 1, ts: 20, ph: 'i', cat: 'v8', name: 'mark', s: 't' },
    ],
  });
  await dropFiles(page, [
    { name: 'small.trace.json', bytes: Buffer.from(trace) },
    { path: 'assets/samples/baseline.cpuprofile', name: 'cpu.cpuprofile' },
  ]);
  const tab = page.getByRole('tab', { name: 'Trace statistics' });
  await page.getByRole('tab', { name: 'Time order' }).focus();
  await page.keyboard.press('ArrowRight'); // from the last tab, wraps to the first
  await expect(page.getByRole('tab', { name: 'Flamegraphs' })).toHaveAttribute('aria-selected', 'true');
  await tab.click();
  await expect(page.getByRole('tabpanel')).toHaveAttribute('aria-labelledby', 'tab-trace-stats');
  await expect(page.getByRole('list', { name: 'Runs not in the table' })).toContainText('cpu.cpuprofile no trace events');
  await expect(cell(page, 'work', 'small.trace.json')).toHaveText('2');
  await expect(cell(page, 'work', 'small.trace.json', 'duration')).toHaveText('12 µs');
  await expect(statsTable(page).locator('tfoot')).toContainText('(2 event types)');
});
