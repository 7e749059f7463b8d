/**
 * Files named on the command line are parsed by the local server (in threads of its own) and
 * reach the window as profiles, not as bytes: the window shows exactly what it shows for the
 * same files read by itself, a file that does not import gives the same error, and the formats
 * the window reads itself still come as bytes.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Page, expect, test } from '@playwright/test';
import { threadParser } from '../node/server/parse-pool';
import { type RunningServer, startServer } from '../node/server/serve';
import { expectDrawn } from './support';

const S = resolve('fixtures/samples');
const FILES = [
  { from: `${S}/ddtrace/perf.script.txt`, run: 'perf', name: 'perf.script.txt' },
  {
    from: resolve('fixtures/corpus/FlameGraph/generated-41fee1f/default/perf-vertx-stacks-01-collapsed-default.txt'),
    run: 'folded',
    name: 'stacks.folded',
  },
  { from: `${S}/baseline/node_trace.1.log.gz`, run: 'trace', name: 'node_trace.1.log.gz' },
  { from: `${S}/baseline/CPU.20261121.233005.6118.0.001.cpuprofile`, run: 'cpu', name: 'CPU.20261121.233005.6118.0.001.cpuprofile' },
];

let dir: string;
let paths: string[];
let broken: string;
const servers: RunningServer[] = [];

/** The local server on `items`, parsing as `npm start` does: in threads running the built parse-thread.js. */
async function serve(items: string[]): Promise<RunningServer> {
  const server = await startServer({
    items,
    rendererDir: resolve('out/renderer'),
    parser: threadParser(resolve('out/cli/parse-thread.js')),
  });
  servers.push(server);
  return server;
}

test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'flamelens-server-parse-'));
  paths = FILES.map((f) => {
    mkdirSync(join(dir, f.run));
    copyFileSync(f.from, join(dir, f.run, f.name));
    return join(dir, f.run, f.name);
  });
  // `perf record`'s binary file, where its text (`perf script`) was meant
  mkdirSync(join(dir, 'broken'));
  broken = join(dir, 'broken', 'perf.data');
  writeFileSync(broken, Buffer.concat([Buffer.from('PERFILE2'), Buffer.alloc(200)]));
});

test.afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

/**
 * What a pane shows of its run, once it has stopped changing: its facts line and the text of every
 * frame drawn, in order of text (boxes are reused from draw to draw, so the document's order says
 * nothing), the root aside (it is named after the run, which the command line names by its folder).
 */
async function shown(page: Page, i: number): Promise<{ facts: string; frames: string[] }> {
  const p = page.locator('section.pane').nth(i);
  await expectDrawn(p, 3);
  const read = async () => {
    const title = await p.locator('.pane-title').innerText();
    const frames = (await p.locator('g.frame').evaluateAll((gs) => gs.map((g) => g.textContent ?? ''))).sort();
    const root = frames.indexOf(title);
    if (root >= 0) frames.splice(root, 1);
    return { facts: await p.locator('.pane-facts').innerText(), frames };
  };
  let last = await read();
  for (let tries = 0; tries < 20; tries++) {
    await page.waitForTimeout(150);
    const now = await read();
    if (JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
  return last;
}

test('the server parses the text formats and the window shows what it shows for the files read by itself', async ({
  page,
  context,
  browser,
}, info) => {
  const asked: string[] = [];
  context.on('request', (r) => asked.push(new URL(r.url()).pathname.replace(/^\/[^/]+/, '')));
  const server = await serve(paths);
  await page.goto(server.url);
  const panes = page.locator('section.pane');
  await expect(panes).toHaveCount(FILES.length);
  const fromServer = [];
  for (let i = 0; i < FILES.length; i++) fromServer.push(await shown(page, i));
  // every file but the .cpuprofile (a format the window reads itself) came parsed, that one as bytes
  expect(asked.filter((p) => p.startsWith('/api/parsed/'))).toHaveLength(FILES.length - 1);
  expect(asked.filter((p) => p.startsWith('/api/stream/'))).toHaveLength(1);

  // The same files, named on the command line of a server that parses nothing, so that its
  // window reads them itself, the same way in every other respect (the titles, the order, the
  // layout); in a context of its own, whose storage holds nothing of the first window's.
  const plain = await startServer({ items: paths, rendererDir: resolve('out/renderer') });
  servers.push(plain);
  const ownContext = await browser.newContext({ viewport: page.viewportSize() });
  const own = await ownContext.newPage();
  const ownAsked: string[] = [];
  ownContext.on('request', (r) => ownAsked.push(new URL(r.url()).pathname.replace(/^\/[^/]+/, '')));
  await own.goto(plain.url);
  await expect(own.locator('section.pane')).toHaveCount(FILES.length);
  for (let i = 0; i < FILES.length; i++) {
    const read = await shown(own, i);
    expect(read.frames.length).toBeGreaterThan(2);
    expect(fromServer[i]).toEqual(read);
  }
  // (that window read every file's bytes: the server had no profile to give it)
  expect(ownAsked.filter((p) => p.startsWith('/api/stream/') || p.startsWith('/api/files/')).length).toBeGreaterThanOrEqual(FILES.length);
  await page.screenshot({ path: info.outputPath('server-parse.png') });
  await ownContext.close();
});

test('a file that does not import gives the same error as when the window reads it', async ({ page, context }, info) => {
  const server = await serve([broken]);
  await page.goto(server.url);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('perf.data: this is a binary perf.data file');
  const own = await context.newPage();
  await own.route('**/api/initial-items', (r) => r.fulfill({ json: [] }));
  await own.goto(server.url);
  await own.getByLabel('Open profile files').setInputFiles([broken]);
  const ownAlert = own.getByRole('alert');
  await expect(ownAlert).toContainText('perf.data: this is a binary perf.data file');
  expect(await alert.innerText()).toBe(await ownAlert.innerText());
  await page.screenshot({ path: info.outputPath('server-parse-error.png') });
});
