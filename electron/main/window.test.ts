import { describe, expect, it, vi } from 'vitest';

interface Created {
  options: { show?: boolean; webPreferences: Record<string, unknown> };
  loadFile: ReturnType<typeof vi.fn>;
}
const created = vi.hoisted(() => [] as Created[]);
vi.mock('electron', () => ({
  BrowserWindow: class {
    loadFile = vi.fn(async () => undefined);
    once = vi.fn();
    constructor(options: Created['options']) {
      created.push({ options, loadFile: this.loadFile });
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

  it('creates the window hidden and loads the renderer file', () => {
    createMainWindow({ preloadPath: '/p.cjs', rendererFile: '/app/out/renderer/index.html', devTools: true });
    expect(created).toHaveLength(1);
    expect(created[0]!.options.show).toBe(false);
    expect(created[0]!.options.webPreferences.devTools).toBe(true);
    expect(created[0]!.loadFile).toHaveBeenCalledWith('/app/out/renderer/index.html');
  });
});
