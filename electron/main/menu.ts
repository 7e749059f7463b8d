/**
 * The native menu. File-menu items are handled in main (dialogs, recent files); everything that
 * acts on the view is a MenuCommand sent to the renderer. View shortcuts are shown but not
 * registered (`registerAccelerator: false`): the renderer owns those keys, in Electron and in the
 * browser build alike, so a key press never acts twice.
 */
import { Menu, type MenuItemConstructorOptions } from 'electron';
import { basename } from 'node:path';
import type { MenuCommand } from '../../shared/ipc/contract';

export interface MenuActions {
  openFiles(): void;
  openFolder(): void;
  openRecent(path: string): void;
  clearRecent(): void;
  send(cmd: MenuCommand): void;
}

export interface MenuOptions {
  isMac: boolean;
  isPackaged: boolean;
  recent: readonly string[];
  actions: MenuActions;
}

export function menuTemplate({ isMac, isPackaged, recent, actions }: MenuOptions): MenuItemConstructorOptions[] {
  const command = (label: string, cmd: MenuCommand, accelerator?: string): MenuItemConstructorOptions => ({
    label,
    click: () => actions.send(cmd),
    ...(accelerator ? { accelerator, registerAccelerator: false } : {}),
  });

  const recentItems: MenuItemConstructorOptions[] =
    recent.length === 0
      ? [{ label: 'No Recent Files', enabled: false }]
      : [
          ...recent.map((path) => ({ label: `${basename(path)} — ${path}`, click: () => actions.openRecent(path) })),
          { type: 'separator' as const },
          { label: 'Clear Menu', click: () => actions.clearRecent() },
        ];

  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Open…', accelerator: 'CmdOrCtrl+O', click: () => actions.openFiles() },
      { label: 'Open Folder…', accelerator: 'CmdOrCtrl+Shift+O', click: () => actions.openFolder() },
      { label: 'Open Recent', submenu: recentItems },
      { type: 'separator' },
      command('Save Workspace…', 'save', 'CmdOrCtrl+S'),
      command('Export…', 'export', 'CmdOrCtrl+E'),
      ...(isMac ? [] : [{ type: 'separator' as const }, { role: 'quit' as const }]),
    ],
  };

  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      command('Reset Zoom', 'reset-zoom', 'Escape'),
      command('Zoom Out', 'zoom-out', 'Backspace'),
      { type: 'separator' },
      command('Toggle Layout', 'toggle-layout', 'L'),
      command('Toggle Icicle', 'toggle-orientation', 'I'),
      { type: 'separator' },
      command('Find…', 'find', 'CmdOrCtrl+F'),
      ...(isPackaged ? [] : [{ type: 'separator' as const }, { role: 'reload' as const }, { role: 'toggleDevTools' as const }]),
    ],
  };

  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [command('Keyboard Shortcuts', 'shortcuts', 'Shift+/'), command('About Flamelens', 'about')],
  };

  return [...(isMac ? [{ role: 'appMenu' as const }] : []), file, { role: 'editMenu' }, view, help];
}

export function installMenu(opts: MenuOptions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(opts)));
}
