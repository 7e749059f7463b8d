/**
 * The bridge: `window.flamelens`, one named function per channel of shared/ipc/contract.ts. It
 * never exposes ipcRenderer itself, a generic invoke/send, or the Electron event objects.
 * Runs sandboxed, so it is bundled as one CommonJS file with no imports but 'electron'.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import {
  CHANNELS,
  type ChosenItem,
  type DropChallenge,
  type DropClaim,
  type DroppedFile,
  type FlamelensApi,
  MENU_COMMANDS,
  type MenuCommand,
  type OpenDialogKind,
  type RecordRequest,
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

/** The bytes main asked for, read from the dropped file itself; null when it cannot be read. */
async function answer(file: DroppedFile, ranges: [number, number][] | undefined): Promise<Uint8Array[] | null> {
  if (ranges === undefined) return null;
  try {
    return await Promise.all(
      ranges.map(async ([offset, length]) => new Uint8Array(await (file as File).slice(offset, offset + length).arrayBuffer())),
    );
  } catch {
    return null;
  }
}

/**
 * Puts dropped files on the recent list. Main adds a path only when the bytes it asks for match
 * the file on disk (electron/main/drop-proof.ts): a path is not enough. Resolves with each
 * file's path, in order ('' for one not from disk), which names the runs.
 */
async function registerDropped(files: readonly DroppedFile[]): Promise<string[]> {
  const dropped = Array.from(files);
  const all = dropped.map(pathOf);
  const claimed = dropped.filter((_f, i) => all[i] !== '');
  const claims: DropClaim[] = all.filter((p) => p !== '').map((path, i) => ({ path, size: claimed[i]!.size }));
  if (claims.length === 0) return all;
  const challenge = (await ipcRenderer.invoke(CHANNELS.dropChallenge, claims)) as DropChallenge;
  const answers = await Promise.all(claimed.map((f, i) => answer(f, challenge.ranges[i])));
  await ipcRenderer.invoke(CHANNELS.registerDropped, challenge.id, answers);
  return all;
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
  registerDropped,
  recentList: () => ipcRenderer.invoke(CHANNELS.recentList),
  openRecent: (path: string) => ipcRenderer.invoke(CHANNELS.openRecent, path),
  saveFile: (req: SaveRequest) => ipcRenderer.invoke(CHANNELS.saveFile, req),
  saveBegin: (req: Omit<SaveRequest, 'data'>) => ipcRenderer.invoke(CHANNELS.saveBegin, req),
  saveWrite: (id: string, bytes: Uint8Array) => ipcRenderer.invoke(CHANNELS.saveWrite, id, bytes),
  saveEnd: (id: string, ok: boolean) => ipcRenderer.invoke(CHANNELS.saveEnd, id, ok),
  recordStart: (req: RecordRequest) => ipcRenderer.invoke(CHANNELS.recordStart, req),
  recordNext: (id: string) => ipcRenderer.invoke(CHANNELS.recordNext, id),
  recordStop: (id: string) => ipcRenderer.invoke(CHANNELS.recordStop, id),
  onMenuCommand: (cb) => subscribe(CHANNELS.menuCommand, isMenuCommand, cb),
  onOpenItems: (cb) => subscribe(CHANNELS.openItems, isItemList, cb),
};

contextBridge.exposeInMainWorld('flamelens', api);
