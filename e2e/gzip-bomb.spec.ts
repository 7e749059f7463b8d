/**
 * A gzip file of a few megabytes that inflates to 1 GB ends quickly and within a bounded memory,
 * with one line naming the file, in the command line and in the app (the browser UI that
 * `flamelens open` serves), and the runs already open stay as they were. Memory is measured as
 * the operating system sees it: the peak resident size of the CLI's process, and of the page's
 * renderer process, where the import worker runs (Linux: /proc/PID/status).
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { dropFiles, expectDrawn, pane } from './support';

const GB = 1e9;
const MB = 1e6;
/** Under this, for a process, at its peak. */
const PEAK = 600 * MB;

let dir: string;
let bomb: string;

/** Folded stacks, the same line over and over to 1 GB, gzipped by zlib as `gzip -9` would. */
async function writeBomb(path: string): Promise<void> {
  const gz = createGzip({ level: 9 });
  const out = createWriteStream(path);
  gz.pipe(out);
  const block = Buffer.from('main;work;loop 1\n'.repeat(65_536));
  for (let n = 0; n < GB; n += block.length) if (!gz.write(block)) await once(gz, 'drain');
  gz.end();
  await once(out, 'finish');
}

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flamelens-bomb-'));
  bomb = join(dir, 'bomb.folded.gz');
  await writeBomb(bomb);
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ONE_LINE =
  /^bomb\.folded\.gz (\(byte \d+\) )?.*the gzip data inflates to more than 200 times its size \(\d+ MiB from \d+ KiB\)[^\n]*$/;

test('the command line refuses a 1 GB gzip bomb within 30 s and 600 MB, in one line naming the file', async () => {
  test.setTimeout(90_000);
  // The process's peak resident size, written as it exits.
  const rss = "data:text/javascript,process.on('exit',()=>process.stderr.write('maxrss='+process.resourceUsage().maxRSS*1024+'\\n'))";
  const t = Date.now();
  // (run where the file is, so that the line names it as the person typed it)
  const run = spawnSync(process.execPath, ['--import', rss, join(process.cwd(), 'bin/flamelens.mjs'), 'info', 'bomb.folded.gz'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const ms = Date.now() - t;
  const lines = run.stderr.trim().split('\n');
  const peak = Number(lines.pop()!.replace('maxrss=', ''));
  console.log(`CLI: ${ms} ms, peak ${Math.round(peak / MB)} MB: ${lines.join(' / ')}`);
  expect(run.status).toBe(1);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^flamelens: /);
  expect(lines[0]!.replace(/^flamelens: /, '')).toMatch(ONE_LINE);
  expect(ms).toBeLessThan(30_000);
  expect(peak).toBeLessThan(PEAK);
});

/** The peak resident size of each renderer process of the browser (Linux). */
async function rendererPeaks(browser: import('@playwright/test').Browser): Promise<number[]> {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
  await cdp.detach();
  return processInfo
    .filter((p) => p.type === 'renderer')
    .map((p) => {
      const status = readFileSync(`/proc/${p.id}/status`, 'utf8');
      return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)![1]) * 1024;
    });
}

test('the app refuses a 1 GB gzip bomb within 30 s and 600 MB, in one line naming the file, and the other runs stay open', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await page.goto('./');
  await expectDrawn(pane(page, 'dd-trace.cpuprofile'));
  const before = await rendererPeaks(browser);
  const t = Date.now();
  await dropFiles(page, [{ path: bomb }]);
  const alert = pane(page, 'bomb.folded.gz').getByRole('alert');
  await expect(alert).toContainText('inflates to more than', { timeout: 30_000 });
  const ms = Date.now() - t;
  const peaks = await rendererPeaks(browser);
  const said = (await alert.innerText()).split('\n').find((l) => l.includes('inflates'))!;
  console.log(
    `app: ${ms} ms, renderer peaks ${before.map((b) => Math.round(b / MB))} → ${peaks.map((p) => Math.round(p / MB))} MB: ${said}`,
  );
  expect(said).toMatch(ONE_LINE);
  expect(ms).toBeLessThan(30_000);
  expect(peaks.length).toBeGreaterThan(0);
  for (const peak of peaks) expect(peak).toBeLessThan(PEAK);
  // The runs that were open are still drawn and answer.
  await expectDrawn(pane(page, 'baseline.cpuprofile'));
  await expectDrawn(pane(page, 'dd-trace.cpuprofile'));
  await page.getByRole('searchbox').fill('dd-trace');
  await expect(page.getByRole('status', { name: 'Search share in dd-trace.cpuprofile' })).toContainText('inclusive');
  await page.screenshot({ path: 'test-results/gzip-bomb.png' });
});
