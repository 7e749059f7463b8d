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

/** Bytes read at a time into memory the importer gives back (`PiecePool.recycle`), at most. */
const PIECE = 1 << 20;

/**
 * Memory a byte stream is read into and given back to be read into again: a fetched body or a
 * file's stream otherwise hands over fresh memory for every piece, which is garbage once parsed,
 * and a long capture's 100 MB of it piled up to ~50 MB before the collector gave it back.
 */
export class PiecePool {
  private readonly free: ArrayBuffer[] = [];
  /** memory handed out and not given back (weakly: an importer that keeps a piece keeps it) */
  private readonly out = new WeakSet<ArrayBufferLike>();

  /** The next piece of `reader`'s stream, read into memory of this pool where the stream can (a byte stream). */
  async read(reader: ReadableStreamBYOBReader): Promise<ReadableStreamReadResult<Uint8Array>> {
    const r = await reader.read(new Uint8Array(this.free.pop() ?? new ArrayBuffer(PIECE)));
    if (r.value) this.out.add(r.value.buffer);
    return r as ReadableStreamReadResult<Uint8Array>;
  }

  /** A piece the importer is done with (one of this pool's, else nothing happens). */
  recycle(chunk: Uint8Array): void {
    if (this.out.delete(chunk.buffer) && chunk.buffer.byteLength === PIECE) this.free.push(chunk.buffer as ArrayBuffer);
  }
}

interface PieceReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(reason: unknown): Promise<void>;
}

/** Reads `stream` into `pieces` where it is a byte stream, else as it gives its chunks. */
function pieceReader(stream: ReadableStream<Uint8Array>, pieces: PiecePool): PieceReader {
  let byob: ReadableStreamBYOBReader;
  try {
    byob = stream.getReader({ mode: 'byob' });
  } catch {
    return stream.getReader();
  }
  return { read: () => pieces.read(byob), cancel: (reason) => byob.cancel(reason) };
}

/** `stream` read into `pieces` (see `PiecePool`). */
export function piecesOf(stream: ReadableStream<Uint8Array>, pieces: PiecePool): ReadableStream<Uint8Array> {
  let reader: PieceReader | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await (reader ??= pieceReader(stream, pieces)).read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader ? reader.cancel(reason) : stream.cancel(reason);
    },
  });
}

/**
 * The file as the host streams it from `url`: one request, read as it arrives. Where that request
 * fails before any byte came (a host that cannot stream to a worker), the file is read from
 * `fallback` instead; a failure after bytes came is the read's error.
 */
export function fetchedStream(
  url: string,
  fallback?: () => ReadableStream<Uint8Array>,
  pieces = new PiecePool(),
): ReadableStream<Uint8Array> {
  let reader: PieceReader | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!reader) {
        let stream: ReadableStream<Uint8Array>;
        let res: Response | undefined;
        try {
          res = await fetch(url, { cache: 'no-store' });
        } catch (e) {
          if (!fallback) throw e;
        }
        if (res?.ok && res.body) stream = res.body;
        else if (fallback) stream = fallback();
        else throw new Error(`reading the file failed (HTTP ${res?.status})`);
        reader = pieceReader(stream, pieces);
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
  const pieces = new PiecePool();
  const recycle = (chunk: Uint8Array) => pieces.recycle(chunk);
  if (f.kind === 'file') {
    const file = f.file;
    return { name: f.name, size: file.size, stream: () => piecesOf(file.stream() as ReadableStream<Uint8Array>, pieces), recycle };
  }
  const { token } = f;
  if (f.url) {
    const url = f.url;
    return {
      name: f.name,
      size: f.size,
      stream: () => fetchedStream(url, () => chunkedStream(token, chunks), pieces),
      recycle,
    };
  }
  return { name: f.name, size: f.size, stream: () => chunkedStream(token, chunks) };
}
