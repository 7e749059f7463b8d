import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';

const installed = vi.hoisted(() => ({ menu: null as unknown }));
vi.mock('electron', () => ({
  Menu: {
    buildFromTemplate: (t: unknown) => ({ template: t }),
    setApplicationMenu: (m: unknown) => (installed.menu = m),
  },
}));

const { installMenu, menuTemplate } = await import('./menu');

function actions() {
  return { openFiles: vi.fn(), openFolder: vi.fn(), openRecent: vi.fn(), clearRecent: vi.fn(), send: vi.fn() };
}

type Item = MenuItemConstructorOptions;
function find(items: Item[], label: string): Item {
  for (const item of items) {
    if (item.label === label) return item;
    if (Array.isArray(item.submenu)) {
      const found = findOrNull(item.submenu, label);
      if (found) return found;
    }
  }
  throw new Error(`no menu item "${label}"`);
}
function findOrNull(items: Item[], label: string): Item | null {
  try {
    return find(items, label);
  } catch {
    return null;
  }
}
const click = (item: Item): void => (item.click as () => void)();

describe('menu', () => {
  it('has File, View and Help; view items send their commands to the renderer', () => {
    const a = actions();
    const t = menuTemplate({ isMac: false, isPackaged: true, recent: [], actions: a });
    expect(t.map((m) => m.label ?? m.role)).toEqual(['File', 'editMenu', 'View', 'help']);
    const expected: [string, string][] = [
      ['Save Workspace…', 'save'],
      ['Export…', 'export'],
      ['Reset Zoom', 'reset-zoom'],
      ['Zoom Out', 'zoom-out'],
      ['Toggle Layout', 'toggle-layout'],
      ['Toggle Icicle', 'toggle-orientation'],
      ['Find…', 'find'],
      ['Keyboard Shortcuts', 'shortcuts'],
      ['About Flamelens', 'about'],
    ];
    for (const [label, cmd] of expected) {
      click(find(t, label));
      expect(a.send).toHaveBeenLastCalledWith(cmd);
    }
    click(find(t, 'Open…'));
    click(find(t, 'Open Folder…'));
    expect(a.openFiles).toHaveBeenCalledOnce();
    expect(a.openFolder).toHaveBeenCalledOnce();
  });

  it('shows the renderer’s shortcuts without registering them, so keys never act twice', () => {
    const t = menuTemplate({ isMac: false, isPackaged: true, recent: [], actions: actions() });
    expect(find(t, 'Find…')).toMatchObject({ accelerator: 'CmdOrCtrl+F', registerAccelerator: false });
    expect(find(t, 'Reset Zoom')).toMatchObject({ accelerator: 'Escape', registerAccelerator: false });
    expect(find(t, 'Open…')).toMatchObject({ accelerator: 'CmdOrCtrl+O' });
    expect(find(t, 'Open…').registerAccelerator).toBeUndefined();
  });

  it('offers developer tools only when not packaged', () => {
    const roles = (packaged: boolean) =>
      (find(menuTemplate({ isMac: false, isPackaged: packaged, recent: [], actions: actions() }), 'View').submenu as Item[]).map(
        (i) => i.role,
      );
    expect(roles(true)).not.toContain('toggleDevTools');
    expect(roles(false)).toContain('toggleDevTools');
  });

  it('lists recent files and opens or clears them', () => {
    const a = actions();
    const t = menuTemplate({ isMac: false, isPackaged: true, recent: ['/p/base.cpuprofile', '/p/1.0x'], actions: a });
    click(find(t, 'base.cpuprofile — /p/base.cpuprofile'));
    expect(a.openRecent).toHaveBeenCalledWith('/p/base.cpuprofile');
    click(find(t, 'Clear Menu'));
    expect(a.clearRecent).toHaveBeenCalled();
    const empty = menuTemplate({ isMac: false, isPackaged: true, recent: [], actions: a });
    expect(find(empty, 'No Recent Files').enabled).toBe(false);
  });

  it('uses the app menu and no File › Quit on macOS', () => {
    const t = menuTemplate({ isMac: true, isPackaged: true, recent: [], actions: actions() });
    expect(t[0]).toEqual({ role: 'appMenu' });
    expect((find(t, 'File').submenu as Item[]).some((i) => i.role === 'quit')).toBe(false);
  });

  it('installs the built menu', () => {
    installMenu({ isMac: false, isPackaged: true, recent: [], actions: actions() });
    expect((installed.menu as { template: Item[] }).template[0]!.label).toBe('File');
  });
});
