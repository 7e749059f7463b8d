/**
 * The bridge: `window.flamelens`, one named function per channel of shared/ipc/contract.ts. It
 * never exposes ipcRenderer itself, a generic invoke/send, or the Electron event objects.
 * Runs sandboxed, so it is bundled as one CommonJS file with no imports but 'electron'.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import {
  CHANNELS,
  type ChosenItem,
  type DroppedFile,
  type FlamelensApi,
  MENU_COMMANDS,
  type MenuCommand,
  type OpenDialogKind,
  type SaveRequest,
} from '../../shared/ipc/contract';

/** A dropped file's path; '' for anything that is not a file from disk (e.g. `new File(...)`). */
function pathOf(file: DroppedFile): string {
  try {
    return webUtils.getPathForFile(file as File);
  } catch {
    return '';
  }
}

function subscribe<T>(channel: string, accept: (value: unknown) => value is T, cb: (value: T) => void): () => void {
  const listener = (_event: Electron.IpcRendererEvent, value: unknown): void => {
    if (accept(value)) cb(value);
  };
  ipcRenderer.on(channel, listener);
  return () => {
    ipcRenderer.removeListener(channel, listener);
  };
}

const isMenuCommand = (v: unknown): v is MenuCommand => MENU_COMMANDS.includes(v as MenuCommand);
const isItemList = (v: unknown): v is ChosenItem[] => Array.isArray(v);

const api: FlamelensApi = {
  openDialog: (kind?: OpenDialogKind) => ipcRenderer.invoke(CHANNELS.openDialog, kind ?? 'files'),
  initialItems: () => ipcRenderer.invoke(CHANNELS.initialItems),
  readFileChunk: (token: string, offset: number, length: number) => ipcRenderer.invoke(CHANNELS.readFileChunk, token, offset, length),
  registerDropped: async (files: readonly DroppedFile[]) => {
    const all = Array.from(files, pathOf);
    const paths = all.filter((p) => p !== '');
    if (paths.length > 0) await ipcRenderer.invoke(CHANNELS.registerDropped, paths);
    return all;
  },
  recentList: () => ipcRenderer.invoke(CHANNELS.recentList),
  openRecent: (path: string) => ipcRenderer.invoke(CHANNELS.openRecent, path),
  saveFile: (req: SaveRequest) => ipcRenderer.invoke(CHANNELS.saveFile, req),
  onMenuCommand: (cb) => subscribe(CHANNELS.menuCommand, isMenuCommand, cb),
  onOpenItems: (cb) => subscribe(CHANNELS.openItems, isItemList, cb),
};

contextBridge.exposeInMainWorld('flamelens', api);
