/**
 * Flamelens's Electron main process: wiring only. It shows dialogs, reads and writes bytes for
 * files the user chose, and owns the window and the menu. It never parses a profile — that
 * happens in the renderer's worker.
 */
import { app, BrowserWindow, ipcMain, protocol, session } from 'electron';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHANNELS, type ChosenItem, type MenuCommand } from '../../shared/ipc/contract';
import { APP_PAGE_URL, APP_SCHEME, createAppProtocolHandler, registerAppScheme } from './app-protocol';
import { findAppRoot } from '../../node/host/app-root';
import { reportOpenErrors, showOpenPaths, showSavePath } from './dialogs';
import { createFileRegistry } from '../../node/host/files';
import { type IpcDeps, createHandlers, openPaths, registerIpcHandlers } from './ipc';
import { type SecondInstanceData, parseLaunchArgs, samplePaths, secondInstancePaths } from '../../node/host/launch-args';
import { installMenu } from './menu';
import { createRecentList } from './recent';
import { hardenSession, hardenWebContents, isTrustedSender } from './security';
import { createMainWindow } from './window';

const here = dirname(fileURLToPath(import.meta.url)); // out/main
const preloadPath = join(here, '../preload/index.cjs');
const rendererDir = join(here, '../renderer');
// The bundled samples live in the app folder; `electron out/main/index.js` makes the app path
// out/main, so fall back to walking up from this file.
const appRoot = existsSync(join(app.getAppPath(), 'assets', 'samples')) ? app.getAppPath() : findAppRoot(here);

// One profile folder however the app is started (`electron .`, `electron out/main/index.js` —
// which would otherwise be called "Electron" — or packaged): the recent list and the
// single-instance lock live there. Tests and side-by-side runs name their own.
app.setPath('userData', process.env.FLAMELENS_USER_DATA_DIR || join(app.getPath('appData'), 'Flamelens'));
app.enableSandbox();
// The page is served from flamelens://app/ (app-protocol.ts); the scheme's privileges must be
// known before the app is ready.
registerAppScheme(protocol);

const launchContext = { defaultApp: Boolean(process.defaultApp), cwd: process.cwd() };
const launchPaths = parseLaunchArgs(process.argv, launchContext);
const lockData: SecondInstanceData = { flamelensPaths: launchPaths };

if (!app.requestSingleInstanceLock(lockData as unknown as Record<string, unknown>)) {
  // Another Flamelens is running: it received our files through 'second-instance'.
  app.quit();
} else {
  run();
}

function run(): void {
  let win: BrowserWindow | null = null;
  /** paths asked for before the renderer fetched its initial items (macOS open-file) */
  const pendingPaths: string[] = [];
  /** what the current window's page gets from initialItems (kept across reloads) */
  let initial: Promise<ChosenItem[]> | undefined;
  let launchPathsUsed = false;

  const registry = createFileRegistry();
  const recent = createRecentList(join(app.getPath('userData'), 'recent.json'));
  const deps: IpcDeps = {
    registry,
    recent,
    initialItems: () => (initial ??= loadInitialItems()),
    showOpenDialog: (kind) => showOpenPaths(win, kind),
    showSaveDialog: (defaultPath, filters) => showSavePath(win, defaultPath, filters),
    saveDirectory: () => app.getPath('documents'),
    reportErrors: (errors) => reportOpenErrors(win, errors),
  };
  const handlers = createHandlers(deps);

  async function loadInitialItems(): Promise<ChosenItem[]> {
    // The command line counts for the first window only (macOS re-creates windows on activate).
    const paths = [...(launchPathsUsed ? [] : launchPaths), ...pendingPaths.splice(0)];
    launchPathsUsed = true;
    if (paths.length > 0) return openPaths(deps, paths);
    // The bundled sample comparison: not a user choice, so not added to the recent list.
    return (await registry.chooseAll(samplePaths(appRoot))).items;
  }

  function sendItems(items: ChosenItem[]): void {
    if (items.length > 0 && win && !win.isDestroyed()) win.webContents.send(CHANNELS.openItems, items);
  }

  async function openInWindow(paths: string[]): Promise<void> {
    if (paths.length === 0) return;
    if (initial === undefined) {
      pendingPaths.push(...paths); // the renderer will get them with its initial items
      return;
    }
    sendItems(await openPaths(deps, paths));
  }

  function sendCommand(cmd: MenuCommand): void {
    if (win && !win.isDestroyed()) win.webContents.send(CHANNELS.menuCommand, cmd);
  }

  function refreshMenu(): void {
    installMenu({
      isMac: process.platform === 'darwin',
      isPackaged: app.isPackaged,
      recent: recent.list(),
      actions: {
        openFiles: () => void showOpenPaths(win, 'files').then(openInWindow),
        openFolder: () => void showOpenPaths(win, 'folder').then(openInWindow),
        openRecent: (path) =>
          void handlers
            .openRecent(path)
            .then((items) => sendItems(items as ChosenItem[]))
            .catch((err: Error) => reportOpenErrors(win, [err.message])),
        clearRecent: () => void recent.clear().catch(() => undefined),
        send: sendCommand,
      },
    });
  }

  function showWindow(): void {
    if (win && !win.isDestroyed()) {
      if (win.isMinimized()) win.restore();
      win.focus();
      return;
    }
    initial = undefined; // a new page asks for its own initial items
    win = createMainWindow({ preloadPath, pageUrl: APP_PAGE_URL, devTools: !app.isPackaged });
    win.on('closed', () => {
      win = null;
    });
  }

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));

  app.on('second-instance', (_event, argv, workingDirectory, data) => {
    const paths = secondInstancePaths(data, argv, { defaultApp: launchContext.defaultApp, cwd: workingDirectory });
    if (app.isReady()) showWindow();
    void openInWindow(paths);
  });

  // macOS: files (e.g. a .flamelens workspace) opened from Finder or dropped on the Dock icon.
  app.on('open-file', (event, path) => {
    event.preventDefault();
    void openInWindow([path]);
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  app.on('activate', () => {
    if (app.isReady() && BrowserWindow.getAllWindows().length === 0) showWindow();
  });

  void app.whenReady().then(async () => {
    protocol.handle(APP_SCHEME, createAppProtocolHandler(rendererDir, registry));
    hardenSession(session.defaultSession);
    await recent.load();
    recent.onChange(refreshMenu);
    registerIpcHandlers(ipcMain, handlers, (event) =>
      isTrustedSender(event.senderFrame as Electron.WebFrameMain | null, win, APP_PAGE_URL),
    );
    refreshMenu();
    showWindow();
  });
}
