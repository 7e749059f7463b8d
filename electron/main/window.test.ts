import { describe, expect, it, vi } from 'vitest';

interface Created {
  options: { show?: boolean; webPreferences: Record<string, unknown> };
  loadURL: ReturnType<typeof vi.fn>;
}
const created = vi.hoisted(() => [] as Created[]);
vi.mock('electron', () => ({
  BrowserWindow: class {
    loadURL = vi.fn(async () => undefined);
    once = vi.fn();
    constructor(options: Created['options']) {
      created.push({ options, loadURL: this.loadURL });
    }
  },
}));

const { createMainWindow, windowOptions } = await import('./window');

describe('window options', () => {
  it('isolate and sandbox the renderer, with no Node in any frame or worker', () => {
    const prefs = windowOptions('/app/out/preload/index.cjs', false).webPreferences!;
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      devTools: false,
    });
  });

  it('do not let a file dropped outside the drop zone replace the page', () => {
    // Chromium would otherwise navigate to a file dropped where the page does not take it,
    // leaving the app for a file:// page that has no CSP header and reads other files.
    expect(windowOptions('/p.cjs', false).webPreferences!.navigateOnDragDrop).toBe(false);
  });

  it('creates the window hidden and loads the renderer from the app’s own scheme', () => {
    createMainWindow({ preloadPath: '/p.cjs', pageUrl: 'flamelens://app/index.html', devTools: true });
    expect(created).toHaveLength(1);
    expect(created[0]!.options.show).toBe(false);
    expect(created[0]!.options.webPreferences.devTools).toBe(true);
    expect(created[0]!.loadURL).toHaveBeenCalledWith('flamelens://app/index.html');
  });
});
