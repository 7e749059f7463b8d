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

export function createMainWindow(opts: { preloadPath: string; rendererFile: string; devTools: boolean }): BrowserWindow {
  const win = new BrowserWindow(windowOptions(opts.preloadPath, opts.devTools));
  win.once('ready-to-show', () => win.show());
  win.loadFile(opts.rendererFile).catch((err: unknown) => {
    console.error(`flamelens: could not load ${opts.rendererFile}: ${(err as Error).message}`);
  });
  return win;
}
