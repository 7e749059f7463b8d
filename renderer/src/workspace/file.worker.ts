/// <reference lib="webworker" />
/**
 * Saves and opens `.flamelens` workspaces off the window's thread. Saving reads each run's
 * profile from the browser's store (where its import worker put it) as the file reaches it and
 * streams the encoded file into a Blob; opening streams the file in, and stores each run's
 * profile for crash recovery before handing the workspace to the window with its buffers
 * transferred. Neither encodes, decodes nor copies a profile on the window's thread.
 */
import type { Profile } from '../../../shared/model/types';
import { readWorkspaceStream, workspaceStream } from '../../../shared/workspace/workspace-file';
import { profilesInOrder } from '../../../shared/workspace/workspace-repeats';
import { profileBuffers } from '../import/protocol';
import { ChunkReader, byteSource } from '../import/worker-bytes';
import type { FromFileWorker, ToFileWorker } from './file-protocol';
import { beginProfileWrite, readProfile } from './profile-store';

declare const self: DedicatedWorkerGlobalScope;

function post(msg: FromFileWorker, transfer: Transferable[] = []): void {
  self.postMessage(msg, transfer);
}

const chunks = new ChunkReader((msg) => post(msg));
const asked = new Map<number, (p: Profile) => void>();

/** Run i's profile from the store, or from the window where the store does not hold it. */
async function profileOf(keys: (string | undefined)[], i: number): Promise<Profile> {
  const key = keys[i];
  const fromStore = key === undefined ? undefined : await readProfile(key).catch(() => undefined);
  if (fromStore) return fromStore;
  return new Promise((resolve) => {
    asked.set(i, resolve);
    post({ type: 'need', index: i });
  });
}

async function save(msg: Extract<ToFileWorker, { type: 'save' }>): Promise<void> {
  const stream = workspaceStream(msg.head, (i) => profileOf(msg.keys, i));
  post({ type: 'saved', blob: await new Response(stream).blob() });
}

async function open(msg: Extract<ToFileWorker, { type: 'open' }>): Promise<void> {
  const source = byteSource(msg.file, chunks);
  const workspace = await readWorkspaceStream(source.stream(), msg.file.name);
  // The store copies each profile when its write starts, so the buffers can be handed over at once.
  const writes = await Promise.all(
    workspace.runs.map(async (r, i) => {
      try {
        return (await beginProfileWrite(`${msg.keyPrefix}${i}`, r.profile)).written.then(
          () => true,
          () => false,
        );
      } catch {
        return Promise.resolve(false);
      }
    }),
  );
  post({ type: 'opened', workspace }, [...new Set(profilesInOrder(workspace.runs).flatMap(profileBuffers))]);
  post({ type: 'stored', ok: await Promise.all(writes) });
}

self.onmessage = async (ev: MessageEvent<ToFileWorker>) => {
  const msg = ev.data;
  if (msg.type === 'chunk') return chunks.answered(msg);
  if (msg.type === 'profile') {
    asked.get(msg.index)?.(msg.profile);
    asked.delete(msg.index);
    return;
  }
  try {
    if (msg.type === 'save') await save(msg);
    else await open(msg);
  } catch (e) {
    post({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
  }
};
