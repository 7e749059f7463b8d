/** The one Flamelens window. Navigation, window.open and CSP are handled in security.ts. */
import { BrowserWindow, type BrowserWindowConstructorOptions } from 'electron';

export function windowOptions(preloadPath: string, devTools: boolean): BrowserWindowConstructorOptions {
  return {
    width: 1440,
    height: 900,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Flamelens',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools,
    },
  };
}

/** `pageUrl` is the renderer's page on the app's own scheme (app-protocol.ts), never file://. */
export function createMainWindow(opts: { preloadPath: string; pageUrl: string; devTools: boolean }): BrowserWindow {
  const win = new BrowserWindow(windowOptions(opts.preloadPath, opts.devTools));
  win.once('ready-to-show', () => win.show());
  win.loadURL(opts.pageUrl).catch((err: unknown) => {
    console.error(`flamelens: could not load ${opts.pageUrl}: ${(err as Error).message}`);
  });
  return win;
}
