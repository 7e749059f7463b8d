/**
 * A stored profile's big typed arrays (a long capture's sample columns: 80 MB for 10 M samples)
 * kept as files of the Origin Private File System, written straight from the arrays' memory.
 * IndexedDB would first make a structured clone of them — a second copy of the whole profile in
 * the window's process, and another on its way to the browser — at the moment the run is also
 * being drawn. What stays in IndexedDB is the rest of the profile, with each such array replaced
 * by `null` and named in `columns`.
 *
 * Two ways to write them: `writeColumns`, at once, with a synchronous access handle (a worker),
 * and `writeColumnsLater`, a slice at a time through a writable stream (the window, once the run
 * is drawn: the import does not wait for the disk). A file appears whole, or not at all.
 * Where neither can be had (a browser without OPFS) the profile is stored whole, as before.
 */
import type { Profile } from '../../../shared/model/types';

/** Arrays smaller than this stay in the IndexedDB record. */
export const COLUMN_BYTES = 1 << 20;
const DIR = 'profile-columns';

/** A typed array of the profile kept as a file: `profile[group][field]`. */
export interface StoredColumn {
  group: string;
  field: string;
  type: string;
  length: number;
}

/** What IndexedDB holds for a profile whose big arrays are files. */
export interface SplitRecord {
  splitProfile: 1;
  profile: Profile;
  columns: StoredColumn[];
}

type View = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;
const TYPES: Record<string, new (b: ArrayBuffer) => View> = {
  Int8Array,
  Uint8Array,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
};

export function isSplitRecord(v: unknown): v is SplitRecord {
  return typeof v === 'object' && v !== null && (v as Partial<SplitRecord>).splitProfile === 1;
}

/** The file of one column: the key made safe for a file name, then the array's place. */
export function columnFile(key: string, c: Pick<StoredColumn, 'group' | 'field'>): string {
  return `${encodeURIComponent(key)}~${c.group}.${c.field}`;
}

/** The profile's arrays that go to files, and the profile without them (its groups copied, the arrays `null`). */
export function splitProfile(profile: Profile): { rest: Profile; columns: (StoredColumn & { view: View })[] } {
  const rest: Record<string, unknown> = { ...profile };
  const columns: (StoredColumn & { view: View })[] = [];
  for (const [group, value] of Object.entries(profile)) {
    if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || Array.isArray(value)) continue;
    let copy: Record<string, unknown> | undefined;
    for (const [field, v] of Object.entries(value as Record<string, unknown>)) {
      if (!ArrayBuffer.isView(v) || v.byteLength < COLUMN_BYTES || !(v.constructor.name in TYPES)) continue;
      const view = v as View;
      copy ??= { ...(value as Record<string, unknown>) };
      copy[field] = null;
      columns.push({ group, field, type: view.constructor.name, length: view.length, view });
    }
    if (copy) rest[group] = copy;
  }
  return { rest: rest as unknown as Profile, columns };
}

/** The part of a worker's `FileSystemSyncAccessHandle` used here (the window's types lack it). */
interface SyncFile {
  createSyncAccessHandle(): Promise<{
    truncate(size: number): void;
    write(bytes: Uint8Array, options: { at: number }): number;
    flush(): void;
    close(): void;
  }>;
}

async function directory(): Promise<FileSystemDirectoryHandle> {
  return (await navigator.storage.getDirectory()).getDirectoryHandle(DIR, { create: true });
}

/** The part of `FileSystemWritableFileStream` used here. */
interface WritableFile {
  createWritable(): Promise<{ write(bytes: Uint8Array): Promise<void>; close(): Promise<void>; abort(): Promise<void> }>;
}

/** Whether this thread has OPFS files with `method` (a dedicated worker has both; the window only the writable stream). */
function canWrite(method: 'createSyncAccessHandle' | 'createWritable'): boolean {
  return (
    typeof FileSystemFileHandle !== 'undefined' &&
    method in FileSystemFileHandle.prototype &&
    typeof navigator !== 'undefined' &&
    typeof navigator.storage?.getDirectory === 'function'
  );
}

/** What `writeColumnsLater` writes at once: the window is held only for copying this much. */
export const LATER_SLICE = 4 << 20;

/**
 * Writes the profile's big arrays to files under `key`, from their own memory; returns the record
 * to put in IndexedDB instead of the profile, or undefined when nothing was written (no big
 * arrays, or no synchronous access here).
 */
export async function writeColumns(key: string, profile: Profile): Promise<SplitRecord | undefined> {
  if (!canWrite('createSyncAccessHandle')) return undefined;
  const { rest, columns } = splitProfile(profile);
  if (columns.length === 0) return undefined;
  const dir = await directory();
  for (const c of columns) {
    const file = (await dir.getFileHandle(columnFile(key, c), { create: true })) as unknown as SyncFile;
    const handle = await file.createSyncAccessHandle();
    try {
      const bytes = new Uint8Array(c.view.buffer, c.view.byteOffset, c.view.byteLength);
      handle.truncate(bytes.byteLength);
      for (let at = 0; at < bytes.byteLength;) at += handle.write(bytes.subarray(at), { at });
      handle.flush();
    } finally {
      handle.close();
    }
  }
  return splitRecord(rest, columns);
}

function splitRecord(rest: Profile, columns: StoredColumn[]): SplitRecord {
  return { splitProfile: 1, profile: rest, columns: columns.map(({ group, field, type, length }) => ({ group, field, type, length })) };
}

/**
 * The record to put in IndexedDB for a profile whose big arrays `writeColumnsLater` will write,
 * or undefined when it has none (or they cannot be written that way here).
 */
export function recordForLater(profile: Profile): SplitRecord | undefined {
  if (!canWrite('createWritable')) return undefined;
  const { rest, columns } = splitProfile(profile);
  return columns.length === 0 ? undefined : splitRecord(rest, columns);
}

/** The array `profile[group][field]` that `c` names, checked against it. */
function columnOf(profile: Profile, c: StoredColumn): View {
  const v = (profile as unknown as Record<string, Record<string, unknown> | undefined>)[c.group]?.[c.field];
  if (!ArrayBuffer.isView(v) || v.constructor.name !== c.type || (v as View).length !== c.length)
    throw new Error(`the profile's ${c.group}.${c.field} is not the ${c.type} of ${c.length} values its record names`);
  return v as View;
}

/**
 * Writes the arrays of `profile` that a split record names (`recordForLater`), a slice at a
 * time: each write copies one slice and the rest waits for the disk without holding the thread.
 */
export async function writeColumnsLater(key: string, profile: Profile, columns: StoredColumn[]): Promise<void> {
  const dir = await directory();
  for (const c of columns) {
    const view = columnOf(profile, c);
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    const file = (await dir.getFileHandle(columnFile(key, c), { create: true })) as unknown as WritableFile;
    const out = await file.createWritable();
    try {
      for (let at = 0; at < bytes.byteLength; at += LATER_SLICE) await out.write(bytes.subarray(at, at + LATER_SLICE));
      await out.close();
    } catch (e) {
      await out.abort().catch(() => undefined);
      throw e;
    }
  }
}

/** The whole profile of a split record, its arrays read back from their files. */
export async function joinColumns(key: string, record: SplitRecord): Promise<Profile> {
  const dir = await directory();
  const profile: Record<string, unknown> = { ...record.profile };
  for (const c of record.columns) {
    const Type = TYPES[c.type];
    if (!Type) throw new Error(`stored column ${c.group}.${c.field} has an unknown type ${c.type}`);
    const buffer = await (await (await dir.getFileHandle(columnFile(key, c))).getFile()).arrayBuffer();
    const view = new Type(buffer);
    if (view.length !== c.length) throw new Error(`stored column ${c.group}.${c.field} holds ${view.length} values, not ${c.length}`);
    profile[c.group] = { ...(profile[c.group] as Record<string, unknown>), [c.field]: view };
  }
  return profile as unknown as Profile;
}

/** Deletes the column files of every key not in `keep`. */
export async function pruneColumns(keep: ReadonlySet<string>): Promise<void> {
  if (typeof navigator === 'undefined' || typeof navigator.storage?.getDirectory !== 'function') return;
  const dir = await directory();
  const kept = new Set([...keep].map((k) => encodeURIComponent(k)));
  const names: string[] = [];
  for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys()) names.push(name);
  for (const name of names) if (!kept.has(name.slice(0, name.lastIndexOf('~')))) await dir.removeEntry(name).catch(() => undefined);
}
