import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type Page, expect, test } from '@playwright/test';
import { rawDurations, rawOnStack, readV8Profiles } from '../test/support/v8-raw';
import { SAMPLE_AGENT, SAMPLE_BASELINE, openWithMore } from './support';

/** Three more real runs of the same load beside the bundled two: five in all. */
const MORE = [
  { path: 'fixtures/samples/baseline/perf.script.txt', name: 'baseline-perf.txt' },
  { path: 'fixtures/samples/ddtrace/perf.script.txt', name: 'dd-trace-perf.txt' },
  { path: 'fixtures/samples/ddtrace/perf.F999.script.txt.gz', name: 'dd-trace-perf999.txt.gz' },
];

async function download(page: Page, click: () => Promise<void>): Promise<Buffer> {
  const [d] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = test.info().outputPath(d.suggestedFilename());
  await d.saveAs(path);
  return readFileSync(path);
}

/** Width and height from the PNG's IHDR chunk, read from the bytes. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The header's lines: the text of the SVG's summary group, a line per element. */
function summaryText(svg: string): string {
  const group = /<g class="summary">([\s\S]*?)<\/g>/.exec(svg)![1]!;
  return [...group.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!.replace(/&amp;/g, '&')).join(' ');
}

/** Busy CPU time (µs) and the part of it with dd-trace on the stack, straight from a .cpuprofile's JSON. */
function rawBusy(path: string): { busy: number; agent: number } {
  const p = readV8Profiles(path)[0]!;
  const w = rawDurations(p);
  const isAgent = (n: { url: string }) => /node_modules\/(dd-trace|@datadog)\//.test(n.url);
  let busy = 0;
  let agent = 0;
  p.ids.forEach((id, i) => {
    if (p.nodes.get(id)!.functionName === '(idle)') return;
    busy += w[i]!;
    if (rawOnStack(p, id, isAgent)) agent += w[i]!;
  });
  return { busy, agent };
}

const oneDecimal = (v: number) => String(Math.round(v * 10) / 10);
const duration = (us: number) => (us >= 1e6 ? `${oneDecimal(us / 1e6)} s` : `${oneDecimal(us / 1e3)} ms`);

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 1600, height: 1000 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('an export preset writes a PNG of its size whose header names the five runs and the agent share in words', async ({ page }) => {
      await openWithMore(page, MORE);
      const titles = await page.locator('.pane-title').allTextContents();
      expect(titles).toHaveLength(5);
      await page.getByRole('combobox', { name: 'Agent filter' }).selectOption({ label: 'Datadog (dd-trace)' });

      await page.keyboard.press('Control+e');
      const dialog = page.getByRole('dialog', { name: 'Export' });
      const size = dialog.getByLabel('Picture size', { exact: true });
      const caption = dialog.getByLabel('PNG dimensions');

      // A slide and A4 pages: exactly their size in pixels.
      for (const [preset, width, height] of [
        ['slide', 1920, 1080],
        ['a4-portrait', 1240, 1754],
        ['a4-landscape', 1754, 1240],
      ] as const) {
        await size.selectOption(preset);
        await expect(caption).toHaveText(`${width} × ${height} px PNG`);
        const png = await download(page, () => dialog.getByRole('button', { name: 'Save PNG' }).click());
        expect(pngSize(png)).toEqual({ width, height });
        writeFileSync(test.info().outputPath(`${preset}.png`), png);
      }

      // A GitHub comment: 1200 pixels wide, as tall as the content up to 2000.
      await size.selectOption('github');
      const [, w, h] = /^(\d+) × (\d+) px PNG$/.exec((await caption.textContent())!)!.map(Number);
      expect(w).toBe(1200);
      expect(h).toBeLessThanOrEqual(2000);
      expect(pngSize(await download(page, () => dialog.getByRole('button', { name: 'Save PNG' }).click()))).toEqual({
        width: 1200,
        height: h,
      });

      // The header of the SVG the PNG is made from: every run by name, the agent's share in words, no regex.
      const svg = (await download(page, () => dialog.getByRole('button', { name: 'Save SVG' }).click())).toString('utf8');
      const header = summaryText(svg);
      for (const t of titles) expect(header).toContain(t);
      // each figure of the two .cpuprofile runs as computed from their JSON
      const [base, agent] = [rawBusy(SAMPLE_BASELINE), rawBusy(SAMPLE_AGENT)];
      const share = `${((agent.agent / agent.busy) * 100).toFixed(1)}%`;
      const cost = `+${((agent.busy / base.busy - 1) * 100).toFixed(0)}%`;
      expect(header).toContain(`baseline.cpuprofile (baseline) · ${duration(base.busy)} busy CPU · Datadog (dd-trace): 0% of busy CPU`);
      expect(header).toContain(
        `dd-trace.cpuprofile · ${duration(agent.busy)} busy CPU · ${cost} CPU time vs baseline · Datadog (dd-trace): ${share} of busy CPU`,
      );
      // the figure the pane shows on screen
      await expect(page.getByRole('status', { name: 'Search share in dd-trace.cpuprofile' })).toContainText(
        `matches own ${share} inclusive`,
      );
      expect(header).not.toContain('node_modules');
      // The preview is that picture, scaled down into the dialog.
      const preview = dialog.getByRole('img', { name: 'Preview of the exported picture' });
      await expect(preview).toBeVisible();
      expect(await preview.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([800, Math.round(h! / 1.5)]);
      // Only the stacks with matches: the baseline, which has none, draws no frame but its root.
      await dialog.getByLabel('Only stacks with matches').check();
      const only = (await download(page, () => dialog.getByRole('button', { name: 'Save SVG' }).click())).toString('utf8');
      const firstPane = /<g class="pane"[\s\S]*?<g class="frames"[^>]*>([\s\S]*?)<\/g>/.exec(only)![1]!;
      expect(firstPane.match(/<rect/g)).toHaveLength(1);
      expect(summaryText(only)).toBe(header);
      await dialog.getByLabel('Only stacks with matches').uncheck();

      // As the app lays the panes out, at 1600 px and 2x, the same five runs make a far taller picture.
      await size.selectOption('custom');
      await dialog.getByLabel('Picture width').fill('1600');
      const [, cw, ch] = /^(\d+) × (\d+) px PNG$/.exec((await caption.textContent())!)!.map(Number);
      expect(cw).toBe(3200);
      expect(ch).toBeGreaterThan(2 * h!);
      console.log(`five runs: custom 1600 px at 2x ${cw}×${ch}, GitHub comment ${w}×${h}, slide 1920×1080`);

      // The README's screenshot: the dialog with a slide's preview, at 1280×800.
      await size.selectOption('slide');
      // the next export starts from the size last chosen
      await dialog.getByRole('button', { name: 'Close export' }).click();
      await page.keyboard.press('Control+e');
      await expect(size).toHaveValue('slide');
      await expect(caption).toHaveText('1920 × 1080 px PNG');
      await expect(preview).toBeInViewport();
      if (viewport.width !== 1280) return;
      mkdirSync('docs', { recursive: true });
      writeFileSync('docs/export-dialog.png', await dialog.screenshot());
    });
  });
}
