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
 * reading them straight from the bytes, and anything else — or a guess found wrong — by a scan of
 * every byte. A byte scan of each element cost more than the parse of it.
 *
 * Truncated input — a trace whose process was killed before the closing `]` — is accepted: the
 * complete elements are delivered and the result says `truncated`.
 */
import { ImportError } from '../errors';
import {
  BACKSLASH,
  COLON,
  COMMA,
  LBRACE,
  LBRACKET,
  QUOTE,
  RBRACE,
  RBRACKET,
  ElementKeys,
  type ScanState,
  firstKeyPassed,
  isSpace,
  lastObjectEnd,
  numberRun,
  objectRun,
  runStart,
  scanElements,
  scanValue,
} from './json-scan';

export interface JsonStreamHandlers {
  /** an element of a streamed array; `key` is '' for a top-level array */
  element(key: string, value: unknown, offset: number, length: number): void;
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

/** Bytes kept from earlier chunks, addressed by absolute file offset. */
class Pieces {
  private list: { start: number; bytes: Uint8Array }[] = [];
  /**
   * Two decoders: Node's TextDecoder leaves its fast UTF-8 path for good once asked to decode
   * with `stream: true` (a third of the time of the decoding), so only text that spans pieces,
   * rare, goes through the streaming one.
   */
  private readonly whole = new TextDecoder('utf-8');
  private readonly streaming = new TextDecoder('utf-8');
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
  text(from: number, to: number): string {
    const last = this.list[this.list.length - 1];
    if (last !== undefined && from >= last.start) return this.whole.decode(last.bytes.subarray(from - last.start, to - last.start));
    let out = '';
    for (const p of this.list) {
      const s = Math.max(from, p.start);
      const e = Math.min(to, p.start + p.bytes.length);
      if (s < e) out += this.streaming.decode(p.bytes.subarray(s - p.start, e - p.start), { stream: true });
    }
    return out + this.streaming.decode();
  }
}

/**
 * The longest single value read: an array element, a value under the top-level object, or a key.
 * It is kept whole until it ends and then becomes one string, and V8's strings end at 512 MiB; the
 * largest real ones (a Chrome `CpuProfile` event holding a whole profile, a heap profile's tree)
 * are far below. A longer one — a small gzip file that inflates to one enormous string — is
 * refused as soon as it passes the limit, instead of after taking twice its size in memory.
 */
export const MAX_JSON_VALUE_BYTES = 256 * 1024 * 1024;

/** Wrong guesses of element ends (beyond one in 16) after which a stream is only scanned exactly. */
const MAX_WRONG_GUESSES = 3;

/**
 * Text handed to one `JSON.parse`. Values of a parse stay alive until all are handed over, and
 * every young-generation collection meanwhile copies them: smaller runs keep that cheap (64 KiB
 * imported a 100 MB profile ~15% faster than 256 KiB or 1 MiB, and with less memory).
 */
const BATCH_BYTES = 64 * 1024;

export async function streamJson(chunks: AsyncIterable<Uint8Array>, handlers: JsonStreamHandlers, file: string): Promise<JsonStreamResult> {
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

  /** Parses elements [from, to) of the batch in one `JSON.parse`: their values, or undefined. */
  const parseBatch = (from: number, to: number): unknown[] | undefined => {
    const text = pieces.text(elemStarts[from]!, elemEnds[to - 1]!);
    try {
      const values = JSON.parse(`[${text}]`) as unknown[];
      return values.length === to - from ? values : undefined;
    } catch {
      return undefined;
    }
  };

  /** Hands over the batch, in parses of about `BATCH_BYTES`. */
  const flush = () => {
    const n = elemStarts.length;
    for (let from = 0; from < n;) {
      const to = batchEnd(from);
      let values = parseBatch(from, to);
      if (values === undefined) {
        // Find the element at fault so the message can say where.
        values = [];
        for (let i = from; i < to; i++) {
          values.push(parseText(pieces.text(elemStarts[i]!, elemEnds[i]!), elemStarts[i]!));
        }
      }
      for (let i = from; i < to; i++) handlers.element(arrayKey, values[i - from], elemStarts[i]!, elemEnds[i]! - elemStarts[i]!);
      from = to;
    }
    elemStarts = [];
    elemEnds = [];
  };

  /** The end of a run of elements from `from` of about `BATCH_BYTES`, at least one. */
  const batchEnd = (from: number): number => {
    const n = elemStarts.length;
    const limit = elemStarts[from]! + BATCH_BYTES;
    let to = from + 1;
    while (to < n && elemEnds[to]! <= limit) to++;
    return to;
  };

  // Element ends are guessed (`objectRun`) while guesses are mostly right: a file whose guesses
  // keep failing would pay for a parse that is thrown away, and is scanned exactly instead.
  const keys = new ElementKeys();
  let wrongGuesses = 0;
  let rightGuesses = 0;
  const places = handlers.places ?? true;

  /**
   * In a streamed array at `chunk[from]`: finishes an element begun in an earlier chunk, then
   * takes the elements that follow by guessing (see `objectRun`) or, numbers, as they are (see
   * `numberRun`). Returns where the exact scan goes on: the start of the first element not
   * handed over.
   */
  const guess = (chunk: Uint8Array, from: number): number => {
    let j = from;
    if (scan.inElement) {
      const end = scanValue(chunk, j, scan);
      if (end < 0) return chunk.length;
      elemStarts.push(scan.elemStart);
      elemEnds.push(offset + end);
      scan.inElement = false;
      j = end;
    }
    flush();
    const start = runStart(chunk, j);
    if (start < 0) return numberRun(chunk, j, offset, emitNumber);
    if (wrongGuesses >= MAX_WRONG_GUESSES + rightGuesses / 16) return start;
    return places ? guessElements(chunk, start) : guessEnds(chunk, start);
  };
  const emitNumber = (value: number, at: number, length: number) => handlers.element(arrayKey, value, at, length);

  /** Guesses with places: every element's end is guessed, and checked (see `objectRun`). */
  const guessElements = (chunk: Uint8Array, start: number): number => {
    const cut = objectRun(chunk, start, offset, elemStarts, elemEnds, keys);
    if (cut < 0) return start;
    const n = elemStarts.length;
    for (let from = 0; from < n;) {
      const to = batchEnd(from);
      const values = parseBatch(from, to);
      let right = values !== undefined;
      for (let i = 0; right && i < to - from; i++) {
        const v = values![i];
        if (v === null || typeof v !== 'object' || Array.isArray(v)) right = false;
        else if (keys.passed.length > 0 && firstKeyPassed(v, keys.passed)) {
          // an element began with a key taken for a nested object's: take it from now on
          for (const k in v) {
            keys.learn(k);
            break;
          }
          right = false;
        }
      }
      if (!right) {
        // Handed over so far is right; the exact scan goes on from here.
        wrongGuesses++;
        const at = elemStarts[from]! - offset;
        elemStarts = [];
        elemEnds = [];
        return at;
      }
      for (let i = from; i < to; i++) handlers.element(arrayKey, values![i - from], elemStarts[i]!, elemEnds[i]! - elemStarts[i]!);
      from = to;
    }
    rightGuesses++;
    elemStarts = [];
    elemEnds = [];
    return cut;
  };

  /**
   * Guesses without places: only the end of each run of about `BATCH_BYTES` is guessed; the
   * parse that succeeds proves it right (see `lastObjectEnd`).
   */
  const guessEnds = (chunk: Uint8Array, start: number): number => {
    for (;;) {
      const cut = lastObjectEnd(chunk, start, start + BATCH_BYTES, keys);
      if (cut < 0) return start;
      let values: unknown[];
      try {
        values = JSON.parse(`[${pieces.text(offset + start, offset + cut)}]`) as unknown[];
      } catch {
        wrongGuesses++;
        return start;
      }
      rightGuesses++;
      for (let i = 0; i < values.length; i++) {
        try {
          handlers.element(arrayKey, values[i], -1, -1);
        } catch (e) {
          if (!(e instanceof ImportError) || e.offset !== -1) throw e;
          // Where the element at fault begins, found by the exact scan of the run.
          const st: ScanState = { depth: 0, inString: false, escape: false, inElement: false, elemStart: 0 };
          const starts: number[] = [];
          scanElements(chunk.subarray(0, cut), start, st, offset, starts, []);
          throw new ImportError({ file: e.file, offset: starts[i] ?? offset + start, message: e.detail });
        }
      }
      const next = runStart(chunk, cut);
      if (next < 0) return cut;
      start = next;
    }
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
            key = parseText(pieces.text(keyStart, offset + i + 1), keyStart) as string;
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
          const from = guess(chunk, i);
          const stop = scanElements(chunk, from, scan, offset, elemStarts, elemEnds);
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
    const open = mode === Mode.Element ? scan.elemStart : mode === Mode.Value ? valueStart : mode === Mode.InKey ? keyStart : -1;
    if (open < 0) pieces.clear();
    else {
      pieces.trim(open);
      if (offset - open > MAX_JSON_VALUE_BYTES) {
        const what = mode === Mode.Element ? 'array element' : mode === Mode.Value ? `value of "${key.slice(0, 80)}"` : 'key';
        fail(
          open,
          `one JSON ${what} that starts here is longer than ${MAX_JSON_VALUE_BYTES / 1024 / 1024} MiB; no profile holds one that long, so the file is not read further`,
        );
      }
    }
  }

  /** A value directly under the top-level object ends at `end`. */
  function endValue(end: number): void {
    const text = pieces.text(valueStart, end);
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
    handlers.value?.(key, parseText(pieces.text(valueStart, offset), valueStart));
  }
  return { root, truncated: (mode as Mode) !== Mode.Done, droppedBytes, bytes: offset };
}
