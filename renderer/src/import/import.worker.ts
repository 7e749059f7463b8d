/// <reference lib="webworker" />
/**
 * Parses one file (or 0x folder) off the UI thread. One worker per import: a file that crashes
 * its parser, or is cancelled, takes nothing else down.
 */
import { toImportErrorData } from '../../../shared/import/errors';
import { importProfile } from '../../../shared/import/import-profile';
import type { ByteSource, ImportSource } from '../../../shared/import/source';
import { ALL_THREADS, type ThreadPart, mergeThreads, threadKey } from '../../../shared/model/threads';
import type { Profile } from '../../../shared/model/types';
import { weighByDefault } from '../../../shared/model/weigh';
import { fineDensity } from '../../../shared/heatmap/heatmap';
import { cpuProfIds } from '../../../shared/runs/group-sources';
import type { FromWorker, ToWorker, WorkerFile, WorkerSource } from './protocol';
import { profileBuffers } from './protocol';
import { beginProfileWrite } from '../workspace/profile-store';
import { ChunkReader, byteSource as fileSource } from './worker-bytes';

declare const self: DedicatedWorkerGlobalScope;

function post(msg: FromWorker, transfer: Transferable[] = []): void {
  self.postMessage(msg, transfer);
}

const chunks = new ChunkReader((msg) => post(msg));
const byteSource = (f: WorkerFile): ByteSource => fileSource(f, chunks);

function toImportSource(s: WorkerFile | Extract<WorkerSource, { kind: 'folder' }>): ImportSource {
  if (s.kind === 'folder') return { name: s.name, files: s.files.map(byteSource) };
  return byteSource(s);
}

const onProgress = (read: number, size: number | undefined) => post({ type: 'progress', read, size });

/**
 * The source's profile, weighed as the app weighs it (V8 samples are not evenly spaced:
 * model/weigh.ts). A trace with samples of several threads is read for every thread, each under
 * its root frame, so that any of them can be shown without the file; `thread` is the one shown
 * first, the importer's default.
 */
async function importSource(source: WorkerSource): Promise<{ profile: Profile; thread?: string }> {
  if (source.kind === 'threads') return importThreadFiles(source.name, source.files);
  const first = await importProfile(toImportSource(source), { options: {}, onProgress });
  const shown = first.meta.threads?.[0];
  if (first.format !== 'trace-events' || (first.meta.threads?.length ?? 0) < 2 || !shown) return { profile: weighByDefault(first) };
  const all = await importProfile(toImportSource(source), { options: { thread: ALL_THREADS } });
  return { profile: weighByDefault(all), thread: threadKey(shown) };
}

/** One `.cpuprofile` per thread of a process (`node --cpu-prof`), the main thread's first. */
async function importThreadFiles(name: string, files: WorkerFile[]): Promise<{ profile: Profile; thread: string }> {
  const parts: ThreadPart[] = [];
  for (const f of files) {
    const profile = await importProfile(byteSource(f), { options: {} });
    const ids = cpuProfIds(f.name) ?? { pid: '', tid: String(parts.length) };
    const s = profile.samples;
    const seconds = s && s.length > 1 ? (s.time[s.length - 1]! - s.time[0]!) / 1e6 : 0;
    const info = { ...ids, name: ids.tid === '0' ? 'main' : 'worker', samples: s?.length ?? 0, seconds };
    parts.push({ profile, info });
  }
  return { profile: weighByDefault(mergeThreads(name, parts)), thread: threadKey(parts[0]!.info) };
}

self.onmessage = async (ev: MessageEvent<ToWorker>) => {
  const msg = ev.data;
  if (msg.type === 'chunk') return chunks.answered(msg);
  const name = msg.source.name;
  try {
    const { profile, thread } = await importSource(msg.source);
    // What walks every sample for the window is worked out here, once (a thread cut out of a
    // profile of every thread works its own out when drawn).
    const density = fineDensity(profile);
    if (density) profile.density = density;
    // The store copies the profile when the write starts, so its buffers can be handed over at
    // once; the write itself finishes while the window already draws the run.
    // A store that cannot be written (no IndexedDB, no room) costs the recovery, never the import.
    let written: Promise<void> | undefined;
    if (msg.storeKey) {
      try {
        written = (await beginProfileWrite(msg.storeKey, profile)).written;
      } catch (e) {
        written = Promise.reject(e instanceof Error ? e : new Error(String(e)));
        written.catch(() => undefined);
      }
    }
    post(thread === undefined ? { type: 'done', profile } : { type: 'done', profile, thread }, profileBuffers(profile));
    if (written)
      await written.then(
        () => post({ type: 'stored', ok: true }),
        (e: unknown) => post({ type: 'stored', ok: false, error: e instanceof Error ? e.message : String(e) }),
      );
  } catch (e) {
    post({ type: 'error', error: toImportErrorData(e, name) });
  }
};
