/**
 * The main process wired together against a fake Electron: what a launch does, end to end,
 * without an Electron binary.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- a fake Electron, loosely typed on purpose */
import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANNELS, type ChosenItem, type DropChallenge } from '../../shared/ipc/contract';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
// index.ts serves the renderer next to its own folder: out/renderer when bundled in out/main,
// electron/renderer (absent, which does not matter to a fake window) when run from the sources.
const RENDERER_DIR = fileURLToPath(new URL('../renderer', import.meta.url));

interface Fake {
  app: EventEmitter & Record<string, any>;
  windows: any[];
  handlers: Map<string, (event: { senderFrame: unknown }, ...args: unknown[]) => unknown>;
  session: { hooks: Record<string, unknown> } & Record<string, any>;
  menu: any;
  /** protocol.registerSchemesAsPrivileged calls, and whether the app was ready at each */
  schemes: { schemes: unknown; ready: boolean }[];
  protocolHandlers: Map<string, (request: Request) => Promise<Response>>;
  ready: boolean;
}
const state = vi.hoisted(() => ({ fake: null as unknown as Fake }));

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  const f = () => state.fake;
  class BrowserWindow extends Emitter {
    static getAllWindows = () => f().windows.filter((w) => !w.destroyed);
    destroyed = false;
    webContents = { mainFrame: { url: 'about:blank' }, send: vi.fn() };
    constructor(public options: any) {
      super();
      f().windows.push(this);
    }
    loadURL = vi.fn(async (url: string) => {
      this.webContents.mainFrame.url = url;
    });
    isDestroyed = () => this.destroyed;
    isMinimized = () => false;
    focus = vi.fn();
    restore = vi.fn();
  }
  const proxy = (name: 'app' | 'session') => new Proxy({}, { get: (_t, k) => (f()[name] as any)[k] });
  return {
    app: proxy('app'),
    session: {
      get defaultSession() {
        return f().session;
      },
    },
    BrowserWindow,
    ipcMain: { handle: (channel: string, l: any) => f().handlers.set(channel, l) },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown) => f().schemes.push({ schemes, ready: f().ready }),
      handle: (scheme: string, h: any) => f().protocolHandlers.set(scheme, h),
    },
    Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: (m: unknown) => (f().menu = m) },
    dialog: { showOpenDialog: vi.fn(), showSaveDialog: vi.fn(), showMessageBox: vi.fn(async () => ({})) },
  };
});

let userData: string;
let savedArgv: string[];

function makeFake(lock = true): Fake {
  const app = Object.assign(new EventEmitter(), {
    getAppPath: () => ROOT,
    setPath: vi.fn(),
    getPath: (name: string) => (name === 'userData' ? userData : tmpdir()),
    enableSandbox: vi.fn(),
    requestSingleInstanceLock: vi.fn(() => lock),
    whenReady: () => Promise.resolve().then(() => (fake.ready = true)),
    isReady: () => true,
    isPackaged: false,
    quit: vi.fn(),
  });
  const hooks: Record<string, unknown> = {};
  const session = {
    hooks,
    webRequest: { onBeforeRequest: (l: unknown) => (hooks.before = l), onHeadersReceived: (l: unknown) => (hooks.headers = l) },
    setPermissionRequestHandler: (h: unknown) => (hooks.permission = h),
    setPermissionCheckHandler: (h: unknown) => (hooks.check = h),
  };
  const fake: Fake = { app, windows: [], handlers: new Map(), session, menu: null, schemes: [], protocolHandlers: new Map(), ready: false };
  return fake;
}

async function launch(argv: string[], lock = true): Promise<Fake> {
  state.fake = makeFake(lock);
  process.argv = argv;
  vi.resetModules();
  await import('./index');
  await vi.waitFor(() => expect(state.fake.windows.length > 0 || !lock).toBe(true));
  return state.fake;
}

const trusted = (fake: Fake) => ({ senderFrame: fake.windows[0].webContents.mainFrame });

beforeEach(() => {
  userData = mkdtempSync(join(tmpdir(), 'flamelens-main-'));
  savedArgv = process.argv;
  (process as { defaultApp?: boolean }).defaultApp = true;
});
afterEach(() => {
  process.argv = savedArgv;
  delete (process as { defaultApp?: boolean }).defaultApp;
  rmSync(userData, { recursive: true, force: true });
});

describe('main process', () => {
  it('opens one hardened window with every handler behind the sender check', async () => {
    const fake = await launch(['/x/electron', '.']);
    expect(fake.app.enableSandbox).toHaveBeenCalled();
    expect(fake.app.setPath).toHaveBeenCalledWith('userData', join(tmpdir(), 'Flamelens'));
    const win = fake.windows[0];
    expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(win.loadURL).toHaveBeenCalledExactlyOnceWith('flamelens://app/index.html');
    expect(Object.keys(fake.session.hooks).sort()).toEqual(['before', 'check', 'headers', 'permission']);
    // the allow-list lets through the app's own scheme and nothing of file://
    const decide = (url: string) => {
      let answer: unknown;
      (fake.session.hooks.before as any)({ url }, (r: unknown) => (answer = r));
      return answer;
    };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(decide('flamelens://app/assets/index.js')).toEqual({ cancel: false });
    expect(decide(`file://${RENDERER_DIR}/index.html`)).toEqual({ cancel: true });
    warn.mockRestore();
    expect(fake.handlers.size).toBe(14);
    const foreign = { senderFrame: { url: 'https://evil.example/' } };
    expect(() => fake.handlers.get(CHANNELS.initialItems)!(foreign)).toThrow(/refused/);
    expect(fake.menu.map((m: { label?: string; role?: string }) => m.label ?? m.role)).toEqual(['File', 'editMenu', 'View', 'help']);
  });

  it('serves the page from flamelens://app/, a scheme registered before ready and handled after', async () => {
    const fake = await launch(['/x/electron', '.']);
    expect(fake.schemes).toEqual([
      {
        schemes: [
          { scheme: 'flamelens', privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, codeCache: true } },
        ],
        ready: false,
      },
    ]);
    expect([...fake.protocolHandlers.keys()]).toEqual(['flamelens']);
    const handle = fake.protocolHandlers.get('flamelens')!;
    // the sources have no built renderer next to them: what matters here is what is refused
    const traversal = await handle({ url: 'flamelens://app/../../package.json', method: 'GET' } as Request);
    expect(traversal.status).toBe(404);
    expect(traversal.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect((await handle({ url: 'flamelens://elsewhere/index.html', method: 'GET' } as Request)).status).toBe(404);
  });

  it('hardens every web contents that gets created', async () => {
    const fake = await launch(['/x/electron', '.']);
    const contents = { on: vi.fn(), setWindowOpenHandler: vi.fn() };
    fake.app.emit('web-contents-created', {}, contents);
    expect(contents.on.mock.calls.map((c) => c[0])).toContain('will-navigate');
    expect(contents.setWindowOpenHandler.mock.calls[0]![0]()).toEqual({ action: 'deny' });
  });

  it('offers the bundled sample comparison when no files were named', async () => {
    const fake = await launch(['/x/electron', '.']);
    const items = (await fake.handlers.get(CHANNELS.initialItems)!(trusted(fake))) as ChosenItem[];
    expect(items.map((i) => (i.kind === 'file' ? i.file.name : ''))).toEqual(['baseline.cpuprofile', 'dd-trace.cpuprofile']);
    const recent = await fake.handlers.get(CHANNELS.recentList)!(trusted(fake));
    expect(recent).toEqual([]);
  });

  it('opens the files named on the command line, readable by token', async () => {
    const file = join(userData, 'run.cpuprofile');
    writeFileSync(file, 'profile bytes');
    const fake = await launch(['/x/electron', '.', '--some-chromium-switch', file]);
    const items = (await fake.handlers.get(CHANNELS.initialItems)!(trusted(fake))) as ChosenItem[];
    expect(items).toHaveLength(1);
    const token = items[0]!.kind === 'file' ? items[0]!.file.token : '';
    const bytes = (await fake.handlers.get(CHANNELS.readFileChunk)!(trusted(fake), token, 8, 5)) as Uint8Array;
    expect(Buffer.from(bytes).toString()).toBe('bytes');
    expect(await fake.handlers.get(CHANNELS.recentList)!(trusted(fake))).toEqual([file]);
  });

  it('forwards a second instance’s files to the running window', async () => {
    const fake = await launch(['/x/electron', '.']);
    await fake.handlers.get(CHANNELS.initialItems)!(trusted(fake));
    const file = join(userData, 'agent.cpuprofile');
    writeFileSync(file, '{}');
    fake.app.emit('second-instance', {}, ['/x/electron', '.', 'ignored'], '/elsewhere', { flamelensPaths: [file] });
    const win = fake.windows[0];
    await vi.waitFor(() => expect(win.webContents.send).toHaveBeenCalled());
    const [channel, items] = win.webContents.send.mock.calls[0]!;
    expect(channel).toBe(CHANNELS.openItems);
    expect((items as ChosenItem[])[0]).toMatchObject({ kind: 'file', file: { path: file } });
    expect(win.focus).toHaveBeenCalled();
  });

  it('gives a window re-created on macOS its own initial items, not the old command line', async () => {
    const file = join(userData, 'first.cpuprofile');
    writeFileSync(file, '{}');
    const fake = await launch(['/x/electron', '.', file]);
    const first = (await fake.handlers.get(CHANNELS.initialItems)!(trusted(fake))) as ChosenItem[];
    expect(first).toHaveLength(1);
    fake.windows[0].destroyed = true;
    fake.windows[0].emit('closed');
    fake.app.emit('activate');
    expect(fake.windows).toHaveLength(2);
    const again = (await fake.handlers.get(CHANNELS.initialItems)!({ senderFrame: fake.windows[1].webContents.mainFrame })) as ChosenItem[];
    expect(again.map((i) => (i.kind === 'file' ? i.file.name : ''))).toEqual(['baseline.cpuprofile', 'dd-trace.cpuprofile']);
  });

  it('puts on Open Recent only the dropped files proven by their bytes: folders and empty files stay off it', async () => {
    const fake = await launch(['/x/electron', '.']);
    const call = (channel: string, ...args: unknown[]) => fake.handlers.get(channel)!(trusted(fake), ...args);
    const file = join(userData, 'dropped.cpuprofile');
    const empty = join(userData, 'empty.cpuprofile');
    const folder = join(userData, '4242.0x');
    writeFileSync(file, '{"nodes":[]}');
    writeFileSync(empty, '');
    mkdirSync(folder);
    /** What the renderer answers: the bytes it read for each range, or what `forge` makes. */
    async function drop(paths: string[], forge?: (path: string, length: number) => Uint8Array | null) {
      const claims = paths.map((path) => ({ path, size: statSync(path).size }));
      const challenge = (await call(CHANNELS.dropChallenge, claims)) as DropChallenge;
      const answers = challenge.ranges.map((ranges, i) =>
        ranges.map(([o, l]) => forge?.(paths[i]!, l) ?? new Uint8Array(readFileSync(paths[i]!).subarray(o, o + l))),
      );
      await call(CHANNELS.registerDropped, challenge.id, answers);
    }
    // A file and an empty file (whose every range is empty: nothing to prove)
    await drop([file, empty]);
    // A folder, claimed at the size stat gives it, answered with as many bytes as asked
    await drop([folder], (_path, length) => new Uint8Array(length));
    const recentMenu = () =>
      fake.menu
        .find((m: { label?: string }) => m.label === 'File')
        .submenu.find((i: { label?: string }) => i.label === 'Open Recent')
        .submenu.map((i: { label?: string }) => i.label)
        .filter((label: string | undefined) => label?.includes(' — '));
    await vi.waitFor(() => expect(recentMenu()).toEqual([`dropped.cpuprofile — ${file}`]));
    expect(await call(CHANNELS.recentList)).toEqual([file]);
    await vi.waitFor(() => expect(JSON.parse(readFileSync(join(userData, 'recent.json'), 'utf8')).paths).toEqual([file]));
    await expect(call(CHANNELS.openRecent, folder)).rejects.toThrow(/recent list/);
    await expect(call(CHANNELS.openRecent, empty)).rejects.toThrow(/recent list/);
  });

  it('sends menu commands to the renderer', async () => {
    const fake = await launch(['/x/electron', '.']);
    const view = fake.menu.find((m: { label?: string }) => m.label === 'View');
    view.submenu.find((i: { label?: string }) => i.label === 'Find…').click();
    expect(fake.windows[0].webContents.send).toHaveBeenCalledWith(CHANNELS.menuCommand, 'find');
  });

  it('quits at once when another instance holds the lock, handing it the files', async () => {
    const fake = await launch(['/x/electron', '.', '/tmp/x.cpuprofile'], false);
    expect(fake.app.requestSingleInstanceLock).toHaveBeenCalledWith({ flamelensPaths: ['/tmp/x.cpuprofile'] });
    expect(fake.app.quit).toHaveBeenCalled();
    expect(fake.windows).toHaveLength(0);
  });
});
