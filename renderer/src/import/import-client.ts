/**
 * Starts an import worker per file and reports to the store. Host files (chosen in a native
 * dialog or named on the command line) are fetched by the worker itself where the host serves
 * them (the local server), else read through the UI thread, which alone can reach the host
 * bridge (Electron); dropped files go to the worker as `File` objects directly.
 */
import type { ImportErrorData } from '../../../shared/import/errors';
import type { ChosenItem, FileRef } from '../../../shared/ipc/contract';
import type { Profile } from '../../../shared/model/types';
import { host } from '../host/host';
import { finishProfileWrite } from '../workspace/profile-store';
import type { FromWorker, ImportedRepeats, ToWorker, WorkerFile, WorkerSource } from './protocol';
import type { ReadAnswer, ReadRequest } from './worker-bytes';

export interface ImportCallbacks {
  progress(read: number, size: number | undefined): void;
  /** `thread`: `profile` holds every thread and this one is shown first (see FromWorker) */
  done(profile: Profile, thread?: string, repeats?: ImportedRepeats): void;
  failed(error: ImportErrorData): void;
  /** with `storeKey`: the worker finished storing the profile for crash recovery (or could not) */
  stored?(ok: boolean): void;
}

export interface ImportJob {
  /** stops the import; no callback follows */
  cancel(): void;
}

/** An import that reports once listened to: what it reports before waits for `listen`. */
export interface PendingImport extends ImportJob {
  /** Reports to `cb` from now on, after what the worker reported before, in order. Once. */
  listen(cb: ImportCallbacks): void;
}

export function refToWorkerFile(f: FileRef): WorkerFile {
  const url = host.fileUrl?.(f.token);
  const parsed = host.parsedUrl?.(f.token);
  return {
    kind: 'token',
    token: f.token,
    name: f.name,
    size: f.size,
    path: f.path,
    ...(url ? { url } : {}),
    ...(parsed ? { parsed } : {}),
  };
}

export function chosenToSource(item: ChosenItem): WorkerSource {
  if (item.kind === 'file') return refToWorkerFile(item.file);
  return { kind: 'folder', name: item.folder.name, path: item.folder.path, files: item.folder.files.map(refToWorkerFile) };
}

/** Answers a worker's `read` (see ./worker-bytes) with the bytes from the host, transferred. */
export async function answerRead(worker: Worker, msg: ReadRequest): Promise<void> {
  let reply: ReadAnswer;
  try {
    const bytes = await host.readFileChunk(msg.token, msg.offset, msg.length);
    reply = { type: 'chunk', reqId: msg.reqId, bytes };
    worker.postMessage(reply, [bytes.buffer as ArrayBuffer]);
  } catch (e) {
    reply = { type: 'chunk', reqId: msg.reqId, error: (e as Error).message };
    worker.postMessage(reply);
  }
}

const newWorker = (name: string) => new Worker(new URL('./import.worker.ts', import.meta.url), { type: 'module', name });

/** Imports begun and not ended yet (done, failed or cancelled), and who waits for there to be none. */
let inFlight = 0;
const quietWaiters: (() => void)[] = [];

/** The most a run's recovery copy waits for the other imports to end (`whenQuiet`). */
const QUIET_WAIT_MS = 10_000;

/**
 * Calls `then` at once where no import is under way, else once none is (or `QUIET_WAIT_MS` has
 * passed). A run's big arrays are written for crash recovery then, not while the runs opened
 * with it still import: on two cores those writes (the window's slices, the browser's disk work)
 * slowed the imports still under way, and the file is on disk meanwhile.
 */
function whenQuiet(then: () => void): void {
  if (inFlight === 0) return then();
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    clearTimeout(timer);
    then();
  };
  const timer = setTimeout(once, QUIET_WAIT_MS);
  quietWaiters.push(once);
}

function importEnded(): void {
  if (--inFlight === 0) for (const w of quietWaiters.splice(0)) w();
}

/** A worker started before its file is known (`warmImportWorker`): the next import takes it. */
let warm: Worker | undefined;

/**
 * Starts an import worker before its file is known, so that its script loads and compiles while
 * the page still asks the host which files to open: the next `beginImport` takes it.
 */
export function warmImportWorker(): void {
  warm ??= newWorker('import');
}

/** Ends a worker started ahead (`warmImportWorker`) that no import took. */
export function dropWarmImportWorker(): void {
  warm?.terminate();
  warm = undefined;
}

/**
 * Imports a source in a worker of its own. With `storeKey` the worker also stores the profile
 * for crash recovery (see ../workspace/profile-store) and stays until that write ends; the big
 * arrays it leaves are then written from the window, and `stored` reports once they are. What the
 * worker reports before `listen` is kept, in order, so an import can start before the app is up
 * (./initial-imports); a worker that reads through the window (the Electron host) is answered
 * from the start.
 */
export function beginImport(source: WorkerSource, storeKey?: string): PendingImport {
  const worker = warm ?? newWorker(`import ${source.name}`);
  warm = undefined;
  let cb: ImportCallbacks | undefined;
  const waiting: ((c: ImportCallbacks) => void)[] = [];
  const report = (f: (c: ImportCallbacks) => void) => (cb ? f(cb) : waiting.push(f));
  /** the import ended (done, failed or cancelled); the worker may still be storing the profile */
  let finished = false;
  /** the worker is gone: nothing more comes from it */
  let stopped = false;
  /** the profile of `done`, until the window has written what the worker left of its store */
  let handedOver: Profile | undefined;
  inFlight++;
  const markFinished = () => {
    if (finished) return;
    finished = true;
    importEnded();
  };
  const finish = () => {
    markFinished();
    stopped = true;
    worker.terminate();
  };
  worker.onmessage = async (ev: MessageEvent<FromWorker>) => {
    if (stopped) return; // cancelled: a message already on its way is dropped
    const msg = ev.data;
    switch (msg.type) {
      case 'progress':
        report((c) => c.progress(msg.read, msg.size));
        break;
      case 'read':
        await answerRead(worker, msg);
        break;
      case 'done':
        if (storeKey === undefined) finish();
        else markFinished();
        handedOver = msg.profile;
        report((c) => c.done(msg.profile, msg.thread, msg.repeats));
        break;
      case 'stored':
        stopped = true;
        worker.terminate();
        // The big arrays the worker left are written from the profile it handed over, once the
        // imports under way have ended.
        if (msg.ok && msg.later && storeKey !== undefined && handedOver) {
          const [profile, later] = [handedOver, msg.later];
          whenQuiet(() => {
            void finishProfileWrite(storeKey, profile, later)
              .then(
                () => true,
                (e: unknown) => {
                  console.warn('Flamelens could not store a profile for recovery:', e);
                  return false;
                },
              )
              .then((ok) => report((c) => c.stored?.(ok)));
          });
        } else report((c) => c.stored?.(msg.ok));
        handedOver = undefined;
        break;
      case 'error':
        finish();
        report((c) => c.failed(msg.error));
        break;
    }
  };
  worker.onerror = (ev) => {
    if (stopped) return;
    if (finished) {
      // After `done`: the recovery write failed with the worker; the run itself is fine.
      stopped = true;
      worker.terminate();
      report((c) => c.stored?.(false));
      return;
    }
    finish();
    report((c) => c.failed({ file: source.name, message: `the import stopped unexpectedly (${ev.message || 'worker error'})` }));
  };
  const start: ToWorker =
    storeKey === undefined ? { type: 'import', source, options: {} } : { type: 'import', source, options: {}, storeKey };
  worker.postMessage(start);
  return {
    listen(c) {
      if (cb) throw new Error('an import reports to one listener');
      cb = c;
      for (const f of waiting.splice(0)) f(c);
    },
    cancel() {
      waiting.length = 0;
      if (finished) return;
      finish();
      cb?.stored?.(false);
    },
  };
}
