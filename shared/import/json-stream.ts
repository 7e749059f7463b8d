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

export async function streamJson(
  chunks: AsyncIterable<Uint8Array>,
  handlers: JsonStreamHandlers,
  file: string,
): Promise<JsonStreamResult> {
  const decoder = new TextDecoder('utf-8');
  const pieces = new Pieces();
  let mode = Mode.Start;
  let root: 'object' | 'array' = 'array';
  let depth = 0; // nesting inside the current element or value
  let inString = false;
  let escape = false;
  let key = '';
  let keyStart = 0;
  let valueStart = 0;
  // elements of the current batch: absolute [start, end) pairs
  let elemStarts: number[] = [];
  let elemEnds: number[] = [];
  let elemStart = 0;
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
            escape = false;
          } else if (b === RBRACE) mode = Mode.Done;
          else fail(offset + i, `expected a key in the top-level object, found ${JSON.stringify(String.fromCharCode(b))}`);
          break;
        case Mode.InKey:
          if (escape) escape = false;
          else if (b === BACKSLASH) escape = true;
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
          depth = 0;
          inString = false;
          escape = false;
          continue; // rescan this byte in Value mode
        case Mode.Value:
        case Mode.Element: {
          // Scan one value: strings, nesting, and the primitive's end.
          if (inString) {
            if (escape) escape = false;
            else if (b === BACKSLASH) escape = true;
            else if (b === QUOTE) {
              inString = false;
              if (depth === 0) {
                // a bare string value ends here
                i++;
                endValue(offset + i);
                continue;
              }
            }
            break;
          }
          if (b === QUOTE) inString = true;
          else if (b === LBRACE || b === LBRACKET) depth++;
          else if (b === RBRACE || b === RBRACKET) {
            if (depth === 0) {
              endValue(offset + i);
              continue; // the closing bracket belongs to the container
            }
            depth--;
            if (depth === 0) {
              i++;
              endValue(offset + i);
              continue;
            }
          } else if (depth === 0 && (b === COMMA || isSpace(b))) {
            endValue(offset + i);
            continue;
          }
          break;
        }
        case Mode.AfterValue:
          if (isSpace(b)) break;
          if (b === COMMA) mode = Mode.ObjectKey;
          else if (b === RBRACE) mode = Mode.Done;
          else fail(offset + i, `expected ',' or '}' after the value of "${key}"`);
          break;
        case Mode.ArrayGap:
          if (isSpace(b) || b === COMMA) break;
          if (b === RBRACKET) {
            flush();
            mode = root === 'array' ? Mode.Done : Mode.AfterValue;
            break;
          }
          if (b === RBRACE || b === COLON)
            fail(offset + i, `unexpected ${JSON.stringify(String.fromCharCode(b))} between array elements`);
          elemStart = offset + i;
          mode = Mode.Element;
          depth = 0;
          inString = false;
          escape = false;
          continue;
        case Mode.Done:
          if (!isSpace(b) && b !== 0) fail(offset + i, 'unexpected data after the end of the JSON value');
          break;
      }
      i++;
    }
    offset += n;
    // Hand over what is complete; keep only bytes of the element or value still open.
    flush();
    if (mode === Mode.Element) pieces.trim(elemStart);
    else if (mode === Mode.Value) pieces.trim(valueStart);
    else if (mode === Mode.InKey) pieces.trim(keyStart);
    else pieces.clear();
  }

  function endValue(end: number): void {
    if (mode === Mode.Element) {
      elemStarts.push(elemStart);
      elemEnds.push(end);
      mode = Mode.ArrayGap;
    } else {
      const text = pieces.text(valueStart, end, decoder);
      handlers.value?.(key, parseText(text, valueStart));
      mode = Mode.AfterValue;
    }
  }

  if (mode === Mode.Start) fail(0, 'the file is empty');
  let droppedBytes = 0;
  if (mode === Mode.Element) {
    // A primitive at the very end is complete (`[1,2,3` ends with 3); an object is not.
    if (depth === 0 && !inString) {
      elemStarts.push(elemStart);
      elemEnds.push(offset);
      try {
        flush();
      } catch {
        droppedBytes = offset - elemStart;
      }
    } else droppedBytes = offset - elemStart;
  } else if (mode === Mode.Value && depth === 0 && !inString) {
    handlers.value?.(key, parseText(pieces.text(valueStart, offset, decoder), valueStart));
  }
  return { root, truncated: (mode as Mode) !== Mode.Done, droppedBytes, bytes: offset };
}
