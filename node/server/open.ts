/**
 * The browser fallback of `flamelens open` / `npm start`, where no Electron binary exists: serve
 * the built renderer on 127.0.0.1 and show it in a Chromium or Chrome app window with a profile
 * that lasts from one opening to the next (./browser-profile: what is kept for recovery is
 * offered back after the window was closed), or, without a display or a browser, print the
 * address. Serves until Ctrl+C or until that window is closed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findAppRoot, rendererDirOf } from '../host/app-root';
import { samplePaths } from '../host/launch-args';
import { preferredPort, takeBrowserProfile } from './browser-profile';
import { hasDisplay } from './electron-binary';
import { type FileParser, threadParser } from './parse-pool';
import { type RunningServer, startServer } from './serve';

export interface OpenInBrowserOptions {
  /** files and folders to open; the bundled sample comparison when empty */
  files: readonly string[];
  /** why Electron is not used, for the message ("Electron is not available here (…)") */
  electronReason?: string;
  /** only serve and print the address */
  noBrowser?: boolean;
  port?: number;
  /** where messages go (stdout) */
  log?: (line: string) => void;
  /** stops serving, like Ctrl+C */
  signal?: AbortSignal;
  /** the built renderer; out/renderer of this checkout by default */
  rendererDir?: string;
  /** the secret of the address (see serve.ts); random by default */
  secret?: string;
}

const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

export function browserCandidates(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  const fromEnv = [env.FLAMELENS_BROWSER, env.CHROME_PATH].filter((p): p is string => Boolean(p));
  if (platform === 'darwin') {
    return [
      ...fromEnv,
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      join(env.HOME ?? '', 'Applications/Google Chrome.app/Contents/MacOS/Google Chrome'),
    ];
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((p): p is string => Boolean(p));
    return [
      ...fromEnv,
      ...roots.map((r) => join(r, 'Google', 'Chrome', 'Application', 'chrome.exe')),
      ...roots.map((r) => join(r, 'Chromium', 'Application', 'chrome.exe')),
    ];
  }
  const onPath = (env.PATH ?? '').split(delimiter).filter(Boolean);
  return [...fromEnv, ...BROWSER_NAMES.flatMap((name) => onPath.map((dir) => join(dir, name))), '/usr/bin/chromium', '/snap/bin/chromium'];
}

/** The first Chromium/Chrome that exists and is executable, or null. */
export function findBrowser(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  isExecutable: (path: string) => boolean = executable,
): string | null {
  return browserCandidates(platform, env).find((p) => isExecutable(p)) ?? null;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function browserArgs(url: string, userDataDir: string, asRootOnLinux: boolean): string[] {
  return [
    `--app=${url}`,
    `--user-data-dir=${userDataDir}`,
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    // (a browser killed last time would offer to restore its old pages over the app)
    '--hide-crash-restore-bubble',
    // Chromium refuses to start as root with its sandbox on; only then is it turned off.
    // (--test-type keeps Chromium from putting a warning bar about that flag over the app.)
    ...(asRootOnLinux ? ['--no-sandbox', '--test-type'] : []),
  ];
}

/**
 * The server's parser: threads running the bundled `parse-thread.js` beside this file (the
 * built command); none when run from the sources, where the window reads every file itself.
 */
function parserOption(): { parser?: FileParser } {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'parse-thread.js');
  return existsSync(script) ? { parser: threadParser(script) } : {};
}

/** The browser to start, or why none is started (nothing to say when none was asked for). */
function browserToStart(noBrowser: boolean | undefined): { exe: string } | { why: string } {
  if (noBrowser) return { why: '' };
  if (!hasDisplay(process.env, process.platform)) return { why: 'no display; ' };
  const exe = findBrowser();
  return exe ? { exe } : { why: 'no Chromium or Chrome found; ' };
}

export async function openInBrowser(opts: OpenInBrowserOptions): Promise<void> {
  const log = opts.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const appRoot = findAppRoot(dirname(fileURLToPath(import.meta.url)));
  const items = opts.files.length > 0 ? opts.files.map((f) => resolve(f)) : samplePaths(appRoot);
  const start = browserToStart(opts.noBrowser);
  const profile = 'exe' in start ? takeBrowserProfile() : undefined;
  // The lasting profile's storage is found again at the same origin: its port, where free.
  const port = opts.port ?? (profile?.lasting ? preferredPort() : undefined);
  let server: RunningServer;
  try {
    server = await startServer({
      items,
      ...parserOption(),
      rendererDir: opts.rendererDir ?? rendererDirOf(appRoot),
      ...(port !== undefined ? { port, anyPortIfTaken: opts.port === undefined } : {}),
      ...(opts.secret !== undefined ? { secret: opts.secret } : {}),
    });
  } catch (e) {
    await profile?.release();
    throw e;
  }
  const url = server.url;
  const prefix = opts.electronReason ? `Electron is not available here (${opts.electronReason}); ` : '';
  const printAddress = (why: string): void => log(`${prefix}${why}Flamelens is at ${url} — open it in a browser`);

  let browser: ChildProcess | null = null;
  const done = new Promise<void>((resolveDone) => {
    let stopped = false;
    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      opts.signal?.removeEventListener('abort', stop);
      void (async () => {
        await endBrowser(browser);
        await server.close();
        await profile?.release();
        resolveDone();
      })();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    if (opts.signal?.aborted) return stop();
    opts.signal?.addEventListener('abort', stop);

    if ('why' in start || !profile) return printAddress('why' in start ? start.why : '');
    const exe = start.exe;

    // The browser takes a while to start and to load the page: the files are parsed meanwhile.
    server.parseAhead();
    const asRoot = process.platform === 'linux' && process.getuid?.() === 0;
    const started = Date.now();
    let stderr = '';
    browser = spawn(exe, browserArgs(url, profile.dir, asRoot), { stdio: ['ignore', 'ignore', 'pipe'] });
    browser.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    browser.on('error', (err) => {
      browser = null;
      printAddress(`${exe} could not be started (${err.message}); `);
    });
    browser.on('exit', (code) => {
      if (stopped) return;
      // A browser that dies at once did not show the app: keep serving for another browser.
      if (code !== 0 && Date.now() - started < 5000) {
        const last = stderr.trim().split('\n').pop() ?? '';
        printAddress(`${exe} exited at once (code ${code}${last ? `: ${last.slice(0, 160)}` : ''}); `);
        return;
      }
      stop();
    });
    log(`${prefix}opened Flamelens in a Chromium app window: ${url}`);
  });
  await done;
}

/** Asks a still-running browser to quit and waits (a few seconds at most) until it has. */
function endBrowser(browser: ChildProcess | null): Promise<void> {
  if (!browser || browser.exitCode !== null || browser.signalCode !== null) return Promise.resolve();
  return new Promise((resolveEnd) => {
    const timer = setTimeout(() => {
      browser.kill('SIGKILL');
      resolveEnd();
    }, 3000);
    browser.once('exit', () => {
      clearTimeout(timer);
      resolveEnd();
    });
    browser.kill();
  });
}
