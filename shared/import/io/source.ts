/**
 * Where an importer's bytes come from. A source is a stream (a browser `File`, a Node file
 * stream, a fetched body): gzip is undone with `DecompressionStream`, within a budget of how far
 * it may inflate (`inflate-budget.ts`), UTF-16 is re-encoded as
 * UTF-8, a UTF-8 byte-order mark is dropped, and the first 64 KiB are kept as text for sniffing.
 * Nothing here ever holds the whole file.
 */
import { ImportError } from '../errors';
import { inflateWithin } from './inflate-budget';

export interface ByteSource {
  /** file name (no directories needed); only a hint for format detection */
  name: string;
  /** size in bytes when known, for progress */
  size?: number;
  stream(): ReadableStream<Uint8Array>;
  /**
   * Tells the source that a chunk its stream gave is no longer used by anyone, so that it may
   * read into that memory again (a source that does saves the system handing it fresh memory for
   * every chunk). Chunks that are not its own are ignored.
   */
  recycle?(chunk: Uint8Array): void;
  /**
   * A synchronous reader of the bytes `stream()` gives, where the source can have one (a file on
   * disk, in Node): the line scanner then reads text straight into its own memory, saving each
   * piece its way through the stream, a copy, and the wait for an I/O thread.
   */
  syncReader?(): SyncReader;
}

/** A source's bytes read synchronously, at any position. */
export interface SyncReader {
  /** Reads up to `into.length` bytes from `position` into `into`; returns how many (0: the end). */
  read(into: Uint8Array, position: number): number;
  close(): void;
}

/** A folder dropped or opened as a whole (a `<pid>.0x` directory). */
export interface FolderSource {
  name: string;
  files: ByteSource[];
}

export type ImportSource = ByteSource | FolderSource;

export function isFolder(s: ImportSource): s is FolderSource {
  return (s as FolderSource).files !== undefined;
}

export const HEAD_BYTES = 64 * 1024;

export interface OpenedSource {
  name: string;
  /** decoded text of the first ≤64 KiB of (decompressed) content, BOM removed */
  head: string;
  /** true when the raw file was gzip-compressed */
  gzipped: boolean;
  /** the content's original encoding; bytes from `chunks()` are always UTF-8 */
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be';
  /** every byte of the (decompressed, UTF-8) content from the start; can be iterated once */
  chunks(): AsyncIterable<Uint8Array>;
  /** a chunk from `chunks()` that the importer is done with, and keeps no view of (see `ByteSource.recycle`) */
  recycle(chunk: Uint8Array): void;
  /**
   * Where the content is the file's bytes as they are (neither gzipped nor UTF-16), the source
   * reads synchronously (`ByteSource.syncReader`) and neither progress nor cancellation was asked
   * for: the content from the start, as `chunks()` gives it, written straight into `into`;
   * returns how many bytes (0: the end). An importer reads either this way or with `chunks()`,
   * not both.
   */
  readInto?(into: Uint8Array): number;
  /**
   * Lets go of the source, however far it was read: a stream not read to its end is cancelled
   * (a file source closes its file), a synchronous reader closed. `importProfile` calls it when
   * the import ends; safe to call more than once.
   */
  close(): void;
}

export interface OpenOptions {
  /** called with raw (compressed) bytes read so far and the size when known */
  onProgress?: (bytesRead: number, size: number | undefined) => void;
  signal?: AbortSignal;
}

/** A stream that yields `first` chunks, then whatever `reader` still has. */
function prepend(first: Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (i < first.length) {
        controller.enqueue(first[i++]!);
        return;
      }
      const { value, done } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** Iterates a stream's chunks. */
export async function* iterate<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const r = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await r.read();
      if (done) return;
      yield value;
    }
  } finally {
    r.releaseLock();
  }
}

/** Reads chunks until at least `min` bytes (or the end); returns them and whether the end was reached. */
async function readAtLeast(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  min: number,
): Promise<{ chunks: Uint8Array[]; bytes: number; done: boolean }> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  while (bytes < min) {
    const { value, done } = await reader.read();
    if (done) return { chunks, bytes, done: true };
    if (value.length === 0) continue;
    chunks.push(value);
    bytes += value.length;
  }
  return { chunks, bytes, done: false };
}

function concat(chunks: Uint8Array[], limit: number): Uint8Array {
  let n = 0;
  for (const c of chunks) n += c.length;
  const out = new Uint8Array(Math.min(n, limit));
  let o = 0;
  for (const c of chunks) {
    if (o >= out.length) break;
    const part = c.subarray(0, out.length - o);
    out.set(part, o);
    o += part.length;
  }
  return out;
}

function counting(stream: ReadableStream<Uint8Array>, size: number | undefined, opts: OpenOptions): ReadableStream<Uint8Array> {
  if (!opts.onProgress && !opts.signal) return stream;
  let read = 0;
  let lastReport = 0;
  const signal = opts.signal;
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (signal?.aborted) throw signal.reason ?? new DOMException('Import cancelled', 'AbortError');
        read += chunk.length;
        if (opts.onProgress && (read - lastReport > 1 << 20 || read === size)) {
          lastReport = read;
          opts.onProgress(read, size);
        }
        controller.enqueue(chunk);
      },
      flush() {
        opts.onProgress?.(read, size);
      },
    }),
  );
}

/** The text's encoding from its first four bytes: a byte-order mark, or UTF-16's zero bytes. */
function encodingOf(b: Uint8Array): OpenedSource['encoding'] {
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  if (b.length >= 4 && b[0] !== 0 && b[1] === 0 && b[2] !== 0 && b[3] === 0) return 'utf-16le';
  if (b.length >= 4 && b[0] === 0 && b[1] !== 0 && b[2] === 0 && b[3] !== 0) return 'utf-16be';
  return 'utf-8';
}

/** Drops a UTF-8 byte-order mark from the first chunks, in place. */
function dropByteOrderMark(chunks: Uint8Array[]): void {
  const bom = concat(chunks, 3);
  if (bom.length !== 3 || bom[0] !== 0xef || bom[1] !== 0xbb || bom[2] !== 0xbf) return;
  let skip = 3;
  while (skip > 0 && chunks.length > 0) {
    const c = chunks[0]!;
    if (c.length <= skip) {
      skip -= c.length;
      chunks.shift();
    } else {
      chunks[0] = c.subarray(skip);
      skip = 0;
    }
  }
}

/**
 * `OpenedSource.readInto` over a source that reads synchronously (`open`): the chunks the stream
 * already gave (`buffered`, the first `consumed` bytes of the file), then the file from there;
 * `ended` when the stream gave all of it. At the first read, `first()` is called and the stream
 * let go.
 */
function syncReading(
  open: () => SyncReader,
  buffered: Uint8Array[],
  consumed: number,
  ended: boolean,
  stream: ReadableStreamDefaultReader<Uint8Array>,
  first: () => void,
): { readInto(into: Uint8Array): number; close(): void } {
  const pending = buffered.slice();
  let position = consumed;
  let reader: SyncReader | undefined;
  let started = false;
  let done = ended;
  const close = () => {
    done = true;
    reader?.close();
    reader = undefined;
  };
  return {
    readInto(into) {
      if (!started) {
        first();
        started = true;
        stream.cancel().catch(() => undefined);
      }
      if (into.length === 0) return 0;
      while (pending.length > 0) {
        const c = pending[0]!;
        const n = Math.min(c.length, into.length);
        into.set(c.subarray(0, n));
        if (n === c.length) pending.shift();
        else pending[0] = c.subarray(n);
        if (n > 0) return n;
      }
      if (done) return 0;
      reader ??= open();
      const n = reader.read(into, position);
      position += n;
      if (n === 0) close();
      return n;
    },
    close,
  };
}

export async function openSource(src: ByteSource, opts: OpenOptions = {}): Promise<OpenedSource> {
  let reader = counting(src.stream(), src.size, opts).getReader();
  // Four bytes: enough to tell gzip, UTF-16 without a byte-order mark, and a UTF-8 one.
  let first = await readAtLeast(reader, 4);
  const raw0 = concat(first.chunks, 4);
  const gzipped = raw0.length >= 2 && raw0[0] === 0x1f && raw0[1] === 0x8b;
  if (gzipped) {
    // (the content may inflate only so far from the compressed bytes read: inflate-budget.ts)
    const unzipped = inflateWithin(prepend(first.chunks, reader), src.name);
    reader = unzipped.getReader();
    first = await readAtLeast(reader, 4);
  }
  const encoding = encodingOf(concat(first.chunks, 4));

  if (encoding !== 'utf-8') {
    // Re-encode so that every parser only ever sees UTF-8 bytes.
    const utf8 = prepend(first.chunks, reader)
      .pipeThrough(new TextDecoderStream(encoding) as unknown as ReadableWritablePair<string, Uint8Array>)
      .pipeThrough(new TextEncoderStream() as unknown as ReadableWritablePair<Uint8Array, string>);
    reader = utf8.getReader();
    first = await readAtLeast(reader, 3);
  }
  dropByteOrderMark(first.chunks);
  // (what the head needs, and no more: a reader that goes on synchronously reads the rest)
  const have = first.chunks.reduce((n, c) => n + c.length, 0);
  const more = first.done || have >= HEAD_BYTES ? { chunks: [], bytes: 0, done: first.done } : await readAtLeast(reader, HEAD_BYTES - have);
  const buffered = [...first.chunks, ...more.chunks];
  const headBytes = concat(buffered, HEAD_BYTES);
  const head = new TextDecoder('utf-8', { fatal: false }).decode(headBytes);
  let used = false;
  const once = () => {
    if (used) throw new ImportError({ file: src.name, message: 'internal: the file was read twice' });
    used = true;
  };
  const opened: OpenedSource = {
    name: src.name,
    head,
    gzipped,
    encoding,
    chunks() {
      once();
      return iterate(prepend(buffered, reader));
    },
    recycle(chunk) {
      src.recycle?.(chunk);
    },
    close() {
      reader.cancel().catch(() => undefined);
    },
  };
  // (a reader that wants progress or cancellation reads through the stream, which tells both)
  const syncReader = src.syncReader;
  if (!gzipped && encoding === 'utf-8' && syncReader && !opts.onProgress && !opts.signal) {
    // (the stream's chunks so far are the file's first bytes: the byte-order mark is in them)
    const consumed = first.bytes + more.bytes;
    const sync = syncReading(() => syncReader.call(src), buffered, consumed, more.done, reader, once);
    opened.readInto = sync.readInto;
    opened.close = () => {
      sync.close();
      reader.cancel().catch(() => undefined);
    };
  }
  return opened;
}

/** A source over bytes already in memory (tests, the CLI's small inputs, embedded samples). */
export function bytesSource(name: string, bytes: Uint8Array | string, chunkSize = 1 << 20): ByteSource {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  return {
    name,
    size: data.length,
    stream() {
      let o = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (o >= data.length) {
            controller.close();
            return;
          }
          controller.enqueue(data.subarray(o, o + chunkSize));
          o += chunkSize;
        },
      });
    },
  };
}
