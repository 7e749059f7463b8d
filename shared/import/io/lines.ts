/**
 * Line-by-line reading of UTF-8 chunks for the text formats. Lines are handed to a callback
 * (no per-line promise), without their `\n` or `\r\n`; numbering is 1-based.
 */
import { detached } from '../../model/builders';
import { ImportError } from '../errors';

/**
 * Longest line accepted; a longer one is not a profile line and would only exhaust memory (a long
 * line costs several times its length to read: a 60 MiB folded line took the process to 430 MB).
 * The longest real lines are folded stacks: 65,536 frames of 100 characters are 6.5 MB.
 */
export const MAX_LINE = 16 * 1024 * 1024;

/**
 * Bytes decoded into one string. V8 makes a string over 128 KiB in fresh memory of its own, which
 * the system zeroes page by page on first touch; a smaller one is made where short-lived objects
 * are, memory that is used over and over. Decoding a 1 MiB chunk in 64 KiB pieces made a bare
 * line split 40% faster, and the folded import a quarter.
 */
const PIECE = 64 * 1024;

/**
 * Where `forEachLineIn` goes on: a callback that recognised the lines after the current one too
 * sets `lines` (how many more it consumed) and `next` (where the line after them starts in the
 * same text); both are reset before each call.
 */
export interface LineCursor {
  lines: number;
  next: number;
}

/**
 * UTF-8 chunks to text, each chunk decoded whole. Node's `TextDecoder` leaves its fast path for
 * good once asked to decode with `stream: true`, and the slow path makes an external two-byte
 * string (twice the memory of the chunk, outside the heap, and every search and comparison in it
 * reads two bytes a character); the fast path makes a one-byte string of ASCII text. So a
 * sequence cut by the chunk's end is held back and decoded with the next chunk, which is what
 * the streaming decoder does. A byte-order mark is dropped only at the very start, as there.
 */
export class Utf8Chunks {
  private readonly first = new TextDecoder('utf-8');
  private readonly rest = new TextDecoder('utf-8', { ignoreBOM: true });
  private started = false;
  /** the start of a sequence that the last chunk ended inside of */
  private held: Uint8Array | undefined;

  decode(chunk: Uint8Array): string {
    let bytes = chunk;
    if (this.held !== undefined) {
      bytes = new Uint8Array(this.held.length + chunk.length);
      bytes.set(this.held);
      bytes.set(chunk, this.held.length);
      this.held = undefined;
    }
    const whole = completeUtf8(bytes);
    if (whole < bytes.length) {
      this.held = bytes.slice(whole);
      bytes = bytes.subarray(0, whole);
    }
    return bytes.length === 0 ? '' : this.decoder().decode(bytes);
  }

  /** What is left at the end: a cut-off sequence, decoded as the streaming decoder ends it. */
  end(): string {
    const held = this.held;
    this.held = undefined;
    return held === undefined ? '' : this.decoder().decode(held);
  }

  private decoder(): TextDecoder {
    const d = this.started ? this.rest : this.first;
    this.started = true;
    return d;
  }
}

/**
 * How many of `bytes` end before a sequence that is cut off at their end: a lead byte with fewer
 * continuation bytes after it than it announces. (Bytes that are invalid in any case decode to
 * the same U+FFFD whichever chunk they are decoded with.)
 */
function completeUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let lead = n - 1;
  while (lead >= 0 && lead > n - 4 && (bytes[lead]! & 0xc0) === 0x80) lead--;
  if (lead < 0) return n;
  const b = bytes[lead]!;
  const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
  return n - lead < length ? lead : n;
}

/**
 * Calls `onLine(text, start, end, lineNo, cursor)` for every line, where `text.slice(start, end)`
 * is the line. A parser that recognises most lines without copying them (a perf frame line it has
 * seen before, a folded frame it knows) reads them in place, and may take several at once
 * (`LineCursor`); `forEachLine` is the simple form. `onText(text)` is called before the first
 * line of each text, for work done once per text rather than once per line.
 */
export async function forEachLineIn(
  chunks: AsyncIterable<Uint8Array>,
  file: string,
  onLine: (text: string, start: number, end: number, lineNo: number, cursor: LineCursor) => void,
  onText?: (text: string) => void,
): Promise<number> {
  const decoder = new Utf8Chunks();
  const cursor: LineCursor = { lines: 0, next: 0 };
  const read = { lineNo: 0 };
  let carry = '';
  for await (const chunk of chunks)
    for (let at = 0; at < chunk.length; at += PIECE) {
      // Lines are searched in the decoded piece itself, never in `carry + piece`: V8 searches a
      // joined (cons) string through a runtime call each time, which made every line cost twice
      // as much. Only the line that straddles two pieces is joined.
      const text = decoder.decode(chunk.subarray(at, at + PIECE));
      let start = 0;
      if (carry !== '') {
        const nl = text.indexOf('\n');
        if (nl < 0) {
          carry += text;
          if (carry.length > MAX_LINE) throw tooLong(file, read.lineNo + 1);
          continue;
        }
        const line = carry + text.slice(0, nl);
        cursor.lines = 0;
        onText?.(line);
        onLine(line, 0, withoutCr(line), ++read.lineNo, cursor);
        start = nl + 1;
      }
      onText?.(text);
      start = linesIn(text, start, read, cursor, onLine);
      carry = text.slice(start);
      if (carry.length > MAX_LINE) throw tooLong(file, read.lineNo + 1);
    }
  carry += decoder.end();
  if (carry.length > 0) {
    cursor.lines = 0;
    onText?.(carry);
    onLine(carry, 0, withoutCr(carry), ++read.lineNo, cursor);
  }
  return read.lineNo;
}

function tooLong(file: string, line: number): ImportError {
  return new ImportError({ file, line, message: `line is longer than ${MAX_LINE} characters` });
}

/** Where a line that is a whole string ends, a `\r` before its end left out. */
function withoutCr(line: string): number {
  return line.charCodeAt(line.length - 1) === 13 ? line.length - 1 : line.length;
}

/**
 * The whole lines of `text` from `start` on, numbered on from `read.lineNo`; returns where the
 * unfinished last one starts. A function of its own, called once per piece: V8 optimizes it
 * after a few pieces and uses that code from the next call on, where a loop inside the reader
 * (an async function, called once) ran unoptimized until V8 compiled the whole reader twice,
 * once to enter it in the middle of the loop.
 */
function linesIn(
  text: string,
  start: number,
  read: { lineNo: number },
  cursor: LineCursor,
  onLine: (text: string, start: number, end: number, lineNo: number, cursor: LineCursor) => void,
): number {
  let lineNo = read.lineNo;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    cursor.lines = 0;
    onLine(text, start, end, ++lineNo, cursor);
    if (cursor.lines > 0) {
      lineNo += cursor.lines;
      start = cursor.next;
    } else start = nl + 1;
  }
  read.lineNo = lineNo;
  return start;
}

/**
 * Calls `onLine` for every line of `text`, a whole number of lines (the last may lack its `\n`),
 * numbered on from `lineNo` (the first is `lineNo + 1`), as `forEachLineIn` does; returns the
 * number of the last.
 */
export function forEachLineOf(
  text: string,
  lineNo: number,
  onLine: (text: string, start: number, end: number, lineNo: number, cursor: LineCursor) => void,
): number {
  const read = { lineNo };
  const cursor: LineCursor = { lines: 0, next: 0 };
  const start = linesIn(text, 0, read, cursor, onLine);
  if (start < text.length) {
    const end = text.charCodeAt(text.length - 1) === 13 ? text.length - 1 : text.length;
    cursor.lines = 0;
    onLine(text, start, end, ++read.lineNo, cursor);
  }
  return read.lineNo;
}

export function forEachLine(
  chunks: AsyncIterable<Uint8Array>,
  file: string,
  onLine: (line: string, lineNo: number) => void,
): Promise<number> {
  return forEachLineIn(chunks, file, (text, start, end, lineNo) => onLine(text.slice(start, end), lineNo));
}

/**
 * A class and `new Array`, not literals: entries are kept for the whole import, and V8 recompiles
 * the functions that make long-lived literals (see formats/perf-seen.ts).
 */
class TableEntry<T> {
  /** the entry looked up right after this one the last time: most likely the next again */
  next: TableEntry<T> | undefined = undefined;
  constructor(
    readonly key: string,
    readonly value: T,
  ) {}
}

/** Most entries a fingerprint keeps; more (a pathological file) are simply not remembered. */
const BUCKET_LIMIT = 8;

/**
 * Strings met before, looked up by their place in a larger text: for the lines a parser meets
 * over and over (a perf frame line), where hashing each one as a `Map` key cost more than the
 * rest of the parsing together. Lines come back in the same order (the frames of one stack), so
 * the entry that followed the previous one last time is tried first; otherwise a fingerprint
 * (length and a few characters) picks a few candidates. Either way a comparison confirms.
 */
export class TextTable<T> {
  private readonly buckets = new Map<number, TableEntry<T>[]>();
  private last: TableEntry<T> | undefined;

  get(text: string, start: number, end: number): T | undefined {
    const guess = this.last?.next;
    let s: string | undefined;
    // A slice and `===` compare in native code; `startsWith(key, start)` walks the characters
    // one by one and took seven times as long.
    if (guess !== undefined && guess.key.length === end - start) {
      s = text.slice(start, end);
      if (guess.key === s) {
        this.last = guess;
        return guess.value;
      }
    }
    const bucket = this.buckets.get(fingerprint(text, start, end));
    if (bucket === undefined) return undefined;
    s ??= text.slice(start, end);
    for (let i = 0; i < bucket.length; i++) {
      const e = bucket[i]!;
      if (e.key === s) {
        if (this.last !== undefined) this.last.next = e;
        this.last = e;
        return e.value;
      }
    }
    return undefined;
  }

  /**
   * Remembers `text.slice(start, end)` (copied: see `detached`; or `kept`, a copy of it the caller
   * already has), unless its bucket is full.
   */
  set(text: string, start: number, end: number, value: T, kept?: string): void {
    const h = fingerprint(text, start, end);
    let bucket = this.buckets.get(h);
    if (bucket === undefined) this.buckets.set(h, (bucket = new Array<TableEntry<T>>()));
    if (bucket.length >= BUCKET_LIMIT) return;
    const e = new TableEntry(kept ?? detached(text.slice(start, end)), value);
    bucket.push(e);
    if (this.last !== undefined) this.last.next = e;
    this.last = e;
  }
}

/**
 * Length, 12 characters from the 7th on and the last 4: for a perf frame line
 * (`\t          ed184d v8::internal::…+0x14d (/usr/bin/node)`) that is the low digits of the
 * address, where lines differ most. Each character read costs, so no more are.
 */
function fingerprint(text: string, start: number, end: number): number {
  let h = Math.imul(end - start, 0x9e3779b1);
  const head = Math.min(end, start + 18);
  for (let i = start + 6; i < head; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  for (let i = Math.max(head, end - 4); i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}
