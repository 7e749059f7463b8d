/**
 * A file named on the command line starts importing with the page's first, small script: its
 * bytes flow while the app's own code (React, the panes, the store) still loads, and it is read
 * with one streamed request.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Request, expect, test } from '@playwright/test';
import { type RunningServer, startServer } from '../node/server/serve';
import { expectDrawn } from './support';

const PERF = resolve('fixtures/samples/ddtrace/perf.script.txt');
/** The page's first script, as the build named it in index.html. */
const FIRST_SCRIPT = /<script type="module"[^>]*src="\.\/assets\/([^"]+\.js)"/.exec(
  readFileSync(resolve('out/renderer/index.html'), 'utf8'),
)![1];

let server: RunningServer;

test.beforeAll(async () => {
  server = await startServer({ items: [PERF], rendererDir: resolve('out/renderer') });
});

test.afterAll(async () => {
  await server?.close();
});

test('the file is fetched by its worker before the app has loaded, with one request', async ({ page, context }) => {
  const requests: string[] = [];
  const record = (r: Request) => requests.push(new URL(r.url()).pathname.replace(/^\/[^/]+/, ''));
  context.on('request', record);
  // The app's code (every script but the page's first) is held back until the file's bytes are
  // on their way: an import that waited for the app would never start, and the test time out.
  let streamStarted!: () => void;
  const streaming = new Promise<void>((res) => (streamStarted = res));
  let mountedWhenStreamed: boolean | undefined;
  context.on('request', (r) => {
    if (!r.url().includes('/api/stream/')) return;
    void page
      .evaluate(() => document.getElementById('root')!.childElementCount > 0)
      .then((mounted) => (mountedWhenStreamed = mounted))
      .finally(streamStarted);
  });
  let heldBack = 0;
  await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop()!;
    if (name !== FIRST_SCRIPT && !name.startsWith('import.worker')) {
      heldBack++;
      await streaming;
    }
    await route.continue();
  });
  await page.goto(server.url);
  const p = page.locator('section.pane');
  await expect(p).toHaveCount(1);
  await expectDrawn(p);
  expect(mountedWhenStreamed, 'the app had mounted before the file was requested').toBe(false);
  expect(heldBack).toBeGreaterThan(0);
  const reads = requests.filter((r) => r.startsWith('/api/'));
  expect(reads.filter((r) => r.startsWith('/api/stream/'))).toHaveLength(1);
  expect(reads.filter((r) => r.startsWith('/api/files/'))).toHaveLength(0);
  expect(reads.filter((r) => r === '/api/initial-items')).toHaveLength(1);
});

test('the import worker loads while the host is asked which files to open, and the app’s code waits until its import has started', async ({
  page,
  context,
}) => {
  const order: string[] = [];
  const name = (url: string) => new URL(url).pathname.replace(/^\/[^/]+/, '');
  context.on('request', (r) => order.push(`request ${name(r.url())}`));
  // The host answers which files to open only after a while: the worker's script is asked for meanwhile.
  await page.route(/\/api\/initial-items$/, async (route) => {
    await new Promise((res) => setTimeout(res, 500));
    order.push('answered /api/initial-items');
    await route.continue();
  });
  await page.goto(server.url);
  const p = page.locator('section.pane');
  await expect(p).toHaveCount(1);
  await expectDrawn(p);
  const at = (re: RegExp) => order.findIndex((x) => re.test(x));
  expect(at(/^request \/assets\/import\.worker/), order.join('\n')).toBeGreaterThan(-1);
  expect(at(/^request \/assets\/import\.worker/), order.join('\n')).toBeLessThan(at(/^answered \/api\/initial-items/));
  // (the app's first run would hold up the worker's start: it is asked for once the import has started)
  expect(at(/^request \/assets\/mount-[^/]+\.js$/), order.join('\n')).toBeGreaterThan(at(/^answered \/api\/initial-items/));
  // one worker for the one file: the one started ahead
  expect(order.filter((x) => /^request \/assets\/import\.worker/.test(x))).toHaveLength(1);
});

test('with no file to open, the worker started ahead ends', async ({ page }) => {
  const empty = await startServer({ items: [], rendererDir: resolve('out/renderer') });
  try {
    await page.goto(empty.url);
    await expect(page.getByText(/record a comparison/i).first()).toBeVisible();
    await expect.poll(() => page.workers().filter((w) => w.url().includes('import.worker')).length).toBe(0);
  } finally {
    await empty.close();
  }
});
