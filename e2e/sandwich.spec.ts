import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { SAMPLE_AGENT, SAMPLE_BASELINE, expectDrawn, pane } from './support';

interface RawProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

const SERVER_JS = 'node_modules/dd-trace/packages/datadog-instrumentations/src/http/server.js';

/**
 * From the .cpuprofile's JSON: each busy sample (samples in time order, each lasting until the
 * next, the last the mean interval; (idle) left out) with its stack, root first, and its time.
 */
function rawBusySamples(path: string): { stack: RawProfile['nodes'][number][]; w: number }[] {
  const prof = JSON.parse(readFileSync(path, 'utf8')) as RawProfile;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let clock = prof.startTime;
  const times = prof.timeDeltas.map((d) => (clock += d));
  const order = times.map((_, i) => i).sort((a, b) => times[a]! - times[b]! || a - b);
  const n = order.length;
  const mean = (times[order[n - 1]!]! - times[order[0]!]!) / (n - 1);
  const out: { stack: RawProfile['nodes'][number][]; w: number }[] = [];
  order.forEach((i, k) => {
    const id = prof.samples[i]!;
    if (byId.get(id)!.callFrame.functionName === '(idle)') return;
    const stack = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!);
    out.push({
      stack: stack.reverse().filter((x) => x.callFrame.functionName !== '(root)'),
      w: k + 1 < n ? times[order[k + 1]!]! - times[i]! : mean,
    });
  });
  return out;
}

/**
 * The busy time of the samples with dd-trace's http `emit` on the stack, and the same time by
 * the function that called its outermost call.
 */
function rawEmit(path: string): { total: number; callers: Map<string, number> } {
  let total = 0;
  const callers = new Map<string, number>();
  for (const { stack, w } of rawBusySamples(path)) {
    const outermost = stack.findIndex((x) => x.callFrame.functionName === 'emit' && x.callFrame.url.endsWith(SERVER_JS));
    if (outermost < 0) continue;
    total += w;
    const caller = stack[outermost - 1]!.callFrame.functionName || '(anonymous)';
    callers.set(caller, (callers.get(caller) ?? 0) + w);
  }
  return { total, callers };
}

/**
 * Each function's share of the run's busy time, by name and url: in all (once a sample,
 * however often it recurses) and where it is the leaf.
 */
function rawShares(path: string): Map<string, { name: string; total: number; self: number }> {
  const samples = rawBusySamples(path);
  const busy = samples.reduce((s, x) => s + x.w, 0);
  const out = new Map<string, { name: string; total: number; self: number }>();
  const at = (f: RawProfile['nodes'][number]) => {
    const name = f.callFrame.functionName || '(anonymous)';
    const k = `${name}\t${f.callFrame.url}`;
    let e = out.get(k);
    if (!e) out.set(k, (e = { name, total: 0, self: 0 }));
    return e;
  };
  for (const { stack, w } of samples) {
    for (const e of new Set(stack.map(at))) e.total += w / busy;
    at(stack[stack.length - 1]!).self += w / busy;
  }
  return out;
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

test("with a search in the toolbar, the functions offered are the search's, by their share of a run's busy time; without, the hottest by self time", async ({
  page,
}) => {
  const runs = [rawShares(SAMPLE_BASELINE), rawShares(SAMPLE_AGENT)];
  /** Functions by their largest share in either run. */
  const largest = (which: 'total' | 'self', keep: (k: string) => boolean) => {
    const by = new Map<string, { name: string; share: number }>();
    for (const run of runs)
      for (const [k, f] of run) if (keep(k) && f[which] > (by.get(k)?.share ?? 0)) by.set(k, { name: f.name, share: f[which] });
    return [...by.values()].sort((a, b) => b.share - a.share);
  };
  const choices = page.getByRole('list', { name: 'Functions' }).getByRole('button');
  const startsWith = (name: string) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `);
  const shareOf = async (i: number) => Number(/([\d.]+)%$/.exec((await choices.nth(i).textContent())!)![1]);

  await page.keyboard.press('2');
  const hottest = largest('self', () => true);
  await expect(page.getByText('Hottest functions, by self time')).toBeVisible();
  await expect(choices.first()).toHaveText(startsWith(hottest[0]!.name));
  expect(Math.abs((await shareOf(0)) - hottest[0]!.share * 100)).toBeLessThanOrEqual(0.051);

  await page.keyboard.press('1');
  await page.getByRole('searchbox').fill('dd-trace');
  await page.getByRole('searchbox').blur();
  await page.keyboard.press('2');
  // the search matches a function's name or its file, in any case
  const agent = largest('total', (k) => k.toLowerCase().includes('dd-trace'));
  expect(agent.length).toBeGreaterThan(12);
  await expect(page.getByText('Functions the search “dd-trace” matches, by total')).toBeVisible();
  await expect(choices).toHaveCount(12);
  for (let i = 0; i < 3; i++) {
    await expect(choices.nth(i)).toHaveText(startsWith(agent[i]!.name));
    expect(Math.abs((await shareOf(i)) - agent[i]!.share * 100)).toBeLessThanOrEqual(0.051);
  }
  // a pick from them shows its sandwich
  await choices.first().click();
  await expect(page.getByRole('table', { name: `Callers of ${agent[0]!.name}` })).toBeVisible();
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
