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

export function byteSource(f: WorkerFile, chunks: ChunkReader): ByteSource {
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
          const bytes = await chunks.read(f.token, offset, READ_CHUNK);
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
