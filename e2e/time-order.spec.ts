import { mkdirSync } from 'node:fs';
import { type Page, expect, test } from '@playwright/test';
import { type RawNode, rawDurations, rawOnStack, readV8Profiles } from '../test/support/v8-raw';
import { dropFiles, expectDrawn, openWithMore, pane } from './support';

/** Three more real captures, named as the tools name them: with the two bundled runs, five. */
const TWO_WORKERS = 'fixtures/corpus/devtools-frontend/two-workers.json.gz';
const AGENT = 'fixtures/samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile';
const AGENT_TITLE = 'CPU.20261121.233052.6494.0.001.cpuprofile';
const MORE = [AGENT, 'fixtures/samples/baseline/perf.script.txt', 'fixtures/samples/ddtrace/perf.F999.script.txt.gz'];

/**
 * From the .cpuprofile's JSON: the share of busy time (samples in time order, each lasting until
 * the next, the last the mean interval; (idle) left out) of the samples taken in [t0, t1) seconds
 * whose stack has a frame with `text` in its function name or script URL.
 */
function rawShare(path: string, text: string, t0: number, t1: number): number {
  const p = readV8Profiles(path)[0]!;
  const w = rawDurations(p);
  const has = (n: RawNode) => n.functionName.toLowerCase().includes(text) || n.url.toLowerCase().includes(text);
  let busy = 0;
  let matched = 0;
  p.ids.forEach((id, i) => {
    const s = p.times[i]! / 1e6;
    if (p.nodes.get(id)!.functionName === '(idle)' || s < t0 || s >= t1) return;
    busy += w[i]!;
    if (rawOnStack(p, id, has)) matched += w[i]!;
  });
  return matched / busy;
}

/** "matches own 61.2% …" → 0.612 */
async function shownShare(page: Page, label: string): Promise<number> {
  const text = (await page.getByRole('status', { name: label, exact: true }).textContent())!;
  return Number(/([\d.]+)%/.exec(text)![1]) / 100;
}

for (const [width, height] of [
  [1280, 800],
  [1600, 1000],
] as const) {
  test.describe(`at ${width}×${height}`, () => {
    test.use({ viewport: { width, height } });

    test('five real runs in time order: the overview picks a range that changes the shares, as computed from the raw file', async ({
      page,
    }) => {
      await openWithMore(
        page,
        MORE.map((path) => ({ path })),
      );
      await page.getByRole('searchbox').fill('dd-trace');
      await page.getByRole('searchbox').press('Enter');
      const wholeRun = await shownShare(page, `Search share in ${AGENT_TITLE}`);
      await page.getByRole('searchbox').blur();

      await page.keyboard.press('5');
      await expect(page.getByRole('tab', { name: 'Time order' })).toHaveAttribute('aria-selected', 'true');
      const lanes = page.locator('section.timeorder-lane');
      await expect(lanes).toHaveCount(5);
      // every lane drew its stacks, and its title is there in full
      for (let i = 0; i < 5; i++) {
        await expect.poll(() => lanes.nth(i).locator('canvas').getAttribute('data-boxes').then(Number)).toBeGreaterThan(20);
        const fits = await lanes
          .nth(i)
          .locator('h3')
          .evaluate((el) => el.scrollWidth <= el.clientWidth);
        expect(fits).toBe(true);
        const box = (await lanes.nth(i).boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(height);
      }

      // drag across the overview from 1.0 to 2.0 s from start: the steady state of the load
      // (the perf captures ran longer than the .cpuprofile ones: the axis is the longest run's)
      const overview = page.getByRole('slider', { name: /Samples of every run over time/ });
      const o = (await overview.boundingBox())!;
      const span = Number(await overview.getAttribute('data-span'));
      const xAt = (us: number) => o.x + (us / span) * o.width;
      await page.mouse.move(xAt(1e6), o.y + o.height / 2);
      await page.mouse.down();
      await page.mouse.move(xAt(2e6), o.y + o.height / 2, { steps: 5 });
      await page.mouse.up();
      await expect(page.getByRole('status', { name: 'Time range' })).toContainText('ms from start');

      const agent = page.getByRole('region', { name: `Time order of ${AGENT_TITLE}` });
      const start = Number(await agent.getAttribute('data-range-start'));
      const end = Number(await agent.getAttribute('data-range-end'));
      expect(end).toBeGreaterThan(start);
      const raw = rawShare(AGENT, 'dd-trace', start, end);
      const inLane = await shownShare(page, `Search share in the time order of ${AGENT_TITLE}`);
      expect(Math.abs(inLane - raw)).toBeLessThanOrEqual(0.0005 + 1e-9);
      // every run got the same stretch of its own time from start
      const baseline = page.getByRole('region', { name: 'Time order of samples/baseline.cpuprofile' });
      const bs = Number(await baseline.getAttribute('data-range-start'));
      const be = Number(await baseline.getAttribute('data-range-end'));
      expect(be - bs).toBeCloseTo(end - start, 6);

      // the keyboard moves the range by a tenth of its width
      await overview.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(async () => Number(await agent.getAttribute('data-range-start'))).toBeCloseTo(start + (end - start) / 10, 6);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(async () => Number(await agent.getAttribute('data-range-start'))).toBeCloseTo(start, 6);

      if (width === 1280) {
        mkdirSync('docs', { recursive: true });
        await page.screenshot({ path: 'docs/time-order.png' });
      }

      // the flamegraphs show the range: the pane's share is the raw file's for that stretch
      // the range as the keys left it (the same stretch, to a rounding of its ends)
      const now = await agent.evaluate((el) => [Number(el.getAttribute('data-range-start')), Number(el.getAttribute('data-range-end'))]);
      await page.keyboard.press('1');
      const inPane = await shownShare(page, `Search share in ${AGENT_TITLE}`);
      expect(Math.abs(inPane - rawShare(AGENT, 'dd-trace', now[0]!, now[1]!))).toBeLessThanOrEqual(0.0005 + 1e-9);
      expect(Math.abs(inPane - wholeRun)).toBeGreaterThan(0.001);
    });
  });
}

test('hover names a box with its duration and file; a click picks its time; a run without sample times says so', async ({ page }) => {
  await page.goto('./');
  await expectDrawn(pane(page, 'dd-trace.cpuprofile'));
  await dropFiles(page, [{ path: 'fixtures/samples/ddtrace/Heap.20261121.233100.6609.0.001.heapprofile' }]);
  await expect(page.locator('section.pane')).toHaveCount(3);
  await page.keyboard.press('5');
  await expect(page.getByRole('region', { name: /Time order of Heap/ })).toContainText('no times');
  const agent = page.getByRole('region', { name: 'Time order of samples/dd-trace.cpuprofile' });
  const canvas = agent.locator('canvas');
  await expect.poll(() => canvas.getAttribute('data-boxes').then(Number)).toBeGreaterThan(20);
  const c = (await canvas.boundingBox())!;
  // the outermost frame of a sample in the middle of the run
  await page.mouse.move(c.x + c.width / 2, c.y + 8);
  const tip = page.getByRole('tooltip');
  await expect(tip).toContainText(/µs|ms|s/);
  await expect(tip).toContainText('sample');
  await page.mouse.click(c.x + c.width / 2, c.y + 8);
  await expect(page.getByRole('status', { name: 'Time range' })).toContainText('ms from start');
  expect(Number(await agent.getAttribute('data-range-end'))).toBeGreaterThan(Number(await agent.getAttribute('data-range-start')));
});

test("a lane shows the thread its pane's picker chose", async ({ page }) => {
  await page.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
  await page.goto('./');
  await dropFiles(page, [{ path: TWO_WORKERS }]);
  const p = pane(page, 'two-workers.json.gz');
  await expectDrawn(p, 5);
  // each thread's samples, counted here from the file's raw profiles
  const raw = readV8Profiles(TWO_WORKERS);
  const count = (tid: string) => raw.find((x) => x.tid === tid)!.ids.length.toLocaleString('en-US');
  expect(count('259')).not.toBe(count('37651'));
  const lane = page.getByRole('region', { name: 'Time order of two-workers.json.gz' });
  await page.keyboard.press('5');
  await expect(lane).toContainText(`${count('259')} samples in`);
  await page.keyboard.press('1');
  await p.getByRole('combobox', { name: 'Thread of two-workers.json.gz' }).selectOption('71044:37651');
  await expect(p).toContainText('DedicatedWorker thread (71044/37651)');
  await page.keyboard.press('5');
  await expect(lane).toContainText(`${count('37651')} samples in`);
});
