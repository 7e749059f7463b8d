/**
 * The IPC handlers, one per channel of shared/ipc/contract.ts. Every argument is checked here,
 * because the renderer shows untrusted data and is therefore treated as untrusted too; every
 * call is refused unless it comes from our window's top frame showing our page. Dialogs and the
 * window are injected, so this module has no Electron imports and is tested without Electron.
 */
import { randomUUID } from 'node:crypto';
import { join, basename } from 'node:path';
import { CHANNELS, type ChosenItem, MAX_CHUNK, type OpenDialogKind, type SaveRequest } from '../../shared/ipc/contract';
import { AtomicFile, writeFileAtomic } from './atomic-write';
import { createDropVerifier } from './drop-proof';
import { type FileRegistry, InvalidArgumentError, describeOpenError } from '../../node/host/files';
import type { RecentList } from './recent';
import { runRecordJob } from '../../node/host/record-job';
import { createRecordSessions } from '../../node/host/record-sessions';

export interface IpcDeps {
  registry: FileRegistry;
  recent: RecentList;
  /** the command-line items, or the bundled samples */
  initialItems(): Promise<ChosenItem[]>;
  /** chosen paths; [] when cancelled */
  showOpenDialog(kind: OpenDialogKind): Promise<string[]>;
  /** chosen path; null when cancelled */
  showSaveDialog(defaultPath: string, filters: SaveRequest['filters']): Promise<string | null>;
  /** folder the save dialog starts in */
  saveDirectory(): string;
  /** tells the person about paths that could not be opened */
  reportErrors(errors: string[]): void;
}

/** Channels that are invoked by the renderer (the other two are main → renderer events). */
export type InvokeChannel = Exclude<keyof typeof CHANNELS, 'menuCommand' | 'openItems'>;
export type Handlers = Record<InvokeChannel, (...args: unknown[]) => Promise<unknown>>;

export const MAX_SAVE_BYTES = 1024 * 1024 * 1024;

/** Registers paths, remembers the ones that opened, reports the ones that did not. */
export async function openPaths(
  deps: Pick<IpcDeps, 'registry' | 'recent' | 'reportErrors'>,
  paths: readonly string[],
): Promise<ChosenItem[]> {
  const { items, errors } = await deps.registry.chooseAll(paths);
  await deps.recent.add(items.map(itemPath)).catch(() => undefined);
  deps.reportErrors(errors);
  return items;
}

export function createHandlers(deps: IpcDeps): Handlers {
  const { registry, recent } = deps;
  const drops = createDropVerifier();
  /** files being saved in pieces, by the id `saveBegin` gave */
  const saving = new Map<string, AtomicFile>();
  const savingFile = (id: unknown): AtomicFile => {
    const file = typeof id === 'string' ? saving.get(id) : undefined;
    if (!file) throw new InvalidArgumentError('no file is being saved under that id');
    return file;
  };
  const saved = async (path: string) => {
    if (path.endsWith('.flamelens')) await recent.add([path]).catch(() => undefined);
  };
  // The workspace a recording wrote opens like a file the person chose.
  const recordings = createRecordSessions((r, emit, signal) =>
    runRecordJob(r, emit, async (path) => (await openPaths(deps, [path]))[0] ?? null, signal),
  );

  return {
    async openDialog(kind: unknown = 'files') {
      if (kind !== 'files' && kind !== 'folder') throw new InvalidArgumentError("kind must be 'files' or 'folder'");
      return openPaths(deps, await deps.showOpenDialog(kind));
    },

    initialItems: () => deps.initialItems(),

    readFileChunk: (token, offset, length) => registry.readChunk(token, offset, length),

    // A drop reaches the recent list in two steps: main asks for bytes of each claimed file, and
    // only the files whose bytes match are added (drop-proof.ts). What cannot be proven — a path
    // the renderer was not given, a folder, a file gone or changed since — is left out silently.
    dropChallenge: (claims) => drops.challenge(claims),

    async registerDropped(id: unknown, answers: unknown) {
      await recent.add(await drops.verify(id, answers));
    },

    recentList: async () => recent.list(),

    async openRecent(path: unknown) {
      if (typeof path !== 'string' || !recent.has(path)) {
        throw new InvalidArgumentError('only paths from the recent list can be re-opened');
      }
      try {
        const item = await registry.choose(path);
        await recent.add([path]);
        return [item];
      } catch (err) {
        await recent.remove(path).catch(() => undefined);
        throw new Error(describeOpenError(path, err));
      }
    },

    async saveFile(req: unknown) {
      const { defaultName, filters, data } = checkSaveRequest(req);
      const path = await deps.showSaveDialog(join(deps.saveDirectory(), defaultName), filters);
      if (path === null) return null;
      try {
        await writeFileAtomic(path, data);
      } catch (err) {
        throw new Error(`could not save ${path}: ${(err as Error).message}`);
      }
      await saved(path);
      return path;
    },

    async saveBegin(req: unknown) {
      const { defaultName, filters } = checkSaveTarget(req);
      const path = await deps.showSaveDialog(join(deps.saveDirectory(), defaultName), filters);
      if (path === null) return null;
      let file: AtomicFile;
      try {
        file = await AtomicFile.create(path);
      } catch (err) {
        throw new Error(`could not save ${path}: ${(err as Error).message}`);
      }
      const id = randomUUID();
      saving.set(id, file);
      return id;
    },

    async saveWrite(id: unknown, bytes: unknown) {
      const file = savingFile(id);
      if (!(bytes instanceof Uint8Array) || bytes.byteLength > MAX_CHUNK)
        throw new InvalidArgumentError(`each piece must be a Uint8Array of at most ${MAX_CHUNK} bytes`);
      try {
        await file.write(bytes);
      } catch (err) {
        saving.delete(id as string);
        await file.abort();
        throw new Error(`could not save ${file.path}: ${(err as Error).message}`);
      }
    },

    recordStart: async (req) => recordings.start(req),
    recordNext: (id) => recordings.next(id),
    recordStop: async (id) => recordings.stop(id),

    async saveEnd(id: unknown, ok: unknown) {
      const file = savingFile(id);
      saving.delete(id as string);
      if (ok !== true) {
        await file.abort();
        return null;
      }
      try {
        await file.commit();
      } catch (err) {
        throw new Error(`could not save ${file.path}: ${(err as Error).message}`);
      }
      await saved(file.path);
      return file.path;
    },
  };
}

export function itemPath(item: ChosenItem): string {
  return item.kind === 'file' ? item.file.path : item.folder.path;
}

/** Installs the handlers, each behind the sender check. */
export function registerIpcHandlers(
  ipcMain: { handle(channel: string, listener: (event: { senderFrame: unknown }, ...args: unknown[]) => unknown): void },
  handlers: Handlers,
  isTrusted: (event: { senderFrame: unknown }) => boolean,
): void {
  for (const name of Object.keys(handlers) as InvokeChannel[]) {
    const channel = CHANNELS[name];
    const handler = handlers[name];
    ipcMain.handle(channel, (event, ...args) => {
      if (!isTrusted(event)) throw new Error(`flamelens: ${channel} refused: the sender is not the Flamelens window`);
      return handler(...args);
    });
  }
}

/** The suggested name and dialog filters of a save request, checked. */
export function checkSaveTarget(req: unknown): { defaultName: string; filters: SaveRequest['filters'] } {
  if (typeof req !== 'object' || req === null) throw new InvalidArgumentError('save request must be an object');
  const r = req as Record<string, unknown>;
  const filters = r.filters ?? [];
  if (!Array.isArray(filters) || filters.length > 16) throw new InvalidArgumentError('filters must be an array');
  const checkedFilters = filters.map((f: unknown) => {
    const { name, extensions } = (f ?? {}) as Record<string, unknown>;
    if (
      typeof name !== 'string' ||
      name.length > 100 ||
      !Array.isArray(extensions) ||
      extensions.length > 16 ||
      !extensions.every((e) => typeof e === 'string' && /^[\w*-]{1,16}$/.test(e))
    ) {
      throw new InvalidArgumentError('each filter needs a name and extensions like "png"');
    }
    return { name, extensions: extensions as string[] };
  });
  return { defaultName: safeFileName(r.defaultName), filters: checkedFilters };
}

export function checkSaveRequest(req: unknown): { defaultName: string; filters: SaveRequest['filters']; data: Uint8Array | string } {
  const target = checkSaveTarget(req);
  const r = req as Record<string, unknown>;
  let data: Uint8Array | string;
  if (typeof r.data === 'string') data = r.data;
  else if (r.data instanceof Uint8Array) data = r.data;
  else if (r.data instanceof ArrayBuffer) data = new Uint8Array(r.data);
  else throw new InvalidArgumentError('data must be a string or a Uint8Array');
  const size = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  if (size > MAX_SAVE_BYTES) throw new InvalidArgumentError('data is larger than 1 GiB (a save in pieces, saveBegin, has no limit)');
  return { ...target, data };
}

/** A bare file name: no folders, no control characters, never empty. */
export function safeFileName(name: unknown): string {
  const raw = typeof name === 'string' ? basename(name.replace(/\\/g, '/')) : '';
  const cleaned = raw
    .replace(/[\u0000-\u001f<>:"|?*]/g, '_')
    .slice(0, 200)
    .trim();
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'flamelens-export' : cleaned;
}
