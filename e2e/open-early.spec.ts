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
