/**
 * Streaming reader for the JSON shapes profilers write: a top-level array of records
 * (`[{…},{…}`, trace events) or a top-level object whose arrays hold the bulk
 * (`{"nodes":[…],"samples":[…]}`, `{"traceEvents":[…]}`). A byte-level scanner finds element
 * boundaries; runs of complete elements are decoded and handed to `JSON.parse` in batches, so
 * throughput stays close to `JSON.parse` while memory holds one chunk and one partial element.
 * Each element's byte offset and length in the file are reported (trace statistics need them).
 *
 * Truncated input — a trace whose process was killed before the closing `]` — is accepted: the
 * complete elements are delivered and the result says `truncated`.
 */
import { ImportError } from './errors';

export interface JsonStreamHandlers {
  /** an element of a streamed array; `key` is '' for a top-level array */
  element(key: string, value: unknown, offset: number, length: number): void;
  /** a complete value directly under the top-level object that is not a streamed array */
  value?(key: string, value: unknown): void;
  /** whether the array under `key` is streamed element by element; others arrive via `value` (default: all arrays stream) */
  streams?(key: string): boolean;
}

export interface JsonStreamResult {
  root: 'object' | 'array';
  /** the input ended before the top-level value was closed */
  truncated: boolean;
  /** bytes of a partial element dropped at the end of a truncated input */
  droppedBytes: number;
  bytes: number;
}

const enum Mode {
  /** before the top-level value */
  Start,
  /** inside the top-level object, expecting a key or `}` */
  ObjectKey,
  /** inside the top-level object, in a key string */
  InKey,
  /** after a key, expecting `:` */
  Colon,
  /** after `:`, expecting a value */
  ValueStart,
  /** capturing a non-streamed value under the top-level object */
  Value,
  /** after a value under the top-level object, expecting `,` or `}` */
  AfterValue,
  /** inside a streamed array, between elements */
  ArrayGap,
  /** inside a streamed array, in an element */
  Element,
  /** the top-level value is closed */
  Done,
}

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

/** Byte classes for the value scanner: 0 for bytes that change nothing. */
const OPEN = 1;
const CLOSE = 2;
const STRING = 3;
const SEPARATOR = 4;
const BYTE_CLASS = new Uint8Array(256);
BYTE_CLASS[LBRACE] = BYTE_CLASS[LBRACKET] = OPEN;
BYTE_CLASS[RBRACE] = BYTE_CLASS[RBRACKET] = CLOSE;
BYTE_CLASS[QUOTE] = STRING;
BYTE_CLASS[COMMA] = BYTE_CLASS[SPACE] = BYTE_CLASS[TAB] = BYTE_CLASS[LF] = BYTE_CLASS[CR] = SEPARATOR;

function isSpace(b: number): boolean {
  return b === SPACE || b === LF || b === CR || b === TAB;
}

/** Bytes kept from earlier chunks, addressed by absolute file offset. */
class Pieces {
  private list: { start: number; bytes: Uint8Array }[] = [];
  add(start: number, bytes: Uint8Array): void {
    this.list.push({ start, bytes });
  }
  /** Drops bytes before `offset`. */
  trim(offset: number): void {
    while (this.list.length > 0) {
      const p = this.list[0]!;
      if (p.start + p.bytes.length <= offset) this.list.shift();
      else break;
    }
  }
  clear(): void {
    this.list = [];
  }
  /** Decodes bytes [from, to) as UTF-8. */
  text(from: number, to: number, decoder: TextDecoder): string {
    let out = '';
    for (const p of this.list) {
      const s = Math.max(from, p.start);
      const e = Math.min(to, p.start + p.bytes.length);
      if (s < e) out += decoder.decode(p.bytes.subarray(s - p.start, e - p.start), { stream: true });
    }
    return out + decoder.decode();
  }
}

/** Where the scan stands when a chunk ends. */
interface ScanState {
  /** nesting inside the value */
  depth: number;
  inString: boolean;
  /** the last byte was a backslash inside a string */
  escape: boolean;
  /** in a streamed array: inside an element (else between two) */
  inElement: boolean;
  /** in a streamed array: absolute offset of the element being scanned */
  elemStart: number;
}

/**
 * Scans a value (an element, or a value under the top-level object) from `chunk[from]`: the index
 * where it ends, or -1 when the chunk ends first (the state then says where it stood). A value
 * ends after its closing bracket or quote, or — a number, `true`… — at the comma, white space or
 * closing bracket after it, which is then not part of it.
 *
 * The hot loop: every byte of every element passes here. Strings are skipped in a loop of their
 * own and other bytes sorted by a table, with the state in locals; a `switch` on the reader's
 * mode for each byte spent more time than JSON.parse itself.
 */
function scanValue(chunk: Uint8Array, from: number, st: ScanState): number {
  const n = chunk.length;
  let d = st.depth;
  let str = st.inString;
  let esc = st.escape;
  let end = -1;
  let j = from;
  while (j < n) {
    if (str) {
      if (esc) {
        esc = false;
        j++;
      }
      while (j < n) {
        const c = chunk[j++]!;
        if (c === QUOTE) {
          str = false;
          break;
        }
        if (c === BACKSLASH) {
          if (j < n) j++;
          else esc = true;
        }
      }
      // a bare string value ends with its closing quote
      if (!str && d === 0) {
        end = j;
        break;
      }
      continue;
    }
    const k = BYTE_CLASS[chunk[j]!]!;
    if (k === 0) {
      j++;
      continue;
    }
    if (k === OPEN) d++;
    else if (k === STRING) str = true;
    else if (k === CLOSE) {
      // at depth 0 the bracket is the container's
      if (d === 0) {
        end = j;
        break;
      }
      if (--d === 0) {
        end = j + 1;
        break;
      }
    } else if (d === 0) {
      // SEPARATOR after a number, `true`…
      end = j;
      break;
    }
    j++;
  }
  st.depth = d;
  st.inString = str;
  st.escape = esc;
  return end;
}

/**
 * Scans a streamed array from `chunk[from]`, element after element, recording each complete
 * element as absolute [start, end) in `starts` / `ends` (`base` is the chunk's offset). Returns the
 * index of the first byte it leaves to the caller — `]` closing the array, or `}` or `:`, which
 * cannot start an element — or -1 at the end of the chunk. One call covers a chunk's worth of
 * elements: a sample array holds millions of small numbers, and a round through the reader's
 * modes for each one cost more than the numbers.
 */
function scanElements(chunk: Uint8Array, from: number, st: ScanState, base: number, starts: number[], ends: number[]): number {
  const n = chunk.length;
  let j = from;
  for (;;) {
    if (!st.inElement) {
      while (j < n && BYTE_CLASS[chunk[j]!] === SEPARATOR) j++;
      if (j >= n) return -1;
      const c = chunk[j]!;
      if (c === RBRACKET || c === RBRACE || c === COLON) return j;
      st.inElement = true;
      st.elemStart = base + j;
      st.depth = 0;
      st.inString = false;
      st.escape = false;
    }
    const end = scanValue(chunk, j, st);
    if (end < 0) return -1;
    starts.push(st.elemStart);
    ends.push(base + end);
    st.inElement = false;
    j = end;
  }
}

export async function streamJson(
  chunks: AsyncIterable<Uint8Array>,
  handlers: JsonStreamHandlers,
  file: string,
): Promise<JsonStreamResult> {
  const decoder = new TextDecoder('utf-8');
  const pieces = new Pieces();
  let mode = Mode.Start;
  let root: 'object' | 'array' = 'array';
  const scan: ScanState = { depth: 0, inString: false, escape: false, inElement: false, elemStart: 0 };
  let key = '';
  let keyStart = 0;
  let valueStart = 0;
  // elements of the current batch: absolute [start, end) pairs
  let elemStarts: number[] = [];
  let elemEnds: number[] = [];
  let arrayKey = '';
  let offset = 0; // absolute offset of the current chunk's first byte

  const fail = (at: number, message: string): never => {
    throw new ImportError({ file, offset: at, message });
  };

  const parseText = (text: string, at: number): unknown => {
    try {
      return JSON.parse(text);
    } catch (e) {
      return fail(at, `invalid JSON (${(e as Error).message})`);
    }
  };

  const flush = () => {
    const n = elemStarts.length;
    if (n === 0) return;
    const from = elemStarts[0]!;
    const to = elemEnds[n - 1]!;
    const text = pieces.text(from, to, decoder);
    let values: unknown[] | undefined;
    try {
      values = JSON.parse(`[${text}]`) as unknown[];
    } catch {
      values = undefined;
    }
    if (values === undefined || values.length !== n) {
      // Find the element at fault so the message can say where.
      values = [];
      for (let i = 0; i < n; i++) {
        values.push(parseText(pieces.text(elemStarts[i]!, elemEnds[i]!, decoder), elemStarts[i]!));
      }
    }
    for (let i = 0; i < n; i++) handlers.element(arrayKey, values[i], elemStarts[i]!, elemEnds[i]! - elemStarts[i]!);
    elemStarts = [];
    elemEnds = [];
  };

  const streams = (k: string) => (handlers.streams ? handlers.streams(k) : true);

  for await (const chunk of chunks) {
    pieces.add(offset, chunk);
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      const b = chunk[i]!;
      switch (mode) {
        case Mode.Start:
          if (isSpace(b)) break;
          if (b === LBRACE) {
            root = 'object';
            mode = Mode.ObjectKey;
          } else if (b === LBRACKET) {
            root = 'array';
            arrayKey = '';
            mode = Mode.ArrayGap;
          } else fail(offset + i, `expected JSON ('{' or '['), found ${JSON.stringify(String.fromCharCode(b))}`);
          break;
        case Mode.ObjectKey:
          if (isSpace(b) || b === COMMA) break;
          if (b === QUOTE) {
            mode = Mode.InKey;
            keyStart = offset + i;
            scan.escape = false;
          } else if (b === RBRACE) mode = Mode.Done;
          else fail(offset + i, `expected a key in the top-level object, found ${JSON.stringify(String.fromCharCode(b))}`);
          break;
        case Mode.InKey:
          if (scan.escape) scan.escape = false;
          else if (b === BACKSLASH) scan.escape = true;
          else if (b === QUOTE) {
            key = parseText(pieces.text(keyStart, offset + i + 1, decoder), keyStart) as string;
            mode = Mode.Colon;
          }
          break;
        case Mode.Colon:
          if (isSpace(b)) break;
          if (b === COLON) mode = Mode.ValueStart;
          else fail(offset + i, `expected ':' after key "${key}"`);
          break;
        case Mode.ValueStart:
          if (isSpace(b)) break;
          if (b === LBRACKET && streams(key)) {
            arrayKey = key;
            mode = Mode.ArrayGap;
            break;
          }
          valueStart = offset + i;
          mode = Mode.Value;
          scan.depth = 0;
          scan.inString = false;
          scan.escape = false;
          continue; // rescan this byte in Value mode
        case Mode.Value: {
          const end = scanValue(chunk, i, scan);
          if (end < 0) {
            i = n;
            continue;
          }
          endValue(offset + end);
          i = end;
          continue;
        }
        case Mode.AfterValue:
          if (isSpace(b)) break;
          if (b === COMMA) mode = Mode.ObjectKey;
          else if (b === RBRACE) mode = Mode.Done;
          else fail(offset + i, `expected ',' or '}' after the value of "${key}"`);
          break;
        case Mode.ArrayGap:
        case Mode.Element: {
          const stop = scanElements(chunk, i, scan, offset, elemStarts, elemEnds);
          mode = scan.inElement ? Mode.Element : Mode.ArrayGap;
          if (stop < 0) {
            i = n;
            continue;
          }
          i = stop;
          if (chunk[i] === RBRACKET) {
            flush();
            mode = root === 'array' ? Mode.Done : Mode.AfterValue;
            break;
          }
          fail(offset + i, `unexpected ${JSON.stringify(String.fromCharCode(chunk[i]!))} between array elements`);
          break;
        }
        case Mode.Done:
          if (!isSpace(b) && b !== 0) fail(offset + i, 'unexpected data after the end of the JSON value');
          break;
      }
      i++;
    }
    offset += n;
    // Hand over what is complete; keep only bytes of the element or value still open.
    flush();
    if (mode === Mode.Element) pieces.trim(scan.elemStart);
    else if (mode === Mode.Value) pieces.trim(valueStart);
    else if (mode === Mode.InKey) pieces.trim(keyStart);
    else pieces.clear();
  }

  /** A value directly under the top-level object ends at `end`. */
  function endValue(end: number): void {
    const text = pieces.text(valueStart, end, decoder);
    handlers.value?.(key, parseText(text, valueStart));
    mode = Mode.AfterValue;
  }

  if (mode === Mode.Start) fail(0, 'the file is empty');
  let droppedBytes = 0;
  if (mode === Mode.Element) {
    // A primitive at the very end is complete (`[1,2,3` ends with 3); an object is not.
    const elemStart = scan.elemStart;
    if (scan.depth === 0 && !scan.inString) {
      elemStarts.push(elemStart);
      elemEnds.push(offset);
      try {
        flush();
      } catch {
        droppedBytes = offset - elemStart;
      }
    } else droppedBytes = offset - elemStart;
  } else if (mode === Mode.Value && scan.depth === 0 && !scan.inString) {
    handlers.value?.(key, parseText(pieces.text(valueStart, offset, decoder), valueStart));
  }
  return { root, truncated: (mode as Mode) !== Mode.Done, droppedBytes, bytes: offset };
}
