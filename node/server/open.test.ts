import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserArgs, browserCandidates, findBrowser, openInBrowser } from './open';

describe('finding a browser', () => {
  it('looks on PATH, then at the usual places, on Linux', () => {
    const c = browserCandidates('linux', { PATH: '/usr/local/bin:/usr/bin' });
    expect(c.slice(0, 2)).toEqual(['/usr/local/bin/chromium', '/usr/bin/chromium']);
    expect(c).toContain('/usr/bin/google-chrome-stable');
    expect(c).toContain('/usr/bin/chromium-browser');
    expect(c.at(-2)).toBe('/usr/bin/chromium');
  });

  it('prefers an explicit FLAMELENS_BROWSER or CHROME_PATH', () => {
    expect(browserCandidates('linux', { FLAMELENS_BROWSER: '/opt/c/chrome', PATH: '/usr/bin' })[0]).toBe('/opt/c/chrome');
    expect(browserCandidates('darwin', { CHROME_PATH: '/x/Chrome' })[0]).toBe('/x/Chrome');
  });

  it('knows the macOS and Windows install locations', () => {
    expect(browserCandidates('darwin', {})).toContain('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome');
    const win = browserCandidates('win32', { PROGRAMFILES: 'C:\\Program Files' });
    expect(win.some((p) => p.includes('Google') && p.endsWith('chrome.exe'))).toBe(true);
  });

  it('takes the first executable candidate, or none', () => {
    const env = { PATH: '/a:/b' };
    expect(findBrowser('linux', env, (p) => p === '/b/google-chrome')).toBe('/b/google-chrome');
    expect(findBrowser('linux', env, () => false)).toBeNull();
  });

  it('starts an app window on the profile given, with no background traffic and no offer to restore old pages', () => {
    const args = browserArgs('http://127.0.0.1:5000', '/tmp/p', false);
    expect(args).toEqual([
      '--app=http://127.0.0.1:5000',
      '--user-data-dir=/tmp/p',
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--hide-crash-restore-bubble',
    ]);
    expect(browserArgs('u', '/tmp/p', true)).toContain('--no-sandbox');
  });
});

describe('openInBrowser', () => {
  // A stand-in for out/renderer, so that the test does not need a build.
  let rendererDir: string;
  beforeAll(() => {
    rendererDir = mkdtempSync(join(tmpdir(), 'flamelens-open-'));
    mkdirSync(rendererDir, { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>');
  });
  afterAll(() => rmSync(rendererDir, { recursive: true, force: true }));

  it('serves the sample comparison, prints the address and stops when told', async () => {
    const lines: string[] = [];
    const stop = new AbortController();
    const running = openInBrowser({
      files: [],
      noBrowser: true,
      electronReason: 'no display',
      log: (l) => lines.push(l),
      signal: stop.signal,
      rendererDir,
    });
    await expect.poll(() => lines.length).toBe(1);
    const m = /^Electron is not available here \(no display\); Flamelens is at (http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}\/) — open it in a browser$/.exec(
      lines[0]!,
    );
    expect(m, lines[0]).not.toBeNull();
    const res = await fetch(`${m![1]}api/initial-items`);
    // Without the secret the same server answers nothing.
    expect((await fetch(`${new URL(m![1]!).origin}/api/initial-items`)).status).toBe(403);
    const items = (await res.json()) as { kind: string; file: { name: string } }[];
    expect(items.map((i) => i.file.name)).toEqual(['baseline.cpuprofile', 'dd-trace.cpuprofile']);
    stop.abort();
    await running;
    await expect(fetch(`${m![1]}api/initial-items`)).rejects.toThrow();
  });

  it('opens every window on one lasting profile and port, and another while one is open', async () => {
    // A stand-in browser: notes its arguments and stays until it is told to quit.
    const work = mkdtempSync(join(tmpdir(), 'flamelens-open-browser-'));
    const fake = join(work, 'chromium');
    writeFileSync(fake, `#!/bin/sh\necho "$@" >> "${join(work, 'args')}"\nexec sleep 60\n`, { mode: 0o755 });
    const saved = { ...process.env };
    Object.assign(process.env, { DISPLAY: ':99', FLAMELENS_BROWSER: fake, FLAMELENS_BROWSER_PROFILE: join(work, 'profile') });
    const open = async () => {
      const lines: string[] = [];
      const stop = new AbortController();
      const running = openInBrowser({ files: [], log: (l) => lines.push(l), signal: stop.signal, rendererDir });
      await expect.poll(() => lines.length).toBe(1);
      const url = /app window: (\S+)$/.exec(lines[0]!)?.[1];
      expect(url, lines[0]).toBeDefined();
      // (the browser was started: its arguments are written)
      await expect.poll(() => (existsSync(join(work, 'args')) ? readFileSync(join(work, 'args'), 'utf8') : '')).toContain(url!);
      const args = readFileSync(join(work, 'args'), 'utf8').trim().split('\n').pop()!;
      const profile = /--user-data-dir=(\S+)/.exec(args)![1]!;
      return { port: new URL(url!).port, profile, close: () => (stop.abort(), running) };
    };
    try {
      const first = await open();
      expect(first.profile).toBe(join(work, 'profile'));
      const second = await open();
      expect(second.profile).not.toBe(first.profile);
      expect(second.port).not.toBe(first.port);
      await second.close();
      // its throw-away profile is deleted, the lasting one kept
      expect(existsSync(second.profile)).toBe(false);
      await first.close();
      const third = await open();
      expect([third.profile, third.port]).toEqual([first.profile, first.port]);
      await third.close();
      expect(existsSync(first.profile)).toBe(true);
    } finally {
      process.env = saved;
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('refuses files that do not exist', async () => {
    await expect(
      openInBrowser({ files: ['/no/such/file.cpuprofile'], noBrowser: true, log: () => undefined, rendererDir }),
    ).rejects.toThrow(/cannot open \/no\/such\/file\.cpuprofile: no such file or directory/);
  });
});
