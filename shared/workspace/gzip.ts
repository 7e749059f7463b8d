/**
 * Whole-buffer gzip and gunzip over the web-standard compression streams (browsers, workers,
 * Node 20 and Electron all have them, and shared/ may use nothing else). Decompression stops at a
 * size limit: a few kilobytes of hostile gzip can expand to gigabytes.
 */

export class TooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`larger than ${limit} bytes when decompressed`);
    this.name = 'TooLargeError';
  }
}

function once(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > limit) {
      await reader.cancel().catch(() => undefined);
      throw new TooLargeError(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(n);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

export function gzipBytes(bytes: Uint8Array): Promise<Uint8Array> {
  return collect(
    once(bytes).pipeThrough(new CompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>),
    Infinity,
  );
}

/** The decompressed bytes; throws `TooLargeError` past `limit`, and the stream's own error for damaged data. */
export function gunzipBytes(bytes: Uint8Array, limit: number): Promise<Uint8Array> {
  return collect(
    once(bytes).pipeThrough(new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>),
    limit,
  );
}
