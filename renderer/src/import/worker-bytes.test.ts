import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { importProfile } from '../../../shared/import/import-profile';
import { type ByteSource, bytesSource } from '../../../shared/import/io/source';
import { folded, perfScript } from '../../../test/fuzz/gen-text';
import { SAMPLES } from '../../../test/support/files';
import { ChunkPool, ChunkReader, FETCH_CHUNK, byteSource, fetchedStream } from './worker-bytes';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();
const fallback = () =>
  new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(bytes('through the window'));
      c.close();
    },
  });

/** A response whose body is a byte stream (as a fetched body is) giving `data` in pieces of `sizes`, over and over. */
function pieced(data: Uint8Array, sizes: number[]): Response {
  let at = 0;
  let i = 0;
  const body = new ReadableStream({
    type: 'bytes',
    pull(c) {
      if (at >= data.length) {
        // (a read waiting with memory of its own learns of the end only through its request)
        c.close();
        return c.byobRequest?.respond(0);
      }
      const n = sizes[i++ % sizes.length]!;
      c.enqueue(data.slice(at, at + n));
      at += n;
    },
  });
  return new Response(body);
}

afterEach(() => vi.unstubAllGlobals());

describe('a host file fetched whole by the import worker', () => {
  it('reads what the host serves', async () => {
    vi.stubGlobal('fetch', async () => new Response(bytes('streamed')));
    expect(await text(fetchedStream('flamelens://app/api/stream/t', fallback))).toBe('streamed');
    vi.stubGlobal('fetch', async () => pieced(bytes('streamed in pieces'), [1, 5, 2]));
    expect(await text(fetchedStream('flamelens://app/api/stream/t', fallback, new ChunkPool(4)))).toBe('streamed in pieces');
  });

  it('reads a body that is not a byte stream the default way', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes('not '));
        c.enqueue(bytes('bytes'));
        c.close();
      },
    });
    vi.stubGlobal('fetch', async () => ({ ok: true, status: 200, body }));
    expect(await text(fetchedStream('http://127.0.0.1/x/api/stream/t', undefined, new ChunkPool()))).toBe('not bytes');
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

describe('the memory a fetched body is read into', () => {
  it('is read into again once its chunk is given back, and never while a chunk is held', async () => {
    const data = Uint8Array.from({ length: 40 }, (_, i) => i);
    vi.stubGlobal('fetch', async () => pieced(data, [10]));
    const pool = new ChunkPool(10);
    const reader = fetchedStream('http://127.0.0.1/x/api/stream/t', undefined, pool).getReader();
    const first = (await reader.read()).value!;
    const second = (await reader.read()).value!;
    expect([...first]).toEqual([...data.subarray(0, 10)]);
    // a chunk still held keeps its bytes while the next ones are read
    expect([...second]).toEqual([...data.subarray(10, 20)]);
    expect([...first]).toEqual([...data.subarray(0, 10)]);
    // given back, its memory takes a later chunk: the view given out no longer sees any bytes
    pool.recycle(first);
    pool.recycle(first);
    pool.recycle(new Uint8Array(10));
    await reader.read(); // (read ahead into memory taken before)
    const fourth = (await reader.read()).value!;
    expect(first.length).toBe(0);
    expect([...fourth]).toEqual([...data.subarray(30, 40)]);
    expect([...second]).toEqual([...data.subarray(10, 20)]);
    expect((await reader.read()).done).toBe(true);
  });

  it('gives back only what it lent', () => {
    const pool = new ChunkPool(8);
    const mine = pool.lend(pool.take());
    pool.recycle(new Uint8Array(8));
    const next = pool.take();
    expect(next.buffer).not.toBe(mine.buffer);
    pool.recycle(mine);
    expect(pool.take().buffer).toBe(mine.buffer);
    expect(pool.take().buffer).not.toBe(mine.buffer);
  });
});

type Outcome = { profile: unknown } | { error: string };

async function outcome(source: ByteSource): Promise<Outcome> {
  try {
    return { profile: await importProfile(source) };
  } catch (e) {
    return { error: String(e) };
  }
}

/** `data` as the import worker reads a host file: fetched, in pieces of `sizes`, into a pool of `memory`-byte buffers. */
function fetched(name: string, data: Uint8Array, sizes: number[], memory: number): ByteSource {
  vi.stubGlobal('fetch', async () => pieced(data, sizes));
  const pool = new ChunkPool(memory);
  return {
    name,
    size: data.length,
    stream: () => fetchedStream('http://127.0.0.1/x/api/stream/t', undefined, pool),
    recycle: (chunk) => pool.recycle(chunk),
  };
}

const memoryArb = fc.oneof(fc.constant(FETCH_CHUNK), fc.integer({ min: 1, max: 70_000 }));
const piecesArb = (min: number) =>
  fc.array(fc.oneof(fc.integer({ min, max: 100 + min }), fc.integer({ min: 100 + min, max: 300_000 })), { minLength: 1, maxLength: 6 });

describe('a file fetched in any pieces, into any memory, imports as the whole file does', () => {
  it('generated perf script and folded stacks, plain and gzipped', async () => {
    const file = fc.oneof(fc.tuple(fc.constant('perf.script.txt'), perfScript), fc.tuple(fc.constant('stacks.folded'), folded));
    await fc.assert(
      fc.asyncProperty(file, fc.boolean(), piecesArb(1), memoryArb, async ([name, content], gzip, sizes, memory) => {
        const plain = new TextEncoder().encode(content);
        const data = gzip ? new Uint8Array(gzipSync(plain)) : plain;
        const whole = await outcome(bytesSource(name, data, data.length));
        expect(await outcome(fetched(name, data, sizes, memory))).toEqual(whole);
      }),
      { numRuns: Number(process.env.FLAMELENS_FETCH_RUNS ?? 100) },
    );
  });

  it.each(['fixtures/samples/ddtrace/perf.script.txt', 'fixtures/samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile'])(
    '%s',
    async (path) => {
      const data = new Uint8Array(readFileSync(path));
      const name = path.split('/').pop()!;
      const whole = await outcome(bytesSource(name, data, data.length));
      expect(whole).toHaveProperty('profile');
      await fc.assert(
        fc.asyncProperty(
          piecesArb(1000),
          memoryArb.filter((m) => m >= 1000),
          async (sizes, memory) => {
            expect(await outcome(fetched(name, data, sizes, memory))).toEqual(whole);
          },
        ),
        { numRuns: Number(process.env.FLAMELENS_FETCH_RUNS ?? 10) },
      );
    },
  );
});

describe('a chosen file', () => {
  it('is read into memory the import gives back, and imports as the whole file does', async () => {
    const dir = join(SAMPLES, 'ddtrace');
    const name = readdirSync(dir).find((x) => x.startsWith('CPU.') && x.endsWith('.cpuprofile'))!;
    const data = readFileSync(join(dir, name));
    const source = byteSource({ kind: 'file', file: new File([data], name), name }, new ChunkReader(() => undefined));
    const first = (await source.stream().getReader().read()).value!;
    expect(first.buffer.byteLength).toBe(FETCH_CHUNK);
    const pooled = await importProfile(source);
    const whole = await importProfile(bytesSource(name, new Uint8Array(data)));
    expect([...pooled.tree.self]).toEqual([...whole.tree.self]);
    expect(pooled.frames.key).toEqual(whole.frames.key);
    expect(pooled.samples!.length).toBe(whole.samples!.length);
  });
});
