/**
 * Reading an opened source straight into the reader's memory (`readInto`, for sources that read
 * synchronously): the same content as `chunks()`, from the start, whatever the pieces; offered
 * only where the content is the file's bytes as they are; and the file let go.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type ByteSource, type OpenOptions, type SyncReader, bytesSource, openSource } from './source';

/** `bytes` as a source with a stream of `chunk`-byte pieces and a synchronous reader; what the reader did. */
function syncSource(bytes: Uint8Array, chunk: number) {
  const log = { opened: 0, closed: 0, reads: 0, cancelled: false };
  const base = bytesSource('x.txt', bytes, chunk);
  const src: ByteSource = {
    ...base,
    stream: () => {
      const inner = base.stream().getReader();
      return new ReadableStream<Uint8Array>({
        pull: async (c) => {
          const r = await inner.read();
          if (r.done) c.close();
          else c.enqueue(r.value);
        },
        cancel: () => {
          log.cancelled = true;
        },
      });
    },
    syncReader(): SyncReader {
      log.opened++;
      return {
        read(into, position) {
          log.reads++;
          const part = bytes.subarray(position, position + into.length);
          into.set(part);
          return part.length;
        },
        close() {
          log.closed++;
        },
      };
    },
  };
  return { src, log };
}

/** All of `readInto`, `piece` bytes at a time. */
function readAll(readInto: (into: Uint8Array) => number, piece: number): Uint8Array {
  const parts: Uint8Array[] = [];
  for (;;) {
    const into = new Uint8Array(piece);
    const n = readInto(into);
    if (n === 0) break;
    parts.push(into.slice(0, n));
  }
  return Buffer.concat(parts);
}

async function viaChunks(bytes: Uint8Array, chunk: number): Promise<Uint8Array> {
  const s = await openSource(bytesSource('x.txt', bytes, chunk));
  const parts: Uint8Array[] = [];
  for await (const c of s.chunks()) parts.push(c.slice());
  return Buffer.concat(parts);
}

function text(n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = 97 + ((i * 7 + (i >> 9)) % 26);
  return b;
}

describe('reading straight into the reader’s memory', () => {
  const sizes = [0, 3, 100, 64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, 300_000];
  for (const size of sizes)
    it(`gives what chunks() gives: ${size} bytes, with and without a byte-order mark`, async () => {
      for (const bom of [false, true]) {
        const bytes = bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text(size)]) : text(size);
        for (const [chunk, piece] of [
          [1 << 20, 256 * 1024],
          [4096, 1000],
          [7, 1],
        ] as const) {
          const { src, log } = syncSource(bytes, chunk);
          const s = await openSource(src);
          expect(s.readInto).toBeDefined();
          const got = readAll(s.readInto!, piece);
          expect(Buffer.compare(got, await viaChunks(bytes, chunk))).toBe(0);
          // the file is read from where the stream stopped, and closed at its end
          expect(log.closed).toBe(log.opened);
          // the stream, when it has more to give, is let go
          await new Promise((r) => setTimeout(r, 0));
          if (bytes.length > 2 * 64 * 1024 + chunk) expect(log.cancelled).toBe(true);
        }
      }
    });

  it('reads either this way or by chunks, once', async () => {
    const a = await openSource(syncSource(text(1000), 100).src);
    a.readInto!(new Uint8Array(10));
    expect(() => a.chunks()).toThrow(/read twice/);
    const b = await openSource(syncSource(text(1000), 100).src);
    b.chunks();
    expect(() => b.readInto!(new Uint8Array(10))).toThrow(/read twice/);
  });

  it('lets go of the file when closed early, and reads nothing after', async () => {
    const { src, log } = syncSource(text(500_000), 1000);
    const s = await openSource(src);
    readAll((into) => (log.reads < 2 ? s.readInto!(into) : 0), 100_000);
    expect(log.opened).toBe(1);
    s.close!();
    s.close!();
    expect(log.closed).toBe(1);
    expect(s.readInto!(new Uint8Array(10))).toBe(0);
  });

  it('is not offered where the content is not the file’s bytes, or progress or cancellation is wanted', async () => {
    const gz = await openSource(syncSource(gzipSync(text(1000)), 100).src);
    expect(gz.gzipped).toBe(true);
    expect(gz.readInto).toBeUndefined();
    const utf16 = await openSource(syncSource(Buffer.from('\ufeffa;b 1\n', 'utf16le'), 100).src);
    expect(utf16.encoding).toBe('utf-16le');
    expect(utf16.readInto).toBeUndefined();
    const asked: OpenOptions[] = [{ onProgress: () => undefined }, { signal: new AbortController().signal }];
    for (const opts of asked) expect((await openSource(syncSource(text(1000), 100).src, opts)).readInto).toBeUndefined();
    expect((await openSource(bytesSource('x.txt', text(1000)))).readInto).toBeUndefined();
  });
});
