/**
 * Nothing the user made is lost: the comparison (runs, notes, ranges, settings) is kept in
 * IndexedDB and offered back after a crash, a reload or a closed window.
 *
 * Each run's profile is stored once, when it is imported, by the import worker (see
 * ./profile-store); a moment after every change the window writes only a small record — the
 * workspace with each profile replaced by its key. So saving never encodes a profile on the UI
 * thread, and a comparison of any size is recoverable. A run that did not come from an import
 * worker (a workspace, or a run brought back by undo after its profile was pruned) is stored
 * from the window when the record first needs it.
 */
import type { Measured } from '../../../shared/runs/measured';
import type { Workspace } from '../../../shared/workspace/workspace';
import type { WorkspaceRepeats } from '../../../shared/workspace/workspace-repeats';
import { repeatStatisticsLoaded } from '../store/derived-repeats';
import { useStore } from '../store/store';
import type { AppState } from '../store/store';
import { deleteRecord, pruneProfiles, readProfile, readRecord, writeProfile, writeRecord } from './profile-store';
import { collectWorkspace, onWorkspaceSaved, restoreWorkspace } from './workspace-io';
import { adoptStoredProfile, profileKey, stored, writing } from './stored-keys';

const KEY = 'last';
const DELAY_MS = 1500;
/** The shape of the record; a record of another shape is not offered back. */
const RECORD_VERSION = 2;

/** A run of repeats as recorded: each repeat's profile under a key of its own (see Run.repeats). */
type StoredRepeats = Omit<WorkspaceRepeats, 'profiles'> & { keys: string[] };
/** `thread`: the thread shown of a profile that holds every thread (see Run.thread) */
type StoredRun = {
  id: string;
  title: string;
  fileName: string;
  key: string;
  thread?: string;
  measured?: Measured;
  repeats?: StoredRepeats;
};
type StoredWorkspace = Omit<Workspace, 'runs'> & { runs: StoredRun[] };

export interface Recovered {
  version: typeof RECORD_VERSION;
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
  workspace: StoredWorkspace;
}

export async function readRecovery(): Promise<Recovered | undefined> {
  try {
    const r = await readRecord<Recovered>(KEY);
    return r && r.version === RECORD_VERSION ? r : undefined;
  } catch {
    return undefined;
  }
}

export async function discardRecovery(): Promise<void> {
  await deleteRecord(KEY).catch(() => undefined);
}

/** What is worth keeping: the parts of the state a person made or chose. */
const watched = (s: AppState) =>
  [s.runs, s.baselineId, s.annotationHistory.present, s.ranges, s.focus, s.query, s.diffView, s.layout] as const;

/** What was last saved to a file, and the state it was saved in. */
interface SavedToFile {
  state: readonly unknown[];
  where: string;
}

/** Writes the record of the comparison as it stands; resolves when it is on disk. */
async function save(isInitialRun: (id: string) => boolean, saved: SavedToFile | undefined): Promise<void> {
  const s = useStore.getState();
  const ready = s.runs.filter((r) => r.status === 'ready' && r.profile);
  if (ready.length === 0 || s.runs.some((r) => r.status === 'loading')) return;
  for (const r of ready) {
    const key = profileKey(r.id);
    if (!stored.has(key) && !writing.has(key)) {
      await writeProfile(key, r.repeats?.mean ?? r.allThreads ?? r.profile!);
      stored.add(key);
    }
    // A run of repeats keeps each of them; the import worker stored only their mean.
    for (const [k, p] of (r.repeats?.profiles ?? []).entries()) {
      const rk = repeatKey(key, k);
      if (stored.has(rk)) continue;
      await writeProfile(rk, p);
      stored.add(rk);
    }
  }
  const ws = collectWorkspace(s);
  const workspace: StoredWorkspace = {
    ...ws,
    runs: ws.runs.map(({ id, title, fileName, thread, measured, repeats }) => ({
      id,
      title,
      fileName,
      key: profileKey(id),
      ...(thread !== undefined ? { thread } : {}),
      ...(measured !== undefined ? { measured } : {}),
      ...(repeats ? { repeats: storedRepeats(profileKey(id), repeats) } : {}),
    })),
  };
  const doc = s.annotationHistory.present;
  const notes = doc.items.length;
  const userMade = notes > 0 || !!doc.title || !!doc.caption || Object.keys(s.ranges).length > 0 || ready.some((r) => !isInitialRun(r.id));
  const rec: Recovered = {
    version: RECORD_VERSION,
    savedAt: Date.now(),
    runs: ready.length,
    notes,
    title: !!doc.title,
    caption: !!doc.caption,
    userMade,
    workspace,
  };
  // The record says where the comparison was saved while it is still what was saved.
  const now = watched(s);
  if (saved && now.every((v, i) => v === saved.state[i])) rec.savedAs = saved.where;
  await writeRecord(KEY, rec);
  // Profiles no longer in the record, nor being written, go (a run removed and not brought back).
  const keep = new Set([...workspace.runs.flatMap((r) => [r.key, ...(r.repeats?.keys ?? [])]), ...writing]);
  for (const k of stored) if (!keep.has(k)) stored.delete(k);
  // Not awaited: the prune waits for every profile write in flight (four 100 MB runs take many
  // seconds), and the next record must not wait behind it.
  pruning = pruning.then(() => pruneProfiles(keep)).catch((e: unknown) => console.warn('Flamelens could not prune stored profiles:', e));
}

let pruning: Promise<void> = Promise.resolve();

/** Where the k-th repeat of the run whose profile is under `key` is stored. */
const repeatKey = (key: string, k: number) => `${key}:repeat-${k}`;

function storedRepeats(key: string, { profiles, ...rest }: WorkspaceRepeats): StoredRepeats {
  return { ...rest, keys: profiles.map((_, k) => repeatKey(key, k)) };
}

/** A recorded run's repeats read back from the store; undefined when any is missing (the run then comes back as their mean). */
async function readRepeats(r: StoredRepeats): Promise<WorkspaceRepeats | undefined> {
  const profiles = await Promise.all(r.keys.map((k) => readProfile(k).catch(() => undefined)));
  if (profiles.some((p) => !p)) return undefined;
  const { keys: _, ...rest } = r;
  return { ...rest, profiles: profiles as NonNullable<(typeof profiles)[number]>[] };
}

/** Starts keeping the comparison in IndexedDB after changes. Returns a stop function. */
export function startAutosave(isInitialRun: (id: string) => boolean): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let enabled = true;
  let running: Promise<void> = Promise.resolve();
  let saved: SavedToFile | undefined;
  const saveNow = () => {
    // One save at a time: a change during a save is saved after it.
    running = running
      .then(() => (enabled ? save(isInitialRun, saved) : undefined))
      .catch((e: unknown) => console.warn('Flamelens could not keep the comparison for recovery:', e));
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(saveNow, DELAY_MS);
  };
  const unsubscribe = useStore.subscribe((s, prev) => {
    const a = watched(s);
    const b = watched(prev);
    if (!enabled || a.every((v, i) => v === b[i])) return;
    schedule();
  });
  const offSaved = onWorkspaceSaved((where) => {
    saved = { state: watched(useStore.getState()), where };
    clearTimeout(timer);
    saveNow();
  });
  return () => {
    enabled = false;
    clearTimeout(timer);
    unsubscribe();
    offSaved();
  };
}

/**
 * Brings the recorded comparison back. A run whose profile is missing from the store (the
 * browser cleared it) is left out; the message says which.
 */
export async function restoreRecovered(r: Recovered): Promise<string | undefined> {
  const runs: Workspace['runs'] = [];
  const missing: string[] = [];
  for (const run of r.workspace.runs) {
    const profile = await readProfile(run.key).catch(() => undefined);
    const repeats = run.repeats && (await readRepeats(run.repeats));
    if (run.repeats && !repeats) missing.push(`${run.title}'s repeats (it is back as their mean)`);
    if (profile)
      runs.push({
        id: run.id,
        title: run.title,
        fileName: run.fileName,
        profile,
        ...(run.thread !== undefined ? { thread: run.thread } : {}),
        ...(run.measured !== undefined ? { measured: run.measured } : {}),
        ...(repeats ? { repeats } : {}),
      });
    else missing.push(run.title);
  }
  const base = r.workspace.runs[r.workspace.baselineIndex];
  const baselineIndex = base ? runs.findIndex((x) => x.id === base.id) : -1;
  if (runs.some((x) => x.repeats)) await repeatStatisticsLoaded();
  const ids = restoreWorkspace({ ...r.workspace, runs, baselineIndex: runs.length === 0 ? -1 : Math.max(0, baselineIndex) });
  // The profiles are in the store already: the restored runs keep their keys.
  for (const run of r.workspace.runs) {
    const id = ids.get(run.id);
    if (id === undefined || !runs.some((x) => x.id === run.id)) continue;
    adoptStoredProfile(id, run.key);
    for (const k of run.repeats?.keys ?? []) stored.add(k);
  }
  return missing.length
    ? `${missing.length} run(s) could not be brought back (the browser no longer had their data): ${missing.join(', ')}`
    : undefined;
}
