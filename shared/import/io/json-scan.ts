/**
 * Byte scanners behind `streamJson` (./json-stream): they find where the elements of a streamed
 * array begin and end without decoding or parsing them. Two kinds:
 *
 * - exact (`scanValue`, `scanElements`): every byte passes, strings and nesting are tracked, and
 *   the scan can stop at any byte and go on in the next chunk;
 * - guessing (`objectRun`): for arrays of objects, the only shape whose files grow to gigabytes
 *   (trace events, `.cpuprofile` nodes), element ends are looked for with `indexOf` as the byte
 *   pattern `}` `,` `{` (white space allowed around the comma). A string or a nested array can
 *   hold that pattern too, so the caller checks every guess with `JSON.parse` before it is used
 *   (see `objectRun`), and scans exactly when a guess is wrong.
 */

export const SPACE = 0x20;
export const TAB = 0x09;
export const LF = 0x0a;
export const CR = 0x0d;
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const LBRACE = 0x7b;
export const RBRACE = 0x7d;
export const LBRACKET = 0x5b;
export const RBRACKET = 0x5d;

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

export function isSpace(b: number): boolean {
  return b === SPACE || b === LF || b === CR || b === TAB;
}

/** Where the scan stands when a chunk ends. */
export interface ScanState {
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
 * Every byte of every element the guessing scan cannot take passes here. Strings are skipped in
 * a loop of their own and other bytes sorted by a table, with the state in locals; a `switch` on
 * the reader's mode for each byte spent more time than JSON.parse itself.
 */
export function scanValue(chunk: Uint8Array, from: number, st: ScanState): number {
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
export function scanElements(chunk: Uint8Array, from: number, st: ScanState, base: number, starts: number[], ends: number[]): number {
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

/** Longest first key (in bytes) that `ElementKeys` tells apart; longer ones are not looked at. */
const MAX_KEY = 64;

/**
 * The end of a key that starts at `chunk[at]` (`"`): the index of its closing quote, or -1 unless
 * the key is plain printable ASCII of at most `MAX_KEY` bytes, whole in the chunk.
 */
function keyEnd(chunk: Uint8Array, at: number): number {
  if (chunk[at] !== QUOTE) return -1;
  const limit = Math.min(chunk.length, at + 2 + MAX_KEY);
  for (let i = at + 1; i < limit; i++) {
    const c = chunk[i]!;
    if (c === QUOTE) return i;
    if (c < 0x20 || c > 0x7e || c === BACKSLASH) return -1;
  }
  return -1;
}

function sameBytes(chunk: Uint8Array, from: number, key: Uint8Array): boolean {
  for (let i = 0; i < key.length; i++) if (chunk[from + i] !== key[i]) return false;
  return true;
}

function indexOfKey(list: Uint8Array[], chunk: Uint8Array, from: number, to: number): number {
  for (let k = 0; k < list.length; k++) {
    const key = list[k]!;
    if (key.length === to - from && sameBytes(chunk, from, key)) return k;
  }
  return -1;
}

/**
 * First keys of objects, which sharpen the guesses of `objectRun`: the elements of an array
 * mostly begin with the same key (`{"id":` for `.cpuprofile` nodes, `{"pid":` for Node's trace
 * events, `{"args":` for Chrome's), while objects nested in arrays inside them begin with others
 * (`"positionTicks":[{"line":129,"ticks":1},{"line":108,…}]` in nearly every node of a real
 * profile). A `}`,`{` whose next key is plain and not known to begin elements is passed over and
 * its key noted in `passed`: the guess then holds only if no guessed element begins with such a
 * key, which `confirms` checks on the parsed values. Keys only make guesses
 * better or worse, never wrong ones pass: a guess is always checked.
 */
export class ElementKeys {
  /** keys (bytes) known to begin elements */
  private readonly starting: Uint8Array[] = [];
  /** keys passed over in the current run, as bytes and as text */
  private readonly passedBytes: Uint8Array[] = [];
  readonly passed: string[] = [];

  /** Notes that an element begins with `key` (learnt from a guess found wrong). */
  learn(key: string): void {
    if (this.starting.length >= 16) return;
    const bytes = new Uint8Array(key.length);
    for (let i = 0; i < key.length; i++) bytes[i] = key.charCodeAt(i);
    this.starting.push(bytes);
  }

  /** Starts a run at the real start of an element, `chunk[at]` (`{`), and notes its key as one that begins elements. */
  begin(chunk: Uint8Array, at: number): void {
    this.passedBytes.length = 0;
    this.passed.length = 0;
    const end = keyEnd(chunk, at + 1);
    if (end >= 0 && indexOfKey(this.starting, chunk, at + 2, end) < 0 && this.starting.length < 16)
      this.starting.push(chunk.slice(at + 2, end));
  }

  /** Whether the object at `chunk[at]` (`{`) begins with a key known to begin elements. */
  known(chunk: Uint8Array, at: number): boolean {
    const end = keyEnd(chunk, at + 1);
    return end >= 0 && indexOfKey(this.starting, chunk, at + 2, end) >= 0;
  }

  /** Whether the object at `chunk[at]` (`{`) may be an element; false notes its key as passed over. */
  take(chunk: Uint8Array, at: number): boolean {
    const end = keyEnd(chunk, at + 1);
    if (end < 0 || indexOfKey(this.starting, chunk, at + 2, end) >= 0) return true;
    if (indexOfKey(this.passedBytes, chunk, at + 2, end) < 0) {
      this.passedBytes.push(chunk.slice(at + 2, end));
      this.passed.push(String.fromCharCode(...chunk.subarray(at + 2, end)));
    }
    return false;
  }

  /**
   * Whether the parsed values of a guessed run are what it should hold: objects none of which
   * begins with a key passed over. One that does is an element the guess took for a nested
   * object: its key is learnt as one that begins elements.
   */
  confirms(values: unknown[] | undefined): boolean {
    if (values === undefined) return false;
    for (const v of values) {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
      if (this.passed.length > 0 && firstKeyPassed(v, this.passed)) {
        for (const k in v) {
          this.learn(k);
          break;
        }
        return false;
      }
    }
    return true;
  }
}

/**
 * Whether `v` (an object) may begin with one of the `passed` keys: its first key is one of them,
 * or may not be its first in the text (V8 lists integer-like keys first).
 */
function firstKeyPassed(v: object, passed: string[]): boolean {
  for (const k in v) {
    const c = k.charCodeAt(0);
    return (c >= 0x30 && c <= 0x39) || passed.includes(k);
  }
  return false;
}

/** Where the next element begins after `chunk[from]` (between two elements), if it is an object: else -1. */
export function runStart(chunk: Uint8Array, from: number): number {
  const n = chunk.length;
  let j = from;
  while (j < n && isSpace(chunk[j]!)) j++;
  if (j < n && chunk[j] === COMMA) {
    j++;
    while (j < n && isSpace(chunk[j]!)) j++;
  }
  return j < n && chunk[j] === LBRACE ? j : -1;
}

/**
 * Guesses the elements of an array of objects from `chunk[from]` (between two elements): a `}`
 * followed by white space, `,`, white space and `{` is taken for the end of one element and the
 * start of the next, unless `keys` passes it over. Records the guessed elements as absolute
 * [start, end) in `starts` / `ends` and returns the index just after the last guessed end, or -1
 * when there is no guess (the next element is not an object, or no end of one is in the chunk);
 * what follows is left to the exact scan.
 *
 * A guess can be wrong (the pattern inside a string or a nested array) and must be checked: the
 * guessed span is right when `JSON.parse` of `[` + span + `]` succeeds — brackets balance and
 * strings close only at a real end of an element — and gives as many values as guessed, each an
 * object beginning with none of the keys passed over. For then every real boundary, being an
 * object's `}` then `,` then the next object's `{`, is among the guessed ones, and there are as
 * many of both.
 */
export function objectRun(chunk: Uint8Array, from: number, base: number, starts: number[], ends: number[], keys: ElementKeys): number {
  const n = chunk.length;
  const j = runStart(chunk, from);
  if (j < 0) return -1;
  keys.begin(chunk, j);
  let start = j;
  let cut = -1;
  let p = chunk.indexOf(RBRACE, j + 1);
  while (p >= 0) {
    let q = p + 1;
    // compact files (`},{`) take the first test; others skip white space
    if (chunk[q] !== COMMA) while (q < n && isSpace(chunk[q]!)) q++;
    if (q < n && chunk[q] === COMMA) {
      q++;
      if (chunk[q] !== LBRACE) while (q < n && isSpace(chunk[q]!)) q++;
      if (q < n && chunk[q] === LBRACE && keys.take(chunk, q)) {
        starts.push(base + start);
        ends.push(base + p + 1);
        cut = p + 1;
        start = q;
        p = chunk.indexOf(RBRACE, q + 1);
        continue;
      }
    }
    p = chunk.indexOf(RBRACE, p + 1);
  }
  return cut;
}

/**
 * The last guessed end of an element of an array of objects whose first element begins at
 * `chunk[start]` (see `objectRun`), before index `before` if there is one: the index after its
 * `}`, or -1. Only the end is guessed, not the elements before it, for readers that need no
 * element's place: the guess is right when `JSON.parse` of `[` + span + `]` succeeds, however
 * many elements it gives. Only an object that begins with a known key is taken for the next
 * element, so that the guess is rarely wrong.
 */
export function lastObjectEnd(chunk: Uint8Array, start: number, before: number, keys: ElementKeys): number {
  const n = chunk.length;
  keys.begin(chunk, start);
  const cut = lastObjectEndBefore(chunk, start, before, keys);
  // an element longer than `before - start`: its end, wherever it is in the chunk
  return cut < 0 && before < n ? lastObjectEndBefore(chunk, start, n, keys) : cut;
}

function lastObjectEndBefore(chunk: Uint8Array, start: number, before: number, keys: ElementKeys): number {
  const n = chunk.length;
  for (let p = chunk.lastIndexOf(RBRACE, before - 1); p > start; p = chunk.lastIndexOf(RBRACE, p - 1)) {
    let q = p + 1;
    if (chunk[q] !== COMMA) while (q < n && isSpace(chunk[q]!)) q++;
    if (q >= n || chunk[q] !== COMMA) continue;
    q++;
    if (chunk[q] !== LBRACE) while (q < n && isSpace(chunk[q]!)) q++;
    if (q < n && chunk[q] === LBRACE && keys.known(chunk, q)) return p + 1;
  }
  return -1;
}
