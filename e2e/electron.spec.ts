/**
 * The real desktop app, launched through Playwright's Electron driver. Needs an installed Electron
 * binary and a display; where either is missing every test here is reported as SKIPPED with the
 * reason — never as passed. (It does not try to download Electron: that belongs to `npm start`.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ElectronApplication, type Page, _electron, expect, test } from '@playwright/test';
import { findElectron } from '../node/server/electron-binary';
import type { FlamelensApi } from '../shared/ipc/contract';
import { expectDrawn, pane } from './support';

declare global {
  interface Window {
    flamelens?: FlamelensApi;
  }
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const found = findElectron(ROOT, { env: process.env, platform: process.platform, download: false });

test.skip('reason' in found, 'reason' in found ? `Electron app not tested: ${found.reason}` : '');

let app: ElectronApplication;
let page: Page;
let userData: string;

test.beforeAll(async () => {
  if (!('path' in found)) return;
  userData = mkdtempSync(join(tmpdir(), 'flamelens-e2e-electron-'));
  app = await _electron.launch({
    executablePath: found.path,
    args: [ROOT, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
    cwd: ROOT,
    env: { ...process.env, FLAMELENS_USER_DATA_DIR: userData },
  });
  page = await app.firstWindow();
});

test.afterAll(async () => {
  await app?.close();
  if (userData) rmSync(userData, { recursive: true, force: true });
});

test('opens the bundled sample comparison in a window titled Flamelens', async () => {
  await expect(page).toHaveTitle('Flamelens');
  await expectDrawn(pane(page, 'baseline.cpuprofile'));
  await expectDrawn(pane(page, 'dd-trace.cpuprofile'));
});

test('the page has no Node.js, only the bridge', async () => {
  const seen = await page.evaluate(() => ({
    require: typeof (window as unknown as { require?: unknown }).require,
    process: typeof (window as unknown as { process?: unknown }).process,
    api: Object.keys(window.flamelens ?? {}).sort(),
  }));
  expect(seen.require).toBe('undefined');
  expect(seen.process).toBe('undefined');
  expect(seen.api).toEqual([
    'initialItems',
    'onMenuCommand',
    'onOpenItems',
    'openDialog',
    'openRecent',
    'readFileChunk',
    'recentList',
    'registerDropped',
    'saveBegin',
    'saveEnd',
    'saveFile',
    'saveWrite',
  ]);
});

test('no eval, no network, no new windows, no navigation', async () => {
  const result = await page.evaluate(async () => {
    let evalBlocked = false;
    try {
      (0, eval)('1');
    } catch {
      evalBlocked = true;
    }
    const fetched = await fetch('https://example.com/').then(
      () => 'fetched',
      () => 'blocked',
    );
    const popup = window.open('https://example.com/');
    return { evalBlocked, fetched, popup: popup === null };
  });
  expect(result).toEqual({ evalBlocked: true, fetched: 'blocked', popup: true });
  const before = page.url();
  await page.evaluate(() => {
    window.location.href = 'https://example.com/';
  });
  await page.waitForTimeout(500);
  expect(page.url()).toBe(before);
});

test('the page comes from flamelens://app/, with the CSP header, and file:// is out of reach', async () => {
  expect(page.url()).toBe('flamelens://app/index.html');
  const seen = await page.evaluate(async () => {
    const own = await fetch('./index.html');
    const outside = await fetch('./../../package.json').then((r) => r.status);
    const file = await fetch('file:///etc/hostname').then(
      () => 'fetched',
      () => 'blocked',
    );
    return { status: own.status, csp: own.headers.get('content-security-policy'), outside, file, origin: window.origin };
  });
  expect(seen).toMatchObject({ status: 200, outside: 404, file: 'blocked', origin: 'flamelens://app' });
  expect(seen.csp).toContain("default-src 'self'");
});

test('main reads only files it handed out', async () => {
  const items = await page.evaluate(() => window.flamelens!.initialItems());
  const token = items[0]!.kind === 'file' ? items[0]!.file.token : '';
  const head = await page.evaluate((t) => window.flamelens!.readFileChunk(t, 0, 16).then((b) => b.length), token);
  expect(head).toBe(16);
  const forged = await page.evaluate(() =>
    window.flamelens!.readFileChunk('forged', 0, 16).then(
      () => 'read',
      (e: Error) => e.message,
    ),
  );
  expect(forged).toMatch(/unknown file token/);
});

test('a file made by the page is not a dropped file: nothing reaches the recent list', async () => {
  const before = await page.evaluate(() => window.flamelens!.recentList());
  await page.evaluate(() => window.flamelens!.registerDropped([new File(['x'], '/etc/passwd')]));
  expect(await page.evaluate(() => window.flamelens!.recentList())).toEqual(before);
});

test('the menu has File, View and Help, and sends commands to the renderer', async () => {
  const labels = await app.evaluate(({ Menu }) => Menu.getApplicationMenu()?.items.map((i) => i.label) ?? []);
  expect(labels).toEqual(expect.arrayContaining(['File', 'View', 'Help']));
  const received = page.evaluate(() => new Promise<string>((res) => window.flamelens!.onMenuCommand((cmd) => res(cmd))));
  await app.evaluate(({ Menu }) => {
    const find = (items: Electron.MenuItem[]): Electron.MenuItem | undefined => {
      for (const i of items) {
        if (i.label === 'About Flamelens') return i;
        const sub = i.submenu ? find(i.submenu.items) : undefined;
        if (sub) return sub;
      }
      return undefined;
    };
    find(Menu.getApplicationMenu()!.items)!.click();
  });
  expect(await received).toBe('about');
});
