/** The window's side of the workspace-file worker (./file.worker.ts): one worker per save or open. */
import type { Profile } from '../../../shared/model/types';
import type { Workspace, WorkspaceHead } from '../../../shared/workspace/workspace';
import { answerRead } from '../import/import-client';
import type { WorkerFile } from '../import/protocol';
import type { FromFileWorker, ToFileWorker } from './file-protocol';

type Handler = (msg: FromFileWorker, worker: Worker) => void;

/** Starts a worker with `start`; `handle` sees each message but `read` (answered from the host) and `failed`. */
function run(name: string, start: ToFileWorker, handle: Handler, failed: (e: Error) => void): Worker {
  const worker = new Worker(new URL('./file.worker.ts', import.meta.url), { type: 'module', name });
  worker.onmessage = (ev: MessageEvent<FromFileWorker>) => {
    const msg = ev.data;
    if (msg.type === 'read') void answerRead(worker, msg);
    else if (msg.type === 'failed') {
      worker.terminate();
      failed(new Error(msg.message));
    } else handle(msg, worker);
  };
  worker.onerror = (ev) => {
    worker.terminate();
    failed(new Error(`${name} stopped unexpectedly (${ev.message || 'worker error'})`));
  };
  worker.postMessage(start);
  return worker;
}

/**
 * The workspace file as a Blob, encoded in a worker that reads each run's profile from the store
 * under `keys[i]`; a run whose profile the store lacks is sent from `profiles[i]` (copied).
 */
export function saveInWorker(head: WorkspaceHead, keys: (string | undefined)[], profiles: Profile[]): Promise<Blob> {
  return new Promise((resolve, reject) => {
    run(
      'save workspace',
      { type: 'save', head, keys },
      (msg, worker) => {
        if (msg.type === 'need')
          worker.postMessage({ type: 'profile', index: msg.index, profile: profiles[msg.index]! } satisfies ToFileWorker);
        else if (msg.type === 'saved') {
          worker.terminate();
          resolve(msg.blob);
        }
      },
      reject,
    );
  });
}

/**
 * Reads a workspace file in a worker. `stored` settles once the worker has stored each run's
 * profile under `keyPrefix + i` (true where it could).
 */
export function openInWorker(file: WorkerFile, keyPrefix: string): Promise<{ workspace: Workspace; stored: Promise<boolean[]> }> {
  return new Promise((resolve, reject) => {
    let storedDone: (ok: boolean[]) => void = () => undefined;
    const stored = new Promise<boolean[]>((r) => (storedDone = r));
    let opened = false;
    run(
      `open ${file.name}`,
      { type: 'open', file, keyPrefix },
      (msg, worker) => {
        if (msg.type === 'opened') {
          // When the file was read, for the developer tools' timeline (and the e2e test that reads it).
          performance.mark('flamelens:workspace-read');
          opened = true;
          resolve({ workspace: msg.workspace, stored });
        } else if (msg.type === 'stored') {
          worker.terminate();
          storedDone(msg.ok);
        }
      },
      (e) => {
        if (opened) storedDone([]);
        else reject(e);
      },
    );
  });
}
