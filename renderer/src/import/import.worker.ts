/// <reference lib="webworker" />
/**
 * Parses one file (or 0x folder) off the UI thread. One worker per import: a file that crashes
 * its parser, or is cancelled, takes nothing else down.
 */
import { toImportErrorData } from '../../../shared/import/errors';
import { importProfile } from '../../../shared/import/import-profile';
import type { ByteSource, ImportSource } from '../../../shared/import/source';
import { weighByDefault } from '../../../shared/model/weigh';
import { fineDensity } from '../../../shared/heatmap/heatmap';
import type { FromWorker, ToWorker, WorkerFile, WorkerSource } from './protocol';
import { profileBuffers } from './protocol';
import { beginProfileWrite } from '../workspace/profile-store';

declare const self: DedicatedWorkerGlobalScope;

const READ_CHUNK = 4 * 1024 * 1024;
let nextReq = 1;
const pending = new Map<number, { resolve: (b: Uint8Array) => void; reject: (e: Error) => void }>();

function post(msg: FromWorker, transfer: Transferable[] = []): void {
  self.postMessage(msg, transfer);
}

function readChunk(token: string, offset: number, length: number): Promise<Uint8Array> {
  const reqId = nextReq++;
  return new Promise((resolve, reject) => {
    pending.set(reqId, { resolve, reject });
    post({ type: 'read', reqId, token, offset, length });
  });
}

/** The file as the host streams it from `url`: one request, read as it arrives. */
function fetchedStream(url: string): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!reader) {
        const res = await fetch(url, { cache: 'no-store' });
        if (!res.ok || !res.body) throw new Error(`reading the file failed (HTTP ${res.status})`);
        reader = res.body.getReader();
      }
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader?.cancel(reason);
    },
  });
}

function byteSource(f: WorkerFile): ByteSource {
  if (f.kind === 'file') return { name: f.name, size: f.file.size, stream: () => f.file.stream() as ReadableStream<Uint8Array> };
  if (f.url) {
    const url = f.url;
    return { name: f.name, size: f.size, stream: () => fetchedStream(url) };
  }
  return {
    name: f.name,
    size: f.size,
    stream() {
      let offset = 0;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          const bytes = await readChunk(f.token, offset, READ_CHUNK);
          if (bytes.length === 0) controller.close();
          else {
            offset += bytes.length;
            controller.enqueue(bytes);
          }
        },
      });
    },
  };
}

function toImportSource(s: WorkerSource): ImportSource {
  if (s.kind === 'folder') return { name: s.name, files: s.files.map(byteSource) };
  return byteSource(s);
}

self.onmessage = async (ev: MessageEvent<ToWorker>) => {
  const msg = ev.data;
  if (msg.type === 'chunk') {
    const p = pending.get(msg.reqId);
    pending.delete(msg.reqId);
    if (!p) return;
    if (msg.bytes) p.resolve(msg.bytes);
    else p.reject(new Error(msg.error ?? 'read failed'));
    return;
  }
  const name = msg.source.name;
  try {
    // V8 samples are not evenly spaced: the app weighs them by time (model/weigh.ts).
    const profile = weighByDefault(
      await importProfile(toImportSource(msg.source), {
        options: msg.options,
        onProgress: (read, size) => post({ type: 'progress', read, size }),
      }),
    );
    // What walks every sample for the window is worked out here, once.
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
    post({ type: 'done', profile }, profileBuffers(profile));
    if (written)
      await written.then(
        () => post({ type: 'stored', ok: true }),
        (e: unknown) => post({ type: 'stored', ok: false, error: e instanceof Error ? e.message : String(e) }),
      );
  } catch (e) {
    post({ type: 'error', error: toImportErrorData(e, name) });
  }
};
