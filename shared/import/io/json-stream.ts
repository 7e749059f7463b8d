/**
 * Streaming reader for the JSON shapes profilers write: a top-level array of records
 * (`[{…},{…}`, trace events) or a top-level object whose arrays hold the bulk
 * (`{"nodes":[…],"samples":[…]}`, `{"traceEvents":[…]}`). Runs of complete elements are decoded
 * and handed to `JSON.parse` in batches, so throughput stays close to `JSON.parse` while memory
 * holds one chunk and one partial element. Each element's byte offset and length in the file are
 * reported (trace statistics need them).
 *
 * Where elements end is found three ways (./json-scan): arrays of objects by guessing ends from
 * `},{` with `indexOf` and letting the batch's parse prove the guess, arrays of plain integers by
 * reading them straight from the bytes (./json-numbers: a run at a time to a handler that takes
 * runs), and anything else — or a guess found wrong — by a scan of
 * every byte. A byte scan of each element cost more than the parse of it.
 *
 * Truncated input — a trace whose process was killed before the closing `]` — is accepted: the
 * complete elements are delivered and the result says `truncated`.
 */
import { JsonStreamReader } from './json-reader';

export { MAX_JSON_VALUE_BYTES } from './json-reader';

export interface JsonStreamHandlers {
  /** an element of a streamed array; `key` is '' for a top-level array */
  element(key: string, value: unknown, offset: number, length: number): void;
  /**
   * A run of elements of a streamed array that are plain integers (at most 15 digits, no leading
   * zero: exactly what `JSON.parse` gives), `values[0]` to `values[count - 1]`, in place of as
   * many `element` calls; elements of any other form still come one by one to `element`, in
   * order. `values` is the reader's own array, good only during the call (the handler may write
   * into it); `places` says where each of them is in the file, for error messages: it reads the
   * run's bytes again, so it is for the error path only, and only during the call.
   */
  numbers?(key: string, values: Float64Array, count: number, places: NumberPlaces): void;
  /** a complete value directly under the top-level object that is not a streamed array */
  value?(key: string, value: unknown): void;
  /** whether the array under `key` is streamed element by element; others arrive via `value` (default: all arrays stream) */
  streams?(key: string): boolean;
  /**
   * false when `element` uses an element's offset only to report an error: elements of arrays of
   * objects may then come with -1 for offset and length, which spares finding where each one
   * begins, and an `ImportError` that `element` throws with offset -1 gets the element's offset.
   * Default true.
   */
  places?: boolean;
}

/** Where the numbers of a run handed to `numbers` are in the file. */
export interface NumberPlaces {
  /** the byte offset of the run's number `i` */
  offset(i: number): number;
}

export interface JsonStreamResult {
  root: 'object' | 'array';
  /** the input ended before the top-level value was closed */
  truncated: boolean;
  /** bytes of a partial element dropped at the end of a truncated input */
  droppedBytes: number;
  bytes: number;
}

/**
 * `recycle`: told of each chunk once the reader keeps nothing of it, so that the source may read
 * into its memory again (`OpenedSource.recycle`); otherwise each chunk is garbage, and a long
 * capture's 100 MB of them piled up to ~50 MB before the collector gave them back.
 */
export async function streamJson(
  chunks: AsyncIterable<Uint8Array>,
  handlers: JsonStreamHandlers,
  file: string,
  recycle?: (chunk: Uint8Array) => void,
): Promise<JsonStreamResult> {
  const reader = new JsonStreamReader(handlers, file);
  // chunks read, in order, whose bytes the reader may still keep (an element open across them):
  // it keeps the bytes from some chunk on, so those before the oldest it keeps are let go
  let held: Uint8Array[] = [];
  let first = 0;
  for await (const chunk of chunks) {
    reader.read(chunk);
    if (!recycle) continue;
    held.push(chunk);
    const oldest = reader.oldestKept();
    while (first < held.length && held[first] !== oldest) recycle(held[first++]!);
    if (first > 1024 && first * 2 > held.length) {
      held = held.slice(first);
      first = 0;
    }
  }
  return reader.finish();
}
