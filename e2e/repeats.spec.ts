/**
 * A variant of several runs, in the app: two folders of five real `node --cpu-prof` repeats each
 * (the bundled sample server, and the same server behind a wrapper, recorded by `flamelens record
 * --profile-repeat 5`, kept in fixtures/repeats) open as two panes of five runs, and the diff tells the wrapper's cost from
 * run-to-run noise. The figures shown are checked against `compareRepeats` run here on the raw files.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Locator, expect, test } from '@playwright/test';
import { type FunctionChange, type RepeatsComparison, compareRepeats } from '../shared/diff/repeats';
import { type TDistribution, loadTDistribution } from '../shared/diff/t-distribution';
import { importProfile } from '../shared/import/import-profile';
import { bytesSource } from '../shared/import/io/source';
import type { Profile } from '../shared/model/types';
import { weighByDefault } from '../shared/model/weigh';
import { busyWeights } from '../shared/search/busy';
import { expectDrawn, pane } from './support';

const NEW = 'rgb(168, 85, 247)';
const UNCHANGED = 'rgb(222, 219, 214)';
const GONE = 'rgb(15, 118, 110)';
const MOVED = 'rgb(220, 196, 142)';

/** five `node --cpu-prof` repeats a side (fixtures/repeats/README.md says how they were recorded) */
const DIR = resolve('fixtures/repeats');
let stats: RepeatsComparison;
let baseProfiles: Profile[];
let runProfiles: Profile[];
let t: TDistribution;

/** `+860 ms` → 860000 (µs), with the size of the last digit shown. */
function parseTime(sign: string, num: string, unit: string): { us: number; step: number } {
  const scale = unit === 's' ? 1e6 : unit === 'ms' ? 1e3 : 1;
  const decimals = num.includes('.') ? num.split('.')[1]!.length : 0;
  return { us: (sign === '−' ? -1 : 1) * Number(num.replace(/,/g, '')) * scale, step: scale * 10 ** -decimals };
}

/** The Δ cell of the diff table: `+860 ms (+842 to +878 ms)`. */
function parseDelta(text: string): {
  delta: ReturnType<typeof parseTime>;
  low: ReturnType<typeof parseTime>;
  high: ReturnType<typeof parseTime>;
} {
  const m = /([+−±])([\d,.]+) (s|ms|µs) \(([+−±])([\d,.]+) to ([+−±])([\d,.]+) (s|ms|µs)\)/.exec(text);
  if (!m) throw new Error(`not a delta with its interval: ${text}`);
  return { delta: parseTime(m[1]!, m[2]!, m[3]!), low: parseTime(m[4]!, m[5]!, m[8]!), high: parseTime(m[6]!, m[7]!, m[8]!) };
}

const near = (shown: { us: number; step: number }, exact: number) =>
  expect(Math.abs(shown.us - exact)).toBeLessThanOrEqual(shown.step * 0.51);

async function profilesIn(folder: string) {
  const names = readdirSync(folder).sort();
  return Promise.all(names.map(async (n) => weighByDefault(await importProfile(bytesSource(n, readFileSync(join(folder, n))), {}))));
}

test.beforeAll(async () => {
  [baseProfiles, runProfiles] = await Promise.all([profilesIn(join(DIR, 'baseline')), profilesIn(join(DIR, 'agent'))]);
  t = await loadTDistribution();
  stats = compareRepeats(t, baseProfiles, runProfiles, { measure: 'self', weights: (p) => busyWeights(p) });
});

const fn = (name: string): FunctionChange => stats.functions.find((f) => f.key.split('\t')[0] === name)!;

async function fillsOf(p: Locator, name: string): Promise<string[]> {
  return p.locator(`g.frame[name="${name}"] rect`).evaluateAll((rs) => rs.map((r) => getComputedStyle(r).fill));
}

test('a folder of five repeats opens as one variant; the diff shows intervals and leaves run-to-run noise uncoloured', async ({ page }) => {
  await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
  await page.goto('./');
  const folderInput = page.getByLabel('Open a 0x output folder');
  await folderInput.setInputFiles(join(DIR, 'baseline'));
  await folderInput.setInputFiles(join(DIR, 'agent'));
  await expect(page.locator('section.pane')).toHaveCount(2);
  const base = pane(page, 'baseline');
  const agent = pane(page, 'agent');
  await expectDrawn(base, 5);
  await expectDrawn(agent, 5);
  for (const p of [base, agent]) await expect(p.locator('.badge.repeats')).toHaveText('5 runs');
  await expect(base.locator('.badge.baseline')).toBeVisible();

  await page.getByLabel('Compare with baseline').selectOption('diff');
  await page.getByLabel('Delta of').selectOption('self');
  const legend = page.getByRole('list', { name: 'Diff colours' });
  await expect(legend).toContainText('unchanged, or within noise (5 runs each)');
  await expect(legend).toContainText("Welch's t");

  // The wrapper's own frame: beyond noise, its Δ and interval as compareRepeats gives them.
  const traced = fn('traced');
  expect(traced.significant).toBe(true);
  const table = page.getByRole('table', { name: 'Functions ranked by change' });
  await expect(table.locator('th').last()).toHaveText('detects');
  await expect(table.locator('th').last()).toHaveAttribute('title', /smallest change these runs could detect \(5 runs each/);
  const tracedRow = table.locator('tbody tr').filter({ hasText: 'traced' }).first();
  const tracedCell = tracedRow.locator('td').nth(3);
  await expect(tracedCell).toHaveClass('up');
  const shown = parseDelta((await tracedCell.textContent())!);
  near(shown.delta, traced.delta);
  near(shown.low, traced.interval!.low);
  near(shown.high, traced.interval!.high);
  const detectable = /±([\d,.]+) (s|ms|µs)/.exec((await tracedRow.locator('td').nth(4).textContent())!)!;
  near(parseTime('+', detectable[1]!, detectable[2]!), traced.detectable!);

  // The largest change that is only noise: said so in the table, and uncoloured.
  const noisy = stats.functions.find((f) => !f.significant && f.key.includes('\t') && !f.key.startsWith('('))!;
  const noisyName = noisy.key.split('\t')[0]!;
  const noisyCell = table.locator('tbody tr').filter({ hasText: noisyName }).first().locator('td').nth(3);
  await expect(noisyCell).toHaveClass('noise');
  near(parseDelta((await noisyCell.textContent())!).delta, noisy.delta);
  // Red and blue are only for functions whose change holds up across the repeats; the wrapper's
  // frames are new; every other frame is uncoloured (or, where its callers differ, "moved").
  const significant = new Set(stats.functions.filter((f) => f.significant).map((f) => f.key.split('\t')[0]));
  const frames = await agent
    .locator('g.frame')
    .evaluateAll((gs) => gs.map((g) => [g.getAttribute('name') ?? '', getComputedStyle(g.querySelector('rect')!).fill] as const));
  // (the root, the run itself, is drawn in its own colour)
  const diverging = frames.filter(([name, fill]) => name !== 'agent' && ![NEW, GONE, MOVED, UNCHANGED].includes(fill));
  expect(diverging.filter(([name]) => !significant.has(name))).toEqual([]);
  expect(frames.filter(([, fill]) => fill === UNCHANGED).length).toBeGreaterThan(10);
  expect(new Set(await fillsOf(agent, 'traced'))).toEqual(new Set([NEW]));

  // The cost line: the change of the mean and its interval's half-width.
  const pct = stats.total.ratio * 100;
  const half = Math.max(stats.total.ratioInterval!.high - stats.total.ratio, stats.total.ratio - stats.total.ratioInterval!.low) * 100;
  const cost = page.getByRole('status', { name: 'Cost of agent against the baseline' });
  await expect(cost).toContainText(`+${pct.toFixed(0)}% ± ${half.toFixed(0)}% CPU time vs baseline`);
  await expect(cost).toContainText('95% interval over 5 runs each');

  await agent.locator('g.frame[name="traced"]').first().hover();
  const tip = agent.getByRole('tooltip');
  await expect(tip).toContainText('Δ function, 5 runs each');
  await expect(tip).toContainText('beyond noise');
  await expect(tip).toContainText('the smallest change these runs could detect');
  await page.screenshot({ path: 'test-results/repeats-diff.png' });
  await page.mouse.move(0, 0);
  await page.screenshot({ path: 'test-results/repeats-legend.png' });

  // The diff table's CSV carries the same intervals, verdicts and detectable changes, unrounded.
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  await dialog.getByLabel('Run to export').selectOption({ label: 'agent' });
  const [csv] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Diff table CSV' }).click()]);
  const lines = readFileSync((await csv.path())!, 'utf8').split('\r\n');
  expect(lines[0]!.split(',').slice(-4)).toEqual(['delta_self_low_us', 'delta_self_high_us', 'beyond_noise', 'detectable_us']);
  const tracedCsv = lines.find((l) => l.includes(',traced,'))!.split(',');
  expect(Number(tracedCsv.at(-4))).toBeCloseTo(traced.interval!.low, 3);
  expect(Number(tracedCsv.at(-3))).toBeCloseTo(traced.interval!.high, 3);
  expect(tracedCsv.at(-2)).toBe('yes');
  expect(Number(tracedCsv.at(-1))).toBeCloseTo(traced.detectable!, 3);
  expect(
    lines
      .find((l) => l.includes(`,${noisyName},`))!
      .split(',')
      .at(-2),
  ).toBe('no');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Relative: the intervals are of each repeat's share of its own busy CPU, in percentage points.
  await page.getByRole('button', { name: 'Relative', exact: true }).click();
  const shares = compareRepeats(t, baseProfiles, runProfiles, { measure: 'self', relative: true, weights: (p) => busyWeights(p) });
  const tracedShare = shares.functions.find((f) => f.key.split('\t')[0] === 'traced')!;
  const pp = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(2)}`;
  await expect(tracedCell).toHaveText(
    `${pp(tracedShare.delta)} pp (${pp(tracedShare.interval!.low)} to ${pp(tracedShare.interval!.high)} pp)`,
  );
  await page.getByRole('button', { name: 'Absolute', exact: true }).click();

  // One repeat alone: an ordinary diff again, and the mean back.
  await agent.getByLabel('Repeat of agent').selectOption('0');
  await expect(legend).not.toContainText('5 runs each');
  await expect(cost).not.toContainText('±');
  await agent.getByLabel('Repeat of agent').selectOption('mean');
  await expect(legend).toContainText('within noise (5 runs each)');
});

test('a run of repeats comes back with every repeat after a reload, and from a saved workspace', async ({ page }) => {
  await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
  await page.goto('./');
  const folderInput = page.getByLabel('Open a 0x output folder');
  await folderInput.setInputFiles(join(DIR, 'baseline'));
  await folderInput.setInputFiles(join(DIR, 'agent'));
  const agent = pane(page, 'agent');
  await expectDrawn(agent, 5);
  await expectDrawn(pane(page, 'baseline'), 5);
  await agent.getByLabel('Repeat of agent').selectOption('2');
  await page.getByLabel('Compare with baseline').selectOption('diff');
  await page.waitForTimeout(2500); // autosave runs a moment after a change
  await page.reload();
  const banner = page.getByRole('alert').filter({ hasText: 'can be' });
  await banner.getByRole('button', { name: 'Restore' }).click();
  await expectDrawn(agent, 5);
  for (const title of ['baseline', 'agent']) await expect(pane(page, title).locator('.badge.repeats')).toHaveText('5 runs');
  await expect(agent.getByLabel('Repeat of agent')).toHaveValue('2');
  await agent.getByLabel('Repeat of agent').selectOption('mean');
  const legend = page.getByRole('list', { name: 'Diff colours' });
  await expect(legend).toContainText('within noise (5 runs each)');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save', exact: true }).click()]);
  const saved = await download.path();
  await page.evaluate(() => indexedDB.deleteDatabase('flamelens'));
  await page.reload();
  await page
    .getByLabel('Open profile files')
    .setInputFiles({ name: 'repeats.flamelens', mimeType: 'application/gzip', buffer: readFileSync(saved) });
  await expectDrawn(agent, 5);
  for (const title of ['baseline', 'agent']) await expect(pane(page, title).locator('.badge.repeats')).toHaveText('5 runs');
  await expect(legend).toContainText('within noise (5 runs each)');
  await expect(page.getByRole('status', { name: 'Cost of agent against the baseline' })).toContainText(/% ± \d+% CPU time/);
});

test('a repeat that cannot be read is named in its pane, and the others still make the mean', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'flamelens-repeats-broken-'));
  try {
    const folder = join(dir, 'agent');
    mkdirSync(folder);
    const good = readdirSync(join(DIR, 'agent')).slice(0, 3);
    for (const f of good) copyFileSync(join(DIR, 'agent', f), join(folder, f));
    const bad = 'CPU.20261127.160000.99999.0.001.cpuprofile';
    writeFileSync(join(folder, bad), readFileSync(join(DIR, 'agent', good[0]!)).subarray(0, 5000));
    await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
    await page.goto('./');
    await page.getByLabel('Open a 0x output folder').setInputFiles(folder);
    const p = pane(page, 'agent');
    await expectDrawn(p, 5);
    await expect(p.locator('.badge.repeats')).toHaveText('3 runs');
    const failed = p.getByRole('alert').filter({ hasText: 'not read' });
    await expect(failed).toHaveText(`1 not read: ${bad}`);
    await expect(failed).toHaveAttribute('title', new RegExp(`^${bad.replace(/\./g, '\\.')}.*: `));
    await page.screenshot({ path: 'test-results/repeats-failed.png' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
