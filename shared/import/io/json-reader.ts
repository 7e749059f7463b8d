/**
 * The state machine behind `streamJson` (./json-stream): where the reader is in the top-level
 * value, the bytes still open, and the batch of elements being gathered for one `JSON.parse`.
 */
import { ImportError } from '../errors';
import type { JsonStreamHandlers, JsonStreamResult } from './json-stream';
import { NumberRunReader } from './json-numbers';
import { Pieces } from './json-pieces';
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
  isSpace,
  lastObjectEnd,
  objectRun,
  runStart,
  scanElements,
  scanValue,
} from './json-scan';

const enum Mode {
  Start, // before the top-level value
  ObjectKey, // inside the top-level object, expecting a key or `}`
  InKey, // inside the top-level object, in a key string
  Colon, // after a key, expecting `:`
  ValueStart, // after `:`, expecting a value
  Value, // capturing a non-streamed value under the top-level object
  AfterValue, // after a value under the top-level object, expecting `,` or `}`
  ArrayGap, // inside a streamed array, between elements
  Element, // inside a streamed array, in an element
  Done, // the top-level value is closed
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

const freshScan = (): ScanState => ({ depth: 0, inString: false, escape: false, inElement: false, elemStart: 0 });

/**
 * The reader's state between chunks: where it is in the top-level value (`mode`), the bytes of
 * what is still open (`pieces`), and the elements of the batch being gathered, as absolute
 * [start, end) offsets.
 */
export class JsonStreamReader {
  private readonly pieces = new Pieces();
  private mode = Mode.Start;
  private root: 'object' | 'array' = 'array';
  private readonly scan = freshScan();
  private key = '';
  private keyStart = 0;
  private valueStart = 0;
  private elemStarts: number[] = [];
  private elemEnds: number[] = [];
  private arrayKey = '';
  /** absolute offset of the current chunk's first byte */
  private offset = 0;
  // Element ends are guessed (`objectRun`) while guesses are mostly right: a file whose guesses
  // keep failing would pay for a parse that is thrown away, and is scanned exactly instead.
  private readonly keys = new ElementKeys();
  private wrongGuesses = 0;
  private rightGuesses = 0;
  private readonly places: boolean;
  private readonly numbers: NumberRunReader;

  constructor(
    private readonly handlers: JsonStreamHandlers,
    private readonly file: string,
  ) {
    this.places = handlers.places ?? true;
    this.numbers = new NumberRunReader(handlers);
  }

  read(chunk: Uint8Array): void {
    this.pieces.add(this.offset, chunk);
    const n = chunk.length;
    for (let i = 0; i < n;) i = this.step(chunk, i);
    this.offset += n;
    // Hand over what is complete; keep only bytes of the element or value still open.
    this.flush();
    this.keepOpen();
  }

  /** The earliest chunk read whose bytes are still kept: the reader keeps none read before it. */
  oldestKept(): Uint8Array | undefined {
    return this.pieces.oldest();
  }

  finish(): JsonStreamResult {
    const { mode, scan, offset } = this;
    if (mode === Mode.Start) this.fail(0, 'the file is empty');
    let droppedBytes = 0;
    if (mode === Mode.Element) {
      // A primitive at the very end is complete (`[1,2,3` ends with 3); an object is not.
      const elemStart = scan.elemStart;
      if (scan.depth === 0 && !scan.inString) {
        this.elemStarts.push(elemStart);
        this.elemEnds.push(offset);
        try {
          this.flush();
        } catch {
          droppedBytes = offset - elemStart;
        }
      } else droppedBytes = offset - elemStart;
    } else if (mode === Mode.Value && scan.depth === 0 && !scan.inString) {
      this.handlers.value?.(this.key, this.parseText(this.pieces.text(this.valueStart, offset), this.valueStart));
    }
    return { root: this.root, truncated: this.mode !== Mode.Done, droppedBytes, bytes: offset };
  }

  private fail(at: number, message: string): never {
    throw new ImportError({ file: this.file, offset: at, message });
  }

  private parseText(text: string, at: number): unknown {
    try {
      return JSON.parse(text);
    } catch (e) {
      return this.fail(at, `invalid JSON (${(e as Error).message})`);
    }
  }

  /** Reads from `chunk[i]` in the current mode; returns where to go on. */
  private step(chunk: Uint8Array, i: number): number {
    switch (this.mode) {
      case Mode.ValueStart:
        return this.valueStarts(chunk, i);
      case Mode.Value: {
        const end = scanValue(chunk, i, this.scan);
        if (end < 0) return chunk.length;
        // A value directly under the top-level object ends here.
        this.handlers.value?.(this.key, this.parseText(this.pieces.text(this.valueStart, this.offset + end), this.valueStart));
        this.mode = Mode.AfterValue;
        return end;
      }
      case Mode.ArrayGap:
      case Mode.Element:
        return this.arrayBytes(chunk, i);
      default:
        this.structure(chunk[i]!, this.offset + i);
        return i + 1;
    }
  }

  /** One byte of the top-level value's structure: its start, keys, colons, commas and end. */
  private structure(b: number, at: number): void {
    switch (this.mode) {
      case Mode.Start:
        if (isSpace(b)) return;
        if (b === LBRACE) {
          this.root = 'object';
          this.mode = Mode.ObjectKey;
        } else if (b === LBRACKET) {
          this.root = 'array';
          this.arrayKey = '';
          this.mode = Mode.ArrayGap;
        } else this.fail(at, `expected JSON ('{' or '['), found ${JSON.stringify(String.fromCharCode(b))}`);
        return;
      case Mode.ObjectKey:
        if (isSpace(b) || b === COMMA) return;
        if (b === QUOTE) {
          this.mode = Mode.InKey;
          this.keyStart = at;
          this.scan.escape = false;
        } else if (b === RBRACE) this.mode = Mode.Done;
        else this.fail(at, `expected a key in the top-level object, found ${JSON.stringify(String.fromCharCode(b))}`);
        return;
      case Mode.InKey:
        if (this.scan.escape) this.scan.escape = false;
        else if (b === BACKSLASH) this.scan.escape = true;
        else if (b === QUOTE) {
          this.key = this.parseText(this.pieces.text(this.keyStart, at + 1), this.keyStart) as string;
          this.mode = Mode.Colon;
        }
        return;
      case Mode.Colon:
        if (isSpace(b)) return;
        if (b === COLON) this.mode = Mode.ValueStart;
        else this.fail(at, `expected ':' after key "${this.key}"`);
        return;
      case Mode.AfterValue:
        if (isSpace(b)) return;
        if (b === COMMA) this.mode = Mode.ObjectKey;
        else if (b === RBRACE) this.mode = Mode.Done;
        else this.fail(at, `expected ',' or '}' after the value of "${this.key}"`);
        return;
      case Mode.Done:
        if (!isSpace(b) && b !== 0) this.fail(at, 'unexpected data after the end of the JSON value');
        return;
    }
  }

  /** After a key's `:`: a streamed array begins, or a value to capture whole. */
  private valueStarts(chunk: Uint8Array, i: number): number {
    const b = chunk[i]!;
    if (isSpace(b)) return i + 1;
    const streams = this.handlers.streams ? this.handlers.streams(this.key) : true;
    if (b === LBRACKET && streams) {
      this.arrayKey = this.key;
      this.mode = Mode.ArrayGap;
      return i + 1;
    }
    this.valueStart = this.offset + i;
    this.mode = Mode.Value;
    this.scan.depth = 0;
    this.scan.inString = false;
    this.scan.escape = false;
    return i; // read this byte again in Value mode
  }

  /** Inside a streamed array: elements guessed or scanned, up to its `]` or the chunk's end. */
  private arrayBytes(chunk: Uint8Array, i: number): number {
    const { scan } = this;
    const from = this.guess(chunk, i);
    const stop = scanElements(chunk, from, scan, this.offset, this.elemStarts, this.elemEnds);
    this.mode = scan.inElement ? Mode.Element : Mode.ArrayGap;
    if (stop < 0) return chunk.length;
    if (chunk[stop] === RBRACKET) {
      this.flush();
      this.mode = this.root === 'array' ? Mode.Done : Mode.AfterValue;
      return stop + 1;
    }
    return this.fail(this.offset + stop, `unexpected ${JSON.stringify(String.fromCharCode(chunk[stop]!))} between array elements`);
  }

  /** Keeps the bytes of the element, value or key still open, and refuses one past the limit. */
  private keepOpen(): void {
    const { mode, scan } = this;
    const open = mode === Mode.Element ? scan.elemStart : mode === Mode.Value ? this.valueStart : mode === Mode.InKey ? this.keyStart : -1;
    if (open < 0) return this.pieces.clear();
    this.pieces.trim(open);
    if (this.offset - open > MAX_JSON_VALUE_BYTES) {
      const what = mode === Mode.Element ? 'array element' : mode === Mode.Value ? `value of "${this.key.slice(0, 80)}"` : 'key';
      this.fail(
        open,
        `one JSON ${what} that starts here is longer than ${MAX_JSON_VALUE_BYTES / 1024 / 1024} MiB; no profile holds one that long, so the file is not read further`,
      );
    }
  }

  /** Parses elements [from, to) of the batch in one `JSON.parse`: their values, or undefined. */
  private parseBatch(from: number, to: number): unknown[] | undefined {
    const text = this.pieces.text(this.elemStarts[from]!, this.elemEnds[to - 1]!);
    try {
      const values = JSON.parse(`[${text}]`) as unknown[];
      return values.length === to - from ? values : undefined;
    } catch {
      return undefined;
    }
  }

  /** Hands elements [from, to) of the batch over, `values` being theirs. */
  private handOver(values: unknown[], from: number, to: number): void {
    const { elemStarts, elemEnds, handlers, arrayKey } = this;
    for (let i = from; i < to; i++) handlers.element(arrayKey, values[i - from], elemStarts[i]!, elemEnds[i]! - elemStarts[i]!);
  }

  /** Hands over the batch, in parses of about `BATCH_BYTES`. */
  private flush(): void {
    const { elemStarts, elemEnds } = this;
    const n = elemStarts.length;
    for (let from = 0; from < n;) {
      const to = this.batchEnd(from);
      let values = this.parseBatch(from, to);
      if (values === undefined) {
        // Find the element at fault so the message can say where.
        values = [];
        for (let i = from; i < to; i++) values.push(this.parseText(this.pieces.text(elemStarts[i]!, elemEnds[i]!), elemStarts[i]!));
      }
      this.handOver(values, from, to);
      from = to;
    }
    this.elemStarts = [];
    this.elemEnds = [];
  }

  /** The end of a run of elements from `from` of about `BATCH_BYTES`, at least one. */
  private batchEnd(from: number): number {
    const { elemStarts, elemEnds } = this;
    const n = elemStarts.length;
    const limit = elemStarts[from]! + BATCH_BYTES;
    let to = from + 1;
    while (to < n && elemEnds[to]! <= limit) to++;
    return to;
  }

  /**
   * In a streamed array at `chunk[from]`: finishes an element begun in an earlier chunk, then
   * takes the elements that follow by guessing (see `objectRun`) or, numbers, as they are (see
   * `readNumberRun`). Returns where the exact scan goes on: the start of the first element not
   * handed over.
   */
  private guess(chunk: Uint8Array, from: number): number {
    const { scan } = this;
    let j = from;
    if (scan.inElement) {
      const end = scanValue(chunk, j, scan);
      if (end < 0) return chunk.length;
      this.elemStarts.push(scan.elemStart);
      this.elemEnds.push(this.offset + end);
      scan.inElement = false;
      j = end;
    }
    this.flush();
    const start = runStart(chunk, j);
    if (start < 0) return this.numbers.run(chunk, j, this.offset, this.arrayKey);
    if (this.wrongGuesses >= MAX_WRONG_GUESSES + this.rightGuesses / 16) return start;
    return this.places ? this.guessElements(chunk, start) : this.guessEnds(chunk, start);
  }

  /** Guesses with places: every element's end is guessed, and checked (see `objectRun`). */
  private guessElements(chunk: Uint8Array, start: number): number {
    const cut = objectRun(chunk, start, this.offset, this.elemStarts, this.elemEnds, this.keys);
    if (cut < 0) return start;
    const n = this.elemStarts.length;
    for (let from = 0; from < n;) {
      const to = this.batchEnd(from);
      const values = this.parseBatch(from, to);
      if (!this.keys.confirms(values)) {
        // Handed over so far is right; the exact scan goes on from here.
        this.wrongGuesses++;
        const at = this.elemStarts[from]! - this.offset;
        this.elemStarts = [];
        this.elemEnds = [];
        return at;
      }
      this.handOver(values!, from, to);
      from = to;
    }
    this.rightGuesses++;
    this.elemStarts = [];
    this.elemEnds = [];
    return cut;
  }

  /**
   * Guesses without places: only the end of each run of about `BATCH_BYTES` is guessed; the
   * parse that succeeds proves it right (see `lastObjectEnd`).
   */
  private guessEnds(chunk: Uint8Array, start: number): number {
    for (;;) {
      const cut = lastObjectEnd(chunk, start, start + BATCH_BYTES, this.keys);
      if (cut < 0) return start;
      let values: unknown[];
      try {
        values = JSON.parse(`[${this.pieces.text(this.offset + start, this.offset + cut)}]`) as unknown[];
      } catch {
        this.wrongGuesses++;
        return start;
      }
      this.rightGuesses++;
      for (let i = 0; i < values.length; i++) {
        try {
          this.handlers.element(this.arrayKey, values[i], -1, -1);
        } catch (e) {
          if (!(e instanceof ImportError) || e.offset !== -1) throw e;
          // Where the element at fault begins, found by the exact scan of the run.
          const starts: number[] = [];
          scanElements(chunk.subarray(0, cut), start, freshScan(), this.offset, starts, []);
          throw new ImportError({ file: e.file, offset: starts[i] ?? this.offset + start, message: e.detail });
        }
      }
      const next = runStart(chunk, cut);
      if (next < 0) return cut;
      start = next;
    }
  }
}
