/**
 * The IPC contract between the Electron main process and the renderer, and — with the same
 * shapes — between the browser build and the local server that `npm start` runs where no
 * Electron binary exists. Main reads only files the user chose (dialog, drop, command line):
 * it hands the renderer opaque tokens for them, and the renderer pulls their bytes in chunks,
 * so a gigabyte file never crosses the bridge in one piece and is parsed in the renderer's
 * worker, never in main.
 */

/** A file the user chose, as the renderer sees it. */
export interface FileRef {
  /** opaque id issued by main for this file; the only way to read it */
  token: string;
  /** base name */
  name: string;
  /** full path, for display and the recent-files list */
  path: string;
  size: number;
}

/** A folder the user chose (a `<pid>.0x` output directory): its regular files, not recursive. */
export interface FolderRef {
  name: string;
  path: string;
  files: FileRef[];
}

export type ChosenItem = { kind: 'file'; file: FileRef } | { kind: 'folder'; folder: FolderRef };

/** Commands the native menu sends to the renderer. */
export type MenuCommand =
  'open' | 'save' | 'export' | 'reset-zoom' | 'zoom-out' | 'toggle-layout' | 'toggle-orientation' | 'find' | 'shortcuts' | 'about';

export const MENU_COMMANDS: readonly MenuCommand[] = [
  'open',
  'save',
  'export',
  'reset-zoom',
  'zoom-out',
  'toggle-layout',
  'toggle-orientation',
  'find',
  'shortcuts',
  'about',
];

/** Largest chunk `readFileChunk` returns. */
export const MAX_CHUNK = 8 * 1024 * 1024;

/** Channel names, one per function of `FlamelensApi`. */
export const CHANNELS = {
  openDialog: 'flamelens:open-dialog',
  initialItems: 'flamelens:initial-items',
  readFileChunk: 'flamelens:read-file-chunk',
  dropChallenge: 'flamelens:drop-challenge',
  registerDropped: 'flamelens:register-dropped',
  recentList: 'flamelens:recent-list',
  openRecent: 'flamelens:open-recent',
  saveFile: 'flamelens:save-file',
  saveBegin: 'flamelens:save-begin',
  saveWrite: 'flamelens:save-write',
  saveEnd: 'flamelens:save-end',
  recordStart: 'flamelens:record-start',
  recordNext: 'flamelens:record-next',
  recordStop: 'flamelens:record-stop',
  menuCommand: 'flamelens:menu-command',
  openItems: 'flamelens:open-items',
} as const;

/**
 * What the open dialog offers. Linux and Windows dialogs cannot pick files and folders at once:
 * 'files' picks one or more files (on macOS files and folders), 'folder' picks `<pid>.0x` folders.
 */
export type OpenDialogKind = 'files' | 'folder';

/**
 * A `File` from a drop event. Typed by shape because shared/ has no DOM library; the preload turns
 * it into a path with `webUtils.getPathForFile`, so only files really dropped from disk count.
 */
export interface DroppedFile {
  readonly name: string;
  readonly size: number;
}

/** A dropped file as the preload describes it to main: where it is on disk and its size. */
export interface DropClaim {
  path: string;
  size: number;
}

/**
 * Main's answer to a drop's claims: for each claimed file, in order, the byte ranges
 * (`[offset, length]`) the preload must read from the dropped `File` and send back with `id` on
 * the registerDropped channel (one Uint8Array per range, or null where the file cannot be read).
 */
export interface DropChallenge {
  id: string;
  ranges: [number, number][][];
}

export interface SaveRequest {
  /** suggested file name */
  defaultName: string;
  /** dialog filter, e.g. { name: 'PNG image', extensions: ['png'] } */
  filters: { name: string; extensions: string[] }[];
  data: Uint8Array | string;
}

/**
 * A recording the app asks its host to make (`flamelens record`, run by the local server or
 * Electron's main process): the commands the person typed, run on this machine.
 */
export interface RecordRequest {
  /** an absolute folder, new or empty; '' for a new folder under the home folder's `flamelens-records` */
  out: string;
  variants: { name: string; command: string }[];
  requests: number;
  connections: number;
  repeat: number;
  capture: string[];
}

/** What a variant may be called: it names the folder its captures go into. */
export const VARIANT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** What a recording reports as it goes: progress lines, then how it ended. */
export type RecordEvent =
  { progress: string } | { done: { code: number; out: string; summary: string; workspace: ChosenItem | null } } | { error: string };

/**
 * What the preload script exposes as `window.flamelens` — one named function per channel, never
 * a generic invoke or send.
 */
export interface FlamelensApi {
  /** shows the native open dialog (multi-select; default 'files'); [] when cancelled */
  openDialog(kind?: OpenDialogKind): Promise<ChosenItem[]>;
  /** the files named on the command line, or the bundled sample comparison when none were */
  initialItems(): Promise<ChosenItem[]>;
  /** up to `length` bytes (at most MAX_CHUNK) of a chosen file from `offset`; empty at the end */
  readFileChunk(token: string, offset: number, length: number): Promise<Uint8Array>;
  /**
   * records dropped files in the recent list (the renderer reads dropped files itself). Takes the
   * dropped `File` objects: the renderer cannot see their paths, the preload can. Over the
   * channels it is a proof of possession: the preload sends each file's path and size
   * (dropChallenge, answered with a DropChallenge), then the bytes main asked for
   * (registerDropped: the challenge's id and, per file, one Uint8Array per range, or null). Main
   * adds to the recent list only the files whose bytes match.
   */
  registerDropped(files: readonly DroppedFile[]): Promise<string[]>;
  recentList(): Promise<string[]>;
  /** re-opens a recent path (only paths main itself put in the list) */
  openRecent(path: string): Promise<ChosenItem[]>;
  /** shows a save dialog and writes atomically; the path written, or null when cancelled */
  saveFile(req: SaveRequest): Promise<string | null>;
  /**
   * A save of any size, in pieces: shows the save dialog and returns an id for the file being
   * written (null when cancelled); `saveWrite` appends up to MAX_CHUNK bytes; `saveEnd` with
   * `ok` puts the file in place atomically and returns its path, without it drops what was written.
   */
  saveBegin(req: Omit<SaveRequest, 'data'>): Promise<string | null>;
  saveWrite(id: string, bytes: Uint8Array): Promise<void>;
  saveEnd(id: string, ok: boolean): Promise<string | null>;
  /**
   * A recording (`flamelens record`) of the commands the person typed: `recordStart` begins it and
   * gives its id, `recordNext` waits a while for what it reported since (a `done` or `error` event
   * ends it), `recordStop` cancels it.
   */
  recordStart(req: RecordRequest): Promise<string>;
  recordNext(id: string): Promise<RecordEvent[]>;
  recordStop(id: string): Promise<void>;
  /** subscribes to native-menu commands; returns an unsubscribe function */
  onMenuCommand(cb: (cmd: MenuCommand) => void): () => void;
  /** subscribes to items opened while running (File › Open Recent, a second `flamelens open`) */
  onOpenItems(cb: (items: ChosenItem[]) => void): () => void;
}
