/**
 * The registry of files and folders the user chose (open dialog, command line, recent list). It
 * hands out opaque random tokens and reads bytes only for tokens it issued, in bounded chunks and
 * through file handles — a gigabyte profile is never read whole. Electron-free: the local server
 * of the browser fallback uses the same registry.
 */
import { randomBytes } from 'node:crypto';
import { lstat, open, readdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { type ChosenItem, type FileRef, type FolderRef, MAX_CHUNK } from '../../shared/ipc/contract';

/** A token that this registry never issued (404 in the server, a rejection over IPC). */
export class UnknownTokenError extends Error {
  constructor() {
    super('unknown file token');
    this.name = 'UnknownTokenError';
  }
}

/** A malformed argument (400 in the server, a rejection over IPC). */
export class InvalidArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidArgumentError';
  }
}

/**
 * Checks a chunk request. Offsets must be non-negative safe integers (an offset past the end
 * simply reads nothing); lengths are capped at MAX_CHUNK rather than rejected, as the contract
 * promises "up to `length` bytes".
 */
export function checkChunkRange(offset: unknown, length: unknown): { offset: number; length: number } {
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) {
    throw new InvalidArgumentError(`offset must be a non-negative integer, got ${describe(offset)}`);
  }
  if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) {
    throw new InvalidArgumentError(`length must be a non-negative integer, got ${describe(length)}`);
  }
  return { offset, length: Math.min(length, MAX_CHUNK) };
}

function describe(v: unknown): string {
  return typeof v === 'number' ? String(v) : typeof v;
}

/**
 * Bytes read at once from a file streamed whole (`openStream`): each read is a trip to an I/O
 * thread and a write to the socket. Streaming 100 MB to a browser on the same machine, a server
 * of this shape spent ~60–75 ms of CPU in 1 MiB reads, ~40–50 ms in 4 MiB ones and ~160 ms in
 * 64 KiB ones (docs/performance.md, *The transfer*).
 */
export const STREAM_CHUNK = 4 << 20;

export interface ResolvedItems {
  items: ChosenItem[];
  /** one human-readable line per path that could not be opened */
  errors: string[];
}

export interface FileRegistry {
  /** registers a file or a folder (its regular files, not recursive) and describes it */
  choose(path: string): Promise<ChosenItem>;
  /** `choose` for each path; paths that cannot be opened are reported, not thrown */
  chooseAll(paths: readonly string[]): Promise<ResolvedItems>;
  /** true when `token` was issued by this registry */
  has(token: unknown): boolean;
  /** the path behind a token this registry issued; UnknownTokenError for any other */
  pathOf(token: unknown): string;
  /** up to `length` (≤ MAX_CHUNK) bytes from `offset`; empty at or past the end */
  readChunk(token: unknown, offset: unknown, length: unknown): Promise<Uint8Array>;
  /**
   * the whole file as one stream of STREAM_CHUNK pieces, with its size (the caller must read or
   * destroy the stream)
   */
  openStream(token: unknown): Promise<{ stream: NodeJS.ReadableStream & { destroy(): void }; size: number }>;
}

export function createFileRegistry(): FileRegistry {
  const pathByToken = new Map<string, string>();
  const tokenByPath = new Map<string, string>();

  function issue(path: string): string {
    let token = tokenByPath.get(path);
    if (token === undefined) {
      token = randomBytes(18).toString('base64url');
      tokenByPath.set(path, token);
      pathByToken.set(token, path);
    }
    return token;
  }

  function fileRef(path: string, size: number): FileRef {
    return { token: issue(path), name: basename(path), path, size };
  }

  async function folderRef(path: string): Promise<FolderRef> {
    const entries = await readdir(path, { withFileTypes: true });
    const files: FileRef[] = [];
    // Only regular files: a symlink inside the folder could point anywhere on the disk.
    for (const entry of entries.filter((e) => e.isFile()).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(path, entry.name);
      const st = await lstat(full);
      if (st.isFile()) files.push(fileRef(full, st.size));
    }
    return { name: basename(path), path, files };
  }

  async function choose(rawPath: string): Promise<ChosenItem> {
    if (typeof rawPath !== 'string' || rawPath === '' || rawPath.includes('\0')) {
      throw new InvalidArgumentError('not a file path');
    }
    const path = resolve(rawPath);
    const st = await stat(path);
    if (st.isDirectory()) return { kind: 'folder', folder: await folderRef(path) };
    if (st.isFile()) return { kind: 'file', file: fileRef(path, st.size) };
    throw new InvalidArgumentError(`${path} is neither a file nor a folder`);
  }

  async function chooseAll(paths: readonly string[]): Promise<ResolvedItems> {
    const items: ChosenItem[] = [];
    const errors: string[] = [];
    for (const p of paths) {
      try {
        items.push(await choose(p));
      } catch (err) {
        errors.push(describeOpenError(p, err));
      }
    }
    return { items, errors };
  }

  async function readChunk(token: unknown, offset: unknown, length: unknown): Promise<Uint8Array> {
    const path = pathOf(token);
    const range = checkChunkRange(offset, length);
    const handle = await open(path, 'r');
    try {
      const { size } = await handle.stat();
      const want = Math.max(0, Math.min(range.length, size - range.offset));
      // A fresh, exactly sized buffer: never a pooled Buffer whose backing store holds other data.
      const out = new Uint8Array(want);
      let got = 0;
      while (got < want) {
        const { bytesRead } = await handle.read(out, got, want - got, range.offset + got);
        if (bytesRead === 0) break; // the file shrank under us
        got += bytesRead;
      }
      return got === want ? out : out.slice(0, got);
    } finally {
      await handle.close();
    }
  }

  async function openStream(token: unknown) {
    const path = pathOf(token);
    const handle = await open(path, 'r');
    try {
      const { size } = await handle.stat();
      // The stream owns the handle from here and closes it when it ends or is destroyed.
      return { stream: handle.createReadStream({ highWaterMark: STREAM_CHUNK }), size };
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  function pathOf(token: unknown): string {
    const path = typeof token === 'string' ? pathByToken.get(token) : undefined;
    if (path === undefined) throw new UnknownTokenError();
    return path;
  }

  return { choose, chooseAll, has: (t) => typeof t === 'string' && pathByToken.has(t), pathOf, readChunk, openStream };
}

/** "cannot open /x/y.cpuprofile: no such file or directory" */
export function describeOpenError(path: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    code === 'ENOENT'
      ? 'no such file or directory'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : err instanceof Error
          ? err.message
          : String(err);
  return `cannot open ${path}: ${reason}`;
}
