/** Messages between the import client (UI thread) and an import worker. */
import type { ImportErrorData } from '../../../shared/import/errors';
import type { ImportOptions } from '../../../shared/import/importer';
import type { Profile } from '../../../shared/model/types';
import type { StoredColumn } from '../workspace/profile-columns';
import type { ReadAnswer, ReadRequest } from './worker-bytes';

/**
 * A file as the worker receives it: a browser File, or a host file read through the UI thread.
 * `path`, where known (a host file's full path, a path within a drop), names the run.
 */
export type WorkerFile =
  | { kind: 'file'; file: File; name: string; path?: string }
  /**
   * `url`: where the worker fetches the whole file itself (see `Host.fileUrl`); `parsed`: where
   * it fetches the file parsed by the host (see `Host.parsedUrl`)
   */
  | { kind: 'token'; token: string; name: string; size: number; path?: string; url?: string; parsed?: string };
export type WorkerSource =
  | WorkerFile
  | { kind: 'folder'; name: string; path?: string; files: WorkerFile[] }
  /** one profile per thread of a process (`node --cpu-prof`), the main thread's first; named by it */
  | { kind: 'threads'; name: string; path?: string; files: WorkerFile[] }
  /** repeated runs of one variant (a folder of profiles of one kind): one run, their mean drawn */
  | { kind: 'repeats'; name: string; path?: string; files: WorkerFile[] };

/** A repeat that could not be read, and why. */
export interface FailedRepeat {
  name: string;
  error: string;
}

export type ToWorker =
  /** `storeKey`: store the profile under this key for crash recovery before handing it over */
  { type: 'import'; source: WorkerSource; options: ImportOptions; storeKey?: string } | ReadAnswer;

export type FromWorker =
  | { type: 'progress'; read: number; size: number | undefined }
  | ReadRequest
  /**
   * `thread`, when the file has samples of several threads: `profile` holds every thread, each
   * under a root frame (shared/model/threads), and `thread` is the one shown first (`PID:TID`)
   */
  | { type: 'done'; profile: Profile; thread?: string; repeats?: ImportedRepeats }
  /**
   * after `done`, when a `storeKey` was given: whether the profile is stored; `later`: its big
   * arrays, which the window writes from the profile it was handed (../workspace/profile-store)
   */
  | { type: 'stored'; ok: boolean; error?: string; later?: StoredColumn[] }
  | { type: 'error'; error: ImportErrorData };

/**
 * With a `repeats` source: every repeat read, weighed, in name order; `profile` is their mean
 * (shared/model/mean). `failed`: the repeats that could not be read; the others still make the mean.
 */
export interface ImportedRepeats {
  profiles: Profile[];
  names: string[];
  failed: FailedRepeat[];
}

/** The typed-array buffers of a profile, to transfer instead of copy. */
export function profileBuffers(p: Profile): ArrayBuffer[] {
  const arrays: ArrayBufferView[] = [
    p.frames.line,
    p.frames.column,
    p.frames.category,
    p.frames.tier,
    p.tree.parent,
    p.tree.frame,
    p.tree.depth,
    p.tree.end,
    p.tree.self,
    p.tree.total,
  ];
  const s = p.samples;
  if (s) for (const a of [s.node, s.time, s.timeBase, s.timeOffset, s.timeWide, s.weight, s.thread]) if (a) arrays.push(a);
  if (p.heap) arrays.push(p.heap.nodes, p.heap.edges, p.heap.locations, p.heap.dominator, p.heap.retained);
  const seen = new Set<ArrayBuffer>();
  for (const a of arrays) if (a.buffer instanceof ArrayBuffer) seen.add(a.buffer);
  return [...seen];
}
