/** Files, folders and pipes as import sources, streamed (never read whole). */
import { closeSync, createReadStream, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { type ByteSource, HEAD_BYTES, type ImportSource, type SyncReader } from '../../shared/import/io/source';

const CHUNK = 1 << 20;

/** Pieces read at once: the parser takes them in order while the next ones are being read. */
const AHEAD = 4;

/**
 * A file read in 1 MiB pieces (the first one 64 KiB, a head) straight into a web stream
 * (wrapping a Node stream with `Readable.toWeb` cost a tenth of a fast import). From the second
 * piece on, several are read at once, at their own offsets, by Node's I/O threads: a read issued
 * only when the parser asks for the next piece would leave the disk idle while the parser is busy
 * with a piece (the first megabytes of a profile, all new to it, take it longest), and the
 * parser idle after.
 */
function fileStream(path: string): { stream: ReadableStream<Uint8Array>; recycle(chunk: Uint8Array): void } {
  let fh: FileHandle | undefined;
  let offset = 0;
  let ended = false;
  const reads: Promise<Uint8Array | undefined>[] = [];
  // Memory handed out in pieces (weakly held: an importer that keeps its pieces, or drops them
  // without giving them back, keeps or frees them as it would any other), and memory given back
  // (`recycle`) to read into again: fresh memory costs the system a page fault every 4 KiB, which
  // made reading take twice as long.
  const out = new WeakSet<ArrayBufferLike>();
  const free: Buffer[] = [];
  const close = async () => {
    const h = fh;
    fh = undefined;
    ended = true;
    await Promise.allSettled(reads.splice(0));
    await h?.close();
  };
  /** The `size` bytes at `at`, all of them unless the file ends in them; undefined past the end. */
  const readAt = async (h: FileHandle, at: number, size: number): Promise<Uint8Array | undefined> => {
    // Memory of its own, not zeroed first (every byte handed on is read from the file), seen
    // as a plain Uint8Array: a Buffer's `slice` would not copy.
    const buf = free.pop() ?? Buffer.allocUnsafeSlow(CHUNK);
    let n = 0;
    for (;;) {
      const { bytesRead } = await h.read(buf, n, size - n, at + n);
      n += bytesRead;
      if (bytesRead === 0 || n === size) break;
    }
    if (n === 0) {
      free.push(buf);
      return undefined;
    }
    out.add(buf.buffer);
    return new Uint8Array(buf.buffer, buf.byteOffset, n);
  };
  /** Reads up to `ahead` pieces at once: the first piece is as long as a file's head, the others CHUNK. */
  const readAhead = (ahead: number) => {
    while (!ended && fh !== undefined && reads.length < ahead) {
      const size = offset === 0 ? HEAD_BYTES : CHUNK;
      const p = readAt(fh, offset, size);
      // a failure is reported when its piece is asked for
      p.catch(() => undefined);
      reads.push(p);
      offset += size;
    }
  };
  // Nothing is read before it is asked for, and the first piece is just what the format is told
  // by: a reader that goes on synchronously from there (`syncReader`) leaves no reads behind.
  const stream = new ReadableStream<Uint8Array>(
    {
      async start() {
        fh = await open(path, 'r');
      },
      async pull(controller) {
        const first = offset === 0;
        readAhead(first ? 1 : AHEAD);
        const next = reads.shift();
        const piece = next === undefined ? undefined : await next;
        if (piece === undefined) {
          await close();
          controller.close();
          return;
        }
        if (!first) readAhead(AHEAD);
        controller.enqueue(piece);
      },
      cancel: close,
    },
    { highWaterMark: 0 },
  );
  const recycle = (chunk: Uint8Array) => {
    if (out.delete(chunk.buffer)) free.push(Buffer.from(chunk.buffer, 0, CHUNK));
  };
  return { stream, recycle };
}

export function fileSource(path: string): ByteSource {
  const size = statSync(path).size;
  let current: ReturnType<typeof fileStream> | undefined;
  return {
    name: basename(path),
    size,
    stream: () => (current = fileStream(path)).stream,
    recycle: (chunk) => current?.recycle(chunk),
    syncReader: () => syncReader(path),
  };
}

/**
 * The file read synchronously, straight into the reader's memory (the line scanner's). For a file
 * in the page cache this is the fastest way there is; for one on disk, the system's read-ahead
 * keeps reading the next pieces while the last one is parsed.
 */
function syncReader(path: string): SyncReader {
  let fd: number | undefined;
  return {
    read(into, position) {
      fd ??= openSync(path, 'r');
      return readSync(fd, into, 0, into.length, position);
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/**
 * Bytes that can be read only once and in order, as they come (a pipe, standard input): no size,
 * no positions, so neither pieces read ahead at their own offsets nor synchronous reading.
 */
export function pipeSource(name: string, open: () => Readable): ByteSource {
  return { name, stream: () => Readable.toWeb(open()) as unknown as ReadableStream<Uint8Array> };
}

/**
 * A path as a source: a regular file, a folder's regular files (a `<pid>.0x` directory), or
 * anything else that can be read (a pipe: `<(perf script)`), as it comes.
 */
export function pathSource(path: string): ImportSource {
  const st = statSync(path);
  if (st.isFile()) return fileSource(path);
  if (!st.isDirectory()) return pipeSource(basename(path), () => createReadStream(path));
  const files = readdirSync(path)
    .map((f) => join(path, f))
    .filter((f) => statSync(f).isFile())
    .map(fileSource);
  return { name: basename(path), files };
}
