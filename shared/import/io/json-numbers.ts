/**
 * Arrays of plain integers read straight from the bytes (`samples`, `timeDeltas`, a heap
 * snapshot's `nodes` and `edges`): no text is decoded and no string made for their millions of
 * numbers. `readNumberRun` decodes a run of them into a typed array; `NumberRunReader` hands each
 * run to a handler at once (`JsonStreamHandlers.numbers`) or, for a handler without that method,
 * each number with its place (`element`). Where a number of a run is in the file is found only
 * when asked (an error message), by reading the run's bytes again.
 */
import { COMMA, RBRACKET, isSpace } from './json-scan';
import type { JsonStreamHandlers, NumberPlaces } from './json-stream';

const MINUS = 0x2d;
const NO_BYTES: Uint8Array = new Uint8Array(0);

/** Numbers handed over at once, at most: 64 KiB of Float64, which stays in the processor's cache. */
export const NUMBER_RUN = 8192;

/** What one `readNumberRun` read: how many numbers, and where it stopped. */
export interface NumberRunRead {
  count: number;
  /** index of the first byte not taken: after the last number read, or where an element not read begins */
  stop: number;
}

/** The index of the first byte from `chunk[j]` that is not a comma or white space. */
function skipGap(chunk: Uint8Array, j: number): number {
  const n = chunk.length;
  while (j < n && (chunk[j] === COMMA || isSpace(chunk[j]!))) j++;
  return j;
}

/** The index just after the number that begins at `chunk[j]` (its bytes up to a comma, white space or `]`). */
function numberEnd(chunk: Uint8Array, j: number): number {
  const n = chunk.length;
  while (j < n) {
    const c = chunk[j]!;
    if (c === COMMA || c === RBRACKET || isSpace(c)) break;
    j++;
  }
  return j;
}

/**
 * Reads plain integers — `-?(0|[1-9][0-9]*)`, at most 15 digits, so exact as doubles — from
 * `chunk[from]` (between two elements of an array) into `out`, as `JSON.parse` would give them,
 * until `out` is full. Stops before the first element that is anything else, the byte that ends
 * the array, or a number the chunk cuts: all left to the exact scan.
 */
export function readNumberRun(chunk: Uint8Array, from: number, out: Float64Array, read: NumberRunRead): void {
  const n = chunk.length;
  const max = out.length;
  let count = 0;
  let j = from;
  let stop = from;
  while (count < max) {
    while (j < n && (chunk[j] === COMMA || isSpace(chunk[j]!))) j++;
    stop = j;
    let negative = false;
    if (j < n && chunk[j] === MINUS) {
      negative = true;
      j++;
    }
    const first = j;
    let v = 0;
    while (j < n) {
      const d = chunk[j]! - 0x30;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
      j++;
    }
    const digits = j - first;
    // the number must end in the chunk, at a byte that may follow it
    if (digits === 0 || digits > 15 || (digits > 1 && chunk[first] === 0x30) || j >= n) break;
    const c = chunk[j]!;
    if (c !== COMMA && c !== RBRACKET && !isSpace(c)) break;
    out[count++] = negative ? -v : v;
    stop = j;
  }
  read.count = count;
  read.stop = stop;
}

/**
 * The places of a run's numbers, found by reading its bytes again from where the run began:
 * meant for error messages (each `offset` reads the run from its start).
 */
class RunPlaces implements NumberPlaces {
  chunk = NO_BYTES;
  from = 0;
  base = 0;

  offset(i: number): number {
    let j = skipGap(this.chunk, this.from);
    for (let k = 0; k < i; k++) j = skipGap(this.chunk, numberEnd(this.chunk, j));
    return this.base + j;
  }
}

/** Hands the runs of plain integers of a streamed array to the handlers (see `JsonStreamHandlers.numbers`). */
export class NumberRunReader {
  private readonly values = new Float64Array(NUMBER_RUN);
  private readonly read: NumberRunRead = { count: 0, stop: 0 };
  private readonly places = new RunPlaces();

  constructor(private readonly handlers: JsonStreamHandlers) {}

  /**
   * Hands over the plain integers from `chunk[from]` (`base` the chunk's offset in the file), run
   * after run; returns where the exact scan goes on (see `readNumberRun`).
   */
  run(chunk: Uint8Array, from: number, base: number, key: string): number {
    const { values, read, handlers } = this;
    let j = from;
    for (;;) {
      readNumberRun(chunk, j, values, read);
      if (read.count > 0) {
        if (handlers.numbers) {
          const places = this.places;
          places.chunk = chunk;
          places.from = j;
          places.base = base;
          handlers.numbers(key, values, read.count, places);
          places.chunk = NO_BYTES;
        } else this.each(chunk, j, base, key, read.count);
      }
      if (read.count < values.length) return read.stop;
      j = read.stop;
    }
  }

  /** For a handler without `numbers`: each number of the run with its place. */
  private each(chunk: Uint8Array, from: number, base: number, key: string, count: number): void {
    const { values, handlers } = this;
    let j = from;
    for (let i = 0; i < count; i++) {
      const start = skipGap(chunk, j);
      j = numberEnd(chunk, start);
      handlers.element(key, values[i], base + start, j - start);
    }
  }
}
