/**
 * The browser-side store behind crash recovery, in IndexedDB: each run's profile once, as the
 * structured clone of its plain data (typed arrays are copied as they are, nothing is encoded),
 * and one small record of the comparison that refers to the profiles by key.
 *
 * Used from the window and from import workers alike: a worker stores the profile it imported
 * before it hands it over, so a profile of any size reaches the store without the window
 * encoding or copying it. The profile's big arrays go to files of their own, from their memory
 * (./profile-columns), so that they are never copied for the store either: written by the worker
 * before it hands the profile over, or, with `columnsLater`, by the window once the run is drawn.
 */
import type { Profile } from '../../../shared/model/types';
import type { StoredColumn } from './profile-columns';
import { isSplitRecord, joinColumns, pruneColumns, recordForLater, writeColumns, writeColumnsLater } from './profile-columns';

const DB = 'flamelens';
/** 1: one `recovery` store holding a whole encoded workspace; 2: adds `profiles`. */
const VERSION = 2;
export const RECORDS = 'recovery';
const PROFILES = 'profiles';

let opening: Promise<IDBDatabase> | undefined;

function open(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(DB, VERSION);
    req.onupgradeneeded = () => {
      const d = req.result;
      // A version-1 record holds a whole workspace in the old form: it is dropped, not misread.
      if (d.objectStoreNames.contains(RECORDS)) d.deleteObjectStore(RECORDS);
      d.createObjectStore(RECORDS);
      if (!d.objectStoreNames.contains(PROFILES)) d.createObjectStore(PROFILES);
    };
    req.onsuccess = () => {
      const d = req.result;
      // Another tab that opens a newer version asks this one to let go.
      d.onversionchange = () => {
        d.close();
        opening = undefined;
      };
      resolve(d);
    };
    req.onerror = () => {
      opening = undefined;
      reject(req.error ?? new Error('IndexedDB could not be opened'));
    };
    req.onblocked = () => {
      opening = undefined;
      reject(new Error('IndexedDB is held by another Flamelens window'));
    };
  });
  return opening;
}

function done(t: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    t.oncomplete = () => resolve();
    t.onerror = () => reject(t.error ?? new Error('IndexedDB write failed'));
    t.onabort = () => reject(t.error ?? new Error('IndexedDB write was aborted'));
  });
}

/**
 * Opens the store ahead of a write (an import worker, while it parses), so that storing the
 * profile does not wait for it after the import. A store that cannot be opened fails the write later.
 */
export function openAhead(): void {
  open().catch(() => undefined);
}

/**
 * Starts storing a profile and returns once its data has been copied (IndexedDB clones the value
 * when `put` is called), so the caller may transfer the profile's buffers right away. `written`
 * settles when the write is on disk.
 *
 * With `columnsLater`, the big arrays are not written here: `later` names them, for
 * `finishProfileWrite` to write from wherever the profile goes (the window), and until it has, the
 * stored profile cannot be read back. Without, they are written now where this thread can (a
 * worker), else stored with the rest.
 */
export async function beginProfileWrite(
  key: string,
  profile: Profile,
  opts: { columnsLater?: boolean } = {},
): Promise<{ written: Promise<void>; later?: StoredColumn[] }> {
  const d = await open();
  const forLater = opts.columnsLater ? recordForLater(profile) : undefined;
  // Columns that could not be written as files (no room, no OPFS) go with the rest, as a clone.
  const split = forLater ?? (await writeColumns(key, profile).catch(() => undefined));
  const t = d.transaction(PROFILES, 'readwrite');
  const written = done(t);
  t.objectStore(PROFILES).put(split ?? profile, key);
  return forLater ? { written, later: forLater.columns } : { written };
}

/** Resolves on the next frame after this moment, or after `ms` where frames do not come (a hidden window). */
function nextFrame(ms = 500): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (typeof requestAnimationFrame === 'function')
      requestAnimationFrame(() => {
        clearTimeout(timer);
        setTimeout(resolve, 0);
      });
  });
}

/**
 * Writes the big arrays a worker left (`later` of `beginProfileWrite`) from `profile`, the same
 * profile handed over, after the window has drawn the frame it is drawing: a slice at a time, so
 * that no task of the window's is long.
 */
export async function finishProfileWrite(key: string, profile: Profile, later: StoredColumn[]): Promise<void> {
  await nextFrame();
  await writeColumnsLater(key, profile, later);
}

/**
 * Stores a profile from the window, and resolves once it is all on disk: its big arrays go to
 * files a slice at a time; where they cannot (no room, no files here), the whole profile goes
 * to IndexedDB as a clone, as it did before there were files.
 */
export async function writeProfile(key: string, profile: Profile): Promise<void> {
  const { written, later } = await beginProfileWrite(key, profile, { columnsLater: true });
  await written;
  if (!later) return;
  try {
    await writeColumnsLater(key, profile, later);
  } catch {
    await (
      await beginProfileWrite(key, profile)
    ).written;
  }
}

export async function readProfile(key: string): Promise<Profile | undefined> {
  const d = await open();
  const t = d.transaction(PROFILES, 'readonly');
  const req = t.objectStore(PROFILES).get(key);
  await done(t);
  const value: unknown = req.result;
  return isSplitRecord(value) ? joinColumns(key, value) : (value as Profile | undefined);
}

/** Deletes every stored profile whose key is not in `keep`. */
export async function pruneProfiles(keep: ReadonlySet<string>): Promise<void> {
  const d = await open();
  const t = d.transaction(PROFILES, 'readwrite');
  const s = t.objectStore(PROFILES);
  const req = s.getAllKeys();
  req.onsuccess = () => {
    for (const k of req.result) if (typeof k !== 'string' || !keep.has(k)) s.delete(k);
  };
  await done(t);
  await pruneColumns(keep);
}

export async function readRecord<T>(key: string): Promise<T | undefined> {
  const d = await open();
  const t = d.transaction(RECORDS, 'readonly');
  const req = t.objectStore(RECORDS).get(key);
  await done(t);
  return req.result as T | undefined;
}

export async function writeRecord(key: string, value: unknown): Promise<void> {
  const d = await open();
  const t = d.transaction(RECORDS, 'readwrite');
  t.objectStore(RECORDS).put(value, key);
  await done(t);
}

export async function deleteRecord(key: string): Promise<void> {
  const d = await open();
  const t = d.transaction(RECORDS, 'readwrite');
  t.objectStore(RECORDS).delete(key);
  await done(t);
}
