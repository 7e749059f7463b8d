import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchedStream } from './worker-bytes';

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
