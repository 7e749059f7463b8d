/**
 * `flamelens open` where Electron is missing starts Chromium itself: its window's storage lasts
 * from one opening to the next (node/server/browser-profile.ts), so work kept for recovery is
 * offered back after the window was closed, not only after a reload. Here `flamelens open` starts
 * Debian's Chromium through a wrapper that runs it headless with a debugging port, which the test
 * drives; closing the window ends that opening, as it does for a person.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Page, chromium, expect, test } from '@playwright/test';
import { SAMPLE_AGENT, SAMPLE_BASELINE, expectDrawn, pane } from './support';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Opening {
  app: ChildProcess;
  browser: Browser;
  page: Page;
  output: () => string;
}

test('a comparison with a title comes back after its window was closed and flamelens open was run again', async () => {
  test.setTimeout(180_000);
  const work = mkdtempSync(join(tmpdir(), 'flamelens-reopen-'));
  const debugPort = 9300 + Math.floor(Math.random() * 500);
  const wrapper = join(work, 'chromium');
  const log = join(work, 'chromium.log');
  writeFileSync(
    wrapper,
    `#!/bin/sh\nexec "${CHROMIUM}" --headless=new --disable-gpu --remote-debugging-port=${debugPort} "$@" 2>>"${log}"\n`,
    {
      mode: 0o755,
    },
  );
  const env = {
    ...process.env,
    // (headless, the wrapped browser needs no display; flamelens open starts one only where there is a display)
    DISPLAY: process.env.DISPLAY || ':0',
    FLAMELENS_BROWSER: wrapper,
    FLAMELENS_BROWSER_PROFILE: join(work, 'profile'),
    FLAMELENS_NO_ELECTRON: '1',
  };

  const open = async (): Promise<Opening> => {
    const app = spawn(process.execPath, ['bin/flamelens.mjs', 'open', SAMPLE_BASELINE, SAMPLE_AGENT], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    apps.push(app);
    let out = '';
    app.stdout!.on('data', (d) => (out += String(d)));
    app.stderr!.on('data', (d) => (out += String(d)));
    // The browser lists the app window's page on its DevTools endpoint (which answers at once,
    // whether the browser is up or not); connecting before that could wait on a browser still starting.
    const listed = async () => {
      try {
        const res = await fetch(`http://127.0.0.1:${debugPort}/json/list`, { signal: AbortSignal.timeout(2000) });
        const targets = (await res.json()) as { type: string; url: string }[];
        return targets.some((t) => t.type === 'page' && t.url.startsWith('http://127.0.0.1:'));
      } catch {
        return false;
      }
    };
    const until = Date.now() + 60_000;
    while (!(await listed())) {
      if (Date.now() > until || app.exitCode !== null) {
        const said = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
        throw new Error(`the app window did not open; flamelens open said: ${out}\nChromium said: ${said}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${debugPort}`);
    browsers.push(browser);
    const page = browser
      .contexts()[0]!
      .pages()
      .find((p) => p.url().startsWith('http://127.0.0.1:'));
    if (!page)
      throw new Error(
        `no app page among ${browser
          .contexts()[0]!
          .pages()
          .map((p) => p.url())
          .join(', ')}`,
      );
    return { app, browser, page, output: () => out };
  };

  try {
    const first = await open();
    expect(first.output()).toMatch(/opened Flamelens in a Chromium app window: http:\/\/127\.0\.0\.1:\d+\//);
    await expectDrawn(pane(first.page, 'baseline.cpuprofile'));
    await first.page.getByLabel('Comparison title').fill('dd-trace under load');
    await first.page.waitForTimeout(2500); // kept for recovery a moment after a change
    // The person closes the window: the browser quits (as headed Chromium does when its last
    // window closes), and with it this opening.
    await (await first.browser.newBrowserCDPSession()).send('Browser.close');
    expect(await ended(first.app)).toBe(0);

    const second = await open();
    const banner = second.page.getByRole('alert').filter({ hasText: 'can be' });
    await expect(banner).toContainText(/Unsaved work from .* \(2 runs, 0 notes, a title\) can be restored\./);
    await banner.getByRole('button', { name: 'Restore' }).click();
    await expect(second.page.getByLabel('Comparison title')).toHaveValue('dd-trace under load');
    await expectDrawn(pane(second.page, 'baseline.cpuprofile'));
  } finally {
    await closeAll();
    rmSync(work, { recursive: true, force: true });
  }
});

const apps: ChildProcess[] = [];
const browsers: Browser[] = [];
const ended = (app: ChildProcess) =>
  new Promise<number | null>((r) => (app.exitCode !== null || app.signalCode !== null ? r(app.exitCode) : app.once('exit', r)));

/** Ends every opening still running: its server stops its browser. */
async function closeAll(): Promise<void> {
  for (const b of browsers.splice(0)) await b.close().catch(() => undefined);
  for (const app of apps.splice(0)) {
    app.kill();
    await ended(app);
  }
}
test.afterEach(closeAll);
