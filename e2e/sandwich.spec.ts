import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { SAMPLE_AGENT, expectDrawn, pane } from './support';

interface RawProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

const SERVER_JS = 'node_modules/dd-trace/packages/datadog-instrumentations/src/http/server.js';

/**
 * From the .cpuprofile's JSON: the busy time (samples in time order, each lasting until the next,
 * the last the mean interval; (idle) left out) of the samples with dd-trace's http `emit` on the
 * stack, and the same time by the function that called its outermost call.
 */
function rawEmit(path: string): { total: number; callers: Map<string, number> } {
  const prof = JSON.parse(readFileSync(path, 'utf8')) as RawProfile;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let clock = prof.startTime;
  const times = prof.timeDeltas.map((d) => (clock += d));
  const order = times.map((_, i) => i).sort((a, b) => times[a]! - times[b]! || a - b);
  const n = order.length;
  const mean = (times[order[n - 1]!]! - times[order[0]!]!) / (n - 1);
  let total = 0;
  const callers = new Map<string, number>();
  order.forEach((i, k) => {
    const id = prof.samples[i]!;
    if (byId.get(id)!.callFrame.functionName === '(idle)') return;
    const w = k + 1 < n ? times[order[k + 1]!]! - times[i]! : mean;
    let outermost: number | undefined;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame;
      if (f.functionName === 'emit' && f.url.endsWith(SERVER_JS)) outermost = at;
    }
    if (outermost === undefined) return;
    total += w;
    const caller = byId.get(parent.get(outermost)!)!.callFrame.functionName || '(anonymous)';
    callers.set(caller, (callers.get(caller) ?? 0) + w);
  });
  return { total, callers };
}

/** "12.3 ms" / "1.25 s" / "830 µs" → microseconds, with half the last shown digit as the tolerance. */
function shown(text: string): { us: number; tolerance: number } {
  const m = /([\d,.]+)\s*(s|ms|µs)/.exec(text)!;
  const digits = m[1]!.replace(/,/g, '');
  const decimals = digits.includes('.') ? digits.split('.')[1]!.length : 0;
  const scale = m[2] === 's' ? 1e6 : m[2] === 'ms' ? 1e3 : 1;
  return { us: Number(digits) * scale, tolerance: (0.5 * scale) / 10 ** decimals };
}

test.beforeEach(async ({ page }) => {
  await page.goto('./');
  await expectDrawn(pane(page, 'baseline.cpuprofile'));
  await expectDrawn(pane(page, 'dd-trace.cpuprofile'));
});

test("the sandwich of dd-trace's emit: its time and its callers in every run, as computed from the raw profile", async ({ page }) => {
  const raw = rawEmit(SAMPLE_AGENT);
  expect(raw.total).toBeGreaterThan(10_000);
  await page.keyboard.press('2');
  await expect(page.getByRole('tab', { name: 'Sandwich' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('searchbox', { name: 'Function to show' }).fill('http/server.js');
  await page
    .getByRole('list', { name: 'Functions' })
    .getByRole('button', { name: /^emit / })
    .click();

  const summary = page.getByRole('table', { name: 'Function totals' });
  await expect(summary.getByRole('columnheader', { name: 'dd-trace.cpuprofile' })).toBeVisible();
  const cells = summary
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'total', exact: true }) })
    .getByRole('cell');
  // columns in pane order: baseline first, which never runs dd-trace
  await expect(cells.nth(0)).toHaveText('not in this run');
  const total = shown((await cells.nth(1).textContent())!);
  expect(Math.abs(total.us - raw.total)).toBeLessThanOrEqual(total.tolerance);

  const callers = page.getByRole('table', { name: 'Callers of emit' });
  const [topName, topTime] = [...raw.callers].sort((a, b) => b[1] - a[1])[0]!;
  const first = callers.getByRole('row').nth(1);
  await expect(first.getByRole('cell').first()).toContainText(topName);
  const w = shown((await first.getByRole('cell').nth(2).textContent())!);
  expect(Math.abs(w.us - topTime)).toBeLessThanOrEqual(w.tolerance);
  await expect(page.getByRole('table', { name: 'Callees of emit' })).toBeVisible();
  await page.screenshot({ path: 'test-results/sandwich.png' });

  // a row's function opens its own sandwich
  await first.getByRole('button', { name: topName, exact: true }).click();
  await expect(page.getByRole('table', { name: `Callers of ${topName}` })).toBeVisible();
});

test('the diff table and the frame under the pointer open the sandwich', async ({ page }) => {
  await page.getByLabel('Compare with baseline').selectOption('diff');
  const table = page.getByRole('table', { name: 'Functions ranked by change' });
  await table.getByRole('button', { name: 'Callers and callees of publish' }).first().click();
  await expect(page.getByRole('tab', { name: 'Sandwich' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('table', { name: 'Callers of publish' })).toBeVisible();

  await page.keyboard.press('1');
  const agent = pane(page, 'dd-trace.cpuprofile');
  await agent.locator('g.frame[name="wrappedHandler"]').first().hover();
  await page.keyboard.press('s');
  await expect(page.getByRole('table', { name: 'Callers of wrappedHandler' })).toBeVisible();
});
