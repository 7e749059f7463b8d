import { afterEach, describe, expect, it, vi } from 'vitest';
import { PiecePool, fetchedStream, piecesOf } from './worker-bytes';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();
const fallback = () =>
  new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(bytes('through the window'));
      c.close();
    },
  });

afterEach(() => vi.unstubAllGlobals());

describe('a host file fetched whole by the import worker', () => {
  it('reads what the host serves', async () => {
    vi.stubGlobal('fetch', async () => new Response(bytes('streamed')));
    expect(await text(fetchedStream('flamelens://app/api/stream/t', fallback))).toBe('streamed');
  });

  it('reads through the window where the host cannot serve it to a worker', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await text(fetchedStream('flamelens://app/api/stream/t', fallback))).toBe('through the window');
    vi.stubGlobal('fetch', async () => new Response('not found', { status: 404 }));
    expect(await text(fetchedStream('flamelens://app/api/stream/t', fallback))).toBe('through the window');
  });

  it('without a way round, says the read failed', async () => {
    vi.stubGlobal('fetch', async () => new Response('not found', { status: 404 }));
    await expect(text(fetchedStream('http://127.0.0.1/x/api/stream/t'))).rejects.toThrow('reading the file failed (HTTP 404)');
  });
});

describe('the pieces a file is read into', () => {
  /** A byte stream of `n` bytes, as a fetched body or a file's stream is. */
  const byteStream = (n: number) => {
    let at = 0;
    return new ReadableStream({
      type: 'bytes',
      pull(c: ReadableByteStreamController) {
        const req = c.byobRequest!;
        const view = req.view as Uint8Array;
        const k = Math.min(view.length, n - at, 300_000);
        for (let i = 0; i < k; i++) view[i] = (at + i) & 0xff;
        at += k;
        req.respond(k);
        if (at === n) c.close();
      },
    }) as ReadableStream<Uint8Array>;
  };

  it('reads into memory given back, and hands on every byte', async () => {
    const pieces = new PiecePool();
    const reader = piecesOf(byteStream(1_000_000), pieces).getReader();
    const first = (await reader.read()).value!;
    expect(first.length).toBe(300_000);
    expect(first[299_999]).toBe(299_999 & 0xff);
    pieces.recycle(first);
    const second = (await reader.read()).value!;
    // the next piece was read into the memory given back (moved there, so the old view is empty)
    expect(first.buffer.byteLength).toBe(0);
    expect(second[0]).toBe(300_000 & 0xff);
    // a piece not given back stays as it was
    const third = (await reader.read()).value!;
    expect(second.length).toBe(300_000);
    expect(second[1]).toBe(300_001 & 0xff);
    expect(third[0]).toBe(600_000 & 0xff);
    // memory that is not the pool's is left alone
    pieces.recycle(new Uint8Array(8));
    let rest = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += r.value.length;
    expect(rest).toBe(100_000);
  });

  it('reads a stream that is not a byte stream as it comes', async () => {
    expect(await text(piecesOf(fallback(), new PiecePool()))).toBe('through the window');
  });
});
