/**
 * How far gzip may inflate a file. A few megabytes of gzip can inflate to gigabytes (deflate
 * reaches about 1,000:1 on repeated bytes), and every importer's work and memory grow with the
 * content it reads, so a small hostile file could otherwise take minutes and gigabytes before any
 * other check fails. Real profiles compress far less: the most compressible files in the corpus
 * (folded stacks, perf script of a tight loop, 0x ticks) reach 30–50:1.
 *
 * The budget: the first `FREE_INFLATED_BYTES` of content inflate freely (a small file may
 * compress as well as it likes); past them, the content may be at most `MAX_INFLATE_RATIO` times
 * the compressed bytes read so far. A bomb is refused as it passes that point, after a few tens
 * of megabytes of content, whatever size it claims. A file that is refused can still be opened
 * after decompressing it, when the person trusts it: its size is then there to see.
 */
import { ImportError } from '../errors';

/** Content that may inflate from any number of compressed bytes. */
export const FREE_INFLATED_BYTES = 16 * 1024 * 1024;
/** Past `FREE_INFLATED_BYTES`: the most content per compressed byte. */
export const MAX_INFLATE_RATIO = 200;

/** `n` bytes in the unit a person reads best. */
export function sizeText(n: number): string {
  if (n >= 1024 * 1024) return `${Math.floor(n / 1024 / 1024)} MiB`;
  if (n >= 1024) return `${Math.floor(n / 1024)} KiB`;
  return `${n} bytes`;
}

/** The error for `inflated` bytes of content from `compressed` bytes of `file`. */
export function inflateError(file: string, inflated: number, compressed: number): ImportError {
  return new ImportError({
    file,
    offset: inflated,
    message:
      `the gzip data inflates to more than ${MAX_INFLATE_RATIO} times its size (${sizeText(inflated)} from ${sizeText(compressed)}); ` +
      'no profile compresses that well, so the file is not read further (if you trust it, decompress it and open the result)',
  });
}

/** Whether `inflated` bytes of content from `compressed` bytes stay within the budget. */
export function withinBudget(inflated: number, compressed: number): boolean {
  return inflated <= FREE_INFLATED_BYTES || inflated <= MAX_INFLATE_RATIO * compressed;
}

/** The largest piece of compressed bytes handed to the decompressor at once. */
const PIECE = 16 * 1024;

/**
 * `raw` (gzip) inflated, refused with `inflateError` as soon as the content passes the budget.
 *
 * The budget needs the compressed bytes the decompressor has used, which `DecompressionStream`
 * does not tell, and piping into it lets some implementations (Node's) take the whole input ahead
 * of the content read. So the compressed bytes are written in pieces of 16 KiB, each once the
 * one before it has been taken in (its write has resolved): the bytes written are then the bytes
 * used, give or take the one piece in hand, whatever size the file's chunks have.
 */
export function inflateWithin(raw: ReadableStream<Uint8Array>, file: string): ReadableStream<Uint8Array> {
  const unzip = new DecompressionStream('gzip');
  const input = raw.getReader();
  const writer = unzip.writable.getWriter();
  let compressed = 0;
  let inflated = 0;
  let stopped = false;
  async function pump(): Promise<void> {
    try {
      for (;;) {
        const { value, done } = await input.read();
        if (done || stopped) break;
        for (let o = 0; o < value.length && !stopped; o += PIECE) {
          const piece = value.subarray(o, o + PIECE);
          compressed += piece.length;
          await writer.write(piece as Uint8Array<ArrayBuffer>);
        }
      }
      if (!stopped) await writer.close();
    } catch (e) {
      // (a damaged file: the content side reports it)
      await writer.abort(e).catch(() => undefined);
    }
  }
  const output = unzip.readable.getReader();
  let pumping: Promise<void> | undefined;
  const stop = (reason?: unknown) => {
    stopped = true;
    void input.cancel(reason).catch(() => undefined);
    void output.cancel(reason).catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        pumping ??= pump();
        const { value, done } = await output.read();
        if (done) return controller.close();
        inflated += value.length;
        if (!withinBudget(inflated, compressed)) {
          stop();
          throw inflateError(file, inflated, compressed);
        }
        controller.enqueue(value);
      },
      cancel: stop,
    },
    { highWaterMark: 0 },
  );
}
