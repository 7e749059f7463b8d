/// <reference lib="webworker" />
/**
 * Parses one file (or 0x folder) off the UI thread. One worker per import: a file that crashes
 * its parser, or is cancelled, takes nothing else down.
 */
import { toImportErrorData } from '../../../shared/import/errors';
import { importProfile } from '../../../shared/import/import-profile';
import type { ByteSource } from '../../../shared/import/io/source';
import { ALL_THREADS, hasThreadRoots, threadKey } from '../../../shared/model/threads';
import type { Profile } from '../../../shared/model/types';
import { weighByDefault } from '../../../shared/model/weigh';
import { fineDensity } from '../../../shared/heatmap/heatmap';
import { threadFilesRun } from '../../../shared/runs/group-sources';
import type { FromWorker, ImportedRepeats, ToWorker, WorkerFile, WorkerSource } from './protocol';
import { profileBuffers } from './protocol';
import { beginProfileWrite, openAhead } from '../workspace/profile-store';
import type { StoredColumn } from '../workspace/profile-columns';
import { ChunkReader, byteSource as fileSource } from './worker-bytes';
import { pacedProgress } from './progress';
import { importRepeats } from './repeats';
import { parsedByHost } from './host-parsed';
import { namedAsReadInWindow } from '../../../shared/import/read-in-window';

declare const self: DedicatedWorkerGlobalScope;

function post(msg: FromWorker, transfer: Transferable[] = []): void {
  self.postMessage(msg, transfer);
}

const chunks = new ChunkReader((msg) => post(msg));
const byteSource = (f: WorkerFile): ByteSource => fileSource(f, chunks);

/** Progress every 100 ms at most: each report renders the window again (./progress). */
const onProgress = pacedProgress((read, size) => post({ type: 'progress', read, size }), 100);

/**
 * The source's profile, weighed as the app weighs it (V8 samples are not evenly spaced:
 * model/weigh.ts), read once. A file with samples of several threads (a trace, a perf capture)
 * keeps every thread, so that any of them can be shown without the file; `thread` is the one
 * shown first, the one an import without a choice shows.
 */
async function importSource(source: WorkerSource): Promise<{ profile: Profile; thread?: string; repeats?: ImportedRepeats }> {
  if (source.kind === 'threads') return importThreadFiles(source.name, source.files);
  if (source.kind === 'repeats') return importRepeats(source.name, source.files, async (f) => weighByDefault(await importFile(f, false)));
  const profile = weighByDefault(
    source.kind === 'folder'
      ? await importProfile({ name: source.name, files: source.files.map(byteSource) }, { options: { keepThreads: true }, onProgress })
      : await importFile(source, true, onProgress),
  );
  if (!hasThreadRoots(profile)) return { profile };
  return { profile, thread: profile.meta.defaultThread ?? ALL_THREADS };
}

/**
 * A file's profile as the import returns it: parsed by the host where it does that (its profile
 * comes instead of its bytes: ./host-parsed), else read here.
 */
async function importFile(f: WorkerFile, keepThreads: boolean, progress?: typeof onProgress): Promise<Profile> {
  if (f.kind === 'token' && f.parsed && !namedAsReadInWindow(f.name)) {
    const profile = await parsedByHost(f.parsed, f.name, keepThreads, progress);
    if (profile) return profile;
  }
  return importProfile(byteSource(f), { options: keepThreads ? { keepThreads } : {}, ...(progress ? { onProgress: progress } : {}) });
}

/** One `.cpuprofile` per thread of a process (`node --cpu-prof`), the main thread's first. */
async function importThreadFiles(name: string, files: WorkerFile[]): Promise<{ profile: Profile; thread: string }> {
  const read: { name: string; profile: Profile }[] = [];
  for (const f of files) read.push({ name: f.name, profile: await importFile(f, false) });
  const profile = weighByDefault(threadFilesRun(name, read));
  return { profile, thread: threadKey(profile.meta.threads![0]!) };
}

self.onmessage = async (ev: MessageEvent<ToWorker>) => {
  const msg = ev.data;
  if (msg.type === 'chunk') return chunks.answered(msg);
  const name = msg.source.name;
  if (msg.storeKey) openAhead();
  try {
    const { profile, thread, repeats } = await importSource(msg.source);
    // What walks every sample for the window is worked out here, once (a thread cut out of a
    // profile of every thread works its own out when drawn).
    const density = fineDensity(profile);
    if (density) profile.density = density;
    // The store copies the profile when the write starts, so its buffers can be handed over at
    // once; the write itself finishes while the window already draws the run. The big arrays
    // are left for the window to write once it has drawn the run: the run is not drawn later for
    // the disk.
    // A store that cannot be written (no IndexedDB, no room) costs the recovery, never the import.
    let written: Promise<void> | undefined;
    let later: StoredColumn[] | undefined;
    if (msg.storeKey) {
      try {
        ({ written, later } = await beginProfileWrite(msg.storeKey, profile, { columnsLater: true }));
      } catch (e) {
        written = Promise.reject(e instanceof Error ? e : new Error(String(e)));
        written.catch(() => undefined);
      }
    }
    const done: FromWorker = { type: 'done', profile };
    if (thread !== undefined) done.thread = thread;
    if (repeats) done.repeats = repeats;
    post(done, [profile, ...(repeats?.profiles ?? [])].flatMap(profileBuffers));
    if (written)
      await written.then(
        () => post(later ? { type: 'stored', ok: true, later } : { type: 'stored', ok: true }),
        (e: unknown) => post({ type: 'stored', ok: false, error: e instanceof Error ? e.message : String(e) }),
      );
  } catch (e) {
    post({ type: 'error', error: toImportErrorData(e, name) });
  }
};
