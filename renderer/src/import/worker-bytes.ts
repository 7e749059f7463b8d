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
 * Bytes asked of a fetched body at once. Chromium hands a response to the page through a data
 * pipe of 2 MiB; a read takes what the pipe holds, up to this.
 */
export const FETCH_CHUNK = 2 << 20;

/** How many buffers given back (`recycle`) are kept to read into again. */
const KEEP_FREE = 8;

/**
 * The memory a fetched body is read into (a "bring your own buffer" read): buffers are handed out
 * with the chunks read into them and read into again once given back (`recycle`). Reading the
 * body the default way, the browser copies each chunk into fresh memory, which the system hands
 * out a page fault at a time and the collector then frees: half the worker's time for the bytes
 * of a fast import. A chunk not given back is never read into again (it is weakly held, and kept
 * or freed as its holder decides); one given back is read into only after it is detached, so
 * that a view still held sees no bytes rather than other ones.
 */
export class ChunkPool {
  private readonly lent = new WeakSet<ArrayBufferLike>();
  private readonly free: ArrayBuffer[] = [];
  constructor(readonly size = FETCH_CHUNK) {}

  /** Memory to read the next chunk into. */
  take(): Uint8Array<ArrayBuffer> {
    return new Uint8Array(this.free.pop() ?? new ArrayBuffer(this.size));
  }

  /** A chunk that was read into memory from `take`: it is lent out until given back. */
  lend(chunk: Uint8Array): Uint8Array {
    this.lent.add(chunk.buffer);
    return chunk;
  }

  /** Memory from `take` that no chunk was read into. */
  putBack(memory: Uint8Array): void {
    if (memory.buffer.byteLength === this.size && this.free.length < KEEP_FREE) this.free.push(memory.buffer as ArrayBuffer);
  }

  /** A chunk its reader is done with; any other is ignored. */
  recycle(chunk: Uint8Array): void {
    if (this.lent.delete(chunk.buffer)) this.putBack(new Uint8Array(chunk.buffer));
  }
}

/** Where a stream's chunks come from, one at a time (`undefined`: the end). */
interface Chunks {
  next(): Promise<Uint8Array | undefined>;
  cancel(reason: unknown): Promise<void>;
}

/** A stream's chunks as its default reader gives them. */
function chunksOf(stream: ReadableStream<Uint8Array>): Chunks {
  const reader = stream.getReader();
  return {
    async next() {
      const { done, value } = await reader.read();
      return done ? undefined : value;
    },
    cancel: (reason) => reader.cancel(reason),
  };
}

/** A fetched body read into the pool's memory where it is a byte stream, else the default way. */
function bodyChunks(body: ReadableStream<Uint8Array>, pool: ChunkPool | undefined): Chunks {
  let reader: ReadableStreamBYOBReader;
  try {
    if (!pool) return chunksOf(body);
    reader = body.getReader({ mode: 'byob' });
  } catch {
    return chunksOf(body);
  }
  return {
    async next() {
      for (;;) {
        const { done, value } = await reader.read(pool.take());
        if (done) {
          if (value) pool.putBack(value);
          return undefined;
        }
        if (value.length > 0) return pool.lend(value);
        pool.putBack(value);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  };
}

/** A stream of the chunks `open` gives, opened when first read; `early` cancels before that. */
function chunkStream(open: () => Chunks | Promise<Chunks>, early?: (reason: unknown) => Promise<void>): ReadableStream<Uint8Array> {
  let chunks: Chunks | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      chunks ??= await open();
      const chunk = await chunks.next();
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
    cancel(reason) {
      return chunks ? chunks.cancel(reason) : early?.(reason);
    },
  });
}

/**
 * The file as the host streams it from `url`: one request, read as it arrives, into `pool`'s
 * memory where given. Where that request fails before any byte came (a host that cannot stream to
 * a worker), the file is read from `fallback` instead; a failure after bytes came is the read's
 * error.
 */
export function fetchedStream(url: string, fallback?: () => ReadableStream<Uint8Array>, pool?: ChunkPool): ReadableStream<Uint8Array> {
  return chunkStream(async () => {
    let res: Response | undefined;
    try {
      res = await fetch(url, { cache: 'no-store' });
    } catch (e) {
      if (!fallback) throw e;
    }
    const body = res?.ok ? res.body : null;
    if (body) return bodyChunks(body, pool);
    if (fallback) return chunksOf(fallback());
    throw new Error(`reading the file failed (HTTP ${res?.status})`);
  });
}

/** `stream` read into `pool`'s memory where it is a byte stream (a chosen file's), else as it gives its chunks. */
export function pooledStream(stream: ReadableStream<Uint8Array>, pool: ChunkPool): ReadableStream<Uint8Array> {
  return chunkStream(
    () => bodyChunks(stream, pool),
    (reason) => stream.cancel(reason),
  );
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
  const pool = new ChunkPool();
  const recycle = (chunk: Uint8Array) => pool.recycle(chunk);
  if (f.kind === 'file')
    return { name: f.name, size: f.file.size, stream: () => pooledStream(f.file.stream() as ReadableStream<Uint8Array>, pool), recycle };
  const { token } = f;
  if (f.url) {
    const url = f.url;
    return { name: f.name, size: f.size, stream: () => fetchedStream(url, () => chunkedStream(token, chunks), pool), recycle };
  }
  return { name: f.name, size: f.size, stream: () => chunkedStream(token, chunks) };
}
