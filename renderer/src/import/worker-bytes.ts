/**
 * A worker's view of a file: a dropped `File` read directly, a host file fetched from the address
 * the host serves it at, or read a chunk at a time through the window (which alone reaches the
 * host bridge): the worker posts `read` and the window answers with `chunk` (import-client's
 * `answerRead`). Loaded in workers only: nothing here may touch `window`.
 */
import type { ByteSource } from '../../../shared/import/io/source';
import type { WorkerFile } from './protocol';

const READ_CHUNK = 4 * 1024 * 1024;

export type ReadRequest = { type: 'read'; reqId: number; token: string; offset: number; length: number };
export type ReadAnswer = { type: 'chunk'; reqId: number; bytes?: Uint8Array; error?: string };

/** Reads host files through the window: `read` asks, `answered` takes the window's answer. */
export class ChunkReader {
  private nextReq = 1;
  private readonly pending = new Map<number, { resolve: (b: Uint8Array) => void; reject: (e: Error) => void }>();
  constructor(private readonly post: (msg: ReadRequest) => void) {}

  read(token: string, offset: number, length: number): Promise<Uint8Array> {
    const reqId = this.nextReq++;
    return new Promise((resolve, reject) => {
      this.pending.set(reqId, { resolve, reject });
      this.post({ type: 'read', reqId, token, offset, length });
    });
  }

  answered(msg: ReadAnswer): void {
    const p = this.pending.get(msg.reqId);
    this.pending.delete(msg.reqId);
    if (!p) return;
    if (msg.bytes) p.resolve(msg.bytes);
    else p.reject(new Error(msg.error ?? 'read failed'));
  }
}

/**
 * The file as the host streams it from `url`: one request, read as it arrives. Where that request
 * fails before any byte came (a host that cannot stream to a worker), the file is read from
 * `fallback` instead; a failure after bytes came is the read's error.
 */
export function fetchedStream(url: string, fallback?: () => ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!reader) {
        let res: Response | undefined;
        try {
          res = await fetch(url, { cache: 'no-store' });
        } catch (e) {
          if (!fallback) throw e;
        }
        if (res?.ok && res.body) reader = res.body.getReader();
        else if (fallback) reader = fallback().getReader();
        else throw new Error(`reading the file failed (HTTP ${res?.status})`);
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

/** A host file read a chunk at a time through the window. */
function chunkedStream(token: string, chunks: ChunkReader): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const bytes = await chunks.read(token, offset, READ_CHUNK);
      if (bytes.length === 0) controller.close();
      else {
        offset += bytes.length;
        controller.enqueue(bytes);
      }
    },
  });
}

export function byteSource(f: WorkerFile, chunks: ChunkReader): ByteSource {
  if (f.kind === 'file') return { name: f.name, size: f.file.size, stream: () => f.file.stream() as ReadableStream<Uint8Array> };
  const { token } = f;
  if (f.url) {
    const url = f.url;
    return { name: f.name, size: f.size, stream: () => fetchedStream(url, () => chunkedStream(token, chunks)) };
  }
  return { name: f.name, size: f.size, stream: () => chunkedStream(token, chunks) };
}
