/**
 * Nothing the user made is lost: the comparison (runs, notes, ranges, settings) is written to
 * IndexedDB a moment after every change, and offered back after a crash, a reload or a closed
 * window.
 */
import { encodeWorkspace } from '../../../shared/workspace/workspace';
import { useStore } from '../store/store';
import type { AppState } from '../store/store';
import { collectWorkspace, onWorkspaceSaved, openWorkspaceBytes } from './workspace-io';

const DB = 'flamelens';
const STORE = 'recovery';
const KEY = 'last';
const DELAY_MS = 1500;

export interface Recovered {
  savedAt: number;
  runs: number;
  /** notes and boxes */
  notes: number;
  title?: boolean;
  caption?: boolean;
  /** where the comparison was saved, when nothing changed after that save */
  savedAs?: string;
  /** the person changed something worth offering back (notes, ranges, files of their own) */
  userMade: boolean;
  bytes: Uint8Array;
}

function db(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function tx<T>(mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const d = await db();
  return new Promise((resolve, reject) => {
    const t = d.transaction(STORE, mode);
    const req = fn(t.objectStore(STORE));
    t.oncomplete = () => resolve(req.result);
    t.onerror = () => reject(t.error);
  });
}

export async function readRecovery(): Promise<Recovered | undefined> {
  try {
    return (await tx('readonly', (s) => s.get(KEY))) as Recovered | undefined;
  } catch {
    return undefined;
  }
}

export async function discardRecovery(): Promise<void> {
  await tx('readwrite', (s) => s.delete(KEY)).catch(() => undefined);
}

/** What is worth keeping: the parts of the state a person made or chose. */
const watched = (s: AppState) => [s.runs, s.baselineId, s.annotationHistory.present, s.ranges, s.focus, s.query, s.diffView, s.layout] as const;

/** Starts writing the comparison to IndexedDB after changes. Returns a stop function. */
export function startAutosave(isInitialRun: (id: string) => boolean): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let enabled = true;
  // What was last saved to a file: the record says so while the comparison is still that.
  let saved: { state: readonly unknown[]; where: string } | undefined;
  const save = async () => {
    const s = useStore.getState();
    const ready = s.runs.filter((r) => r.status === 'ready');
    if (ready.length === 0 || s.runs.some((r) => r.status === 'loading')) return;
    const doc = s.annotationHistory.present;
    const bytes = await encodeWorkspace(collectWorkspace(s));
    const notes = doc.items.length;
    const userMade = notes > 0 || !!doc.title || !!doc.caption || Object.keys(s.ranges).length > 0 || ready.some((r) => !isInitialRun(r.id));
    const rec: Recovered = { savedAt: Date.now(), runs: ready.length, notes, title: !!doc.title, caption: !!doc.caption, userMade, bytes };
    const now = watched(s);
    if (saved && now.every((v, i) => v === saved!.state[i])) rec.savedAs = saved.where;
    await tx('readwrite', (st) => st.put(rec, KEY)).catch(() => undefined);
  };
  const unsubscribe = useStore.subscribe((s, prev) => {
    const a = watched(s);
    const b = watched(prev);
    if (!enabled || a.every((v, i) => v === b[i])) return;
    clearTimeout(timer);
    timer = setTimeout(() => void save(), DELAY_MS);
  });
  const offSaved = onWorkspaceSaved((where) => {
    saved = { state: watched(useStore.getState()), where };
    clearTimeout(timer);
    void save();
  });
  return () => {
    enabled = false;
    clearTimeout(timer);
    unsubscribe();
    offSaved();
  };
}

export async function restoreRecovered(r: Recovered): Promise<void> {
  await openWorkspaceBytes(r.bytes, 'recovered work');
}
