import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, chromium } from 'playwright-core';
import { timeUntilDrawn, watchDrawn } from './app.mjs';
import { CHROMIUM } from './browser.mjs';
import { CHROMIUM_FLAGS } from '../chromium-flags.mjs';

/**
 * A page that draws its panes late, as the app does: the first pane's box after 300 ms, the
 * second's after 750 ms (a moment Playwright's polling waits, 0, 20, 100, 100 then 500 ms apart,
 * see only ~470 ms later). `window.truth` is when the last box went in, in ms since 1970.
 */
const PAGE = `<!doctype html><body><script>
  const pane = (i) => {
    const s = document.createElement('section');
    s.setAttribute('role', 'region');
    s.setAttribute('aria-label', 'Run ' + i);
    document.body.append(s);
    return s;
  };
  const draw = (s) => {
    s.innerHTML = '<svg><g class="frame"><rect width="10" height="10"></rect></g></svg>';
    return performance.timeOrigin + performance.now();
  };
  const a = pane(1), b = pane(2);
  setTimeout(() => draw(a), 300);
  setTimeout(() => (window.truth = draw(b)), 750);
</script></body>`;

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
});
afterAll(async () => {
  await browser?.close();
});

describe('the app benchmark', () => {
  it('times the navigation until every pane is drawn and painted, to within a few frames, not a polling interval', async () => {
    const page = await browser.newPage();
    await page.route('http://bench.test/', (route) => route.fulfill({ contentType: 'text/html', body: PAGE }));
    await page.addInitScript(watchDrawn, 2);
    const start = performance.timeOrigin + performance.now();
    const { navigationMs, drawnAt } = await timeUntilDrawn(page, 'http://bench.test/', 10_000);
    const truth = (await page.evaluate(() => (window as unknown as { truth: number }).truth)) - start;
    // not before the second pane drew, and not much later than the two frames it waits for (a
    // loaded machine delays frames; a poll that just missed the draw would come ~470 ms late)
    expect(navigationMs).toBeGreaterThanOrEqual(truth);
    expect(navigationMs - truth).toBeLessThan(250);
    expect(drawnAt).toBeGreaterThan(750);
    await page.close();
  });
});
