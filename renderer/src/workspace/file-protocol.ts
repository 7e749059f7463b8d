/** Messages between the window and a workspace-file worker (./file.worker.ts). */
import type { Profile } from '../../../shared/model/types';
import type { Workspace, WorkspaceHead } from '../../../shared/workspace/workspace';
import type { WorkerFile } from '../import/protocol';
import type { ReadAnswer, ReadRequest } from '../import/worker-bytes';

export type ToFileWorker =
  /**
   * Writes the workspace file: run i's profile is read from the store under `keys[i]`, or, where
   * that key is undefined or holds nothing, asked of the window (`need`).
   */
  | { type: 'save'; head: WorkspaceHead; keys: (string | undefined)[] }
  /** Reads a workspace file; run i's profile is stored under `keyPrefix + i` for crash recovery. */
  | { type: 'open'; file: WorkerFile; keyPrefix: string }
  | { type: 'profile'; index: number; profile: Profile }
  | ReadAnswer;

export type FromFileWorker =
  | { type: 'need'; index: number }
  /** the file's bytes, in a Blob the browser keeps (on disk when large) */
  | { type: 'saved'; blob: Blob }
  /** the workspace read; `stored[i]`: whether run i's profile is in the store under `keyPrefix + i` */
  | { type: 'opened'; workspace: Workspace }
  | { type: 'stored'; ok: boolean[] }
  | { type: 'failed'; message: string }
  | ReadRequest;
