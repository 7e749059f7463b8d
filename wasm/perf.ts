// perf script: empty lines, runs of indented frame lines (a sample's call chain) and other lines
// (headers, comments, anything odd); runs and header shapes met before are recognised, and the
// lines of new runs cut into symbol and dso column where they are plain frame lines.
import { alloc, findNl, isDigit, same } from './memory';
import { BLANK, HEADER, LINE, LINE_WORDS, OUT_CAP, RUN } from './layout';
import { emit, full, offsetOf, out, setNumbers } from './records';
import { LINE_KEY, RUN_KEY, SYMBOL_KEY, find, fresh, hasRoom, lookup, setValue, setWord, valueOf, word } from './table';
import { foundBytes, foundLines, indexRun, knownRunAt, resetRuns } from './runs';

/** A run of frame lines is cut after this many bytes, to keep what is carried between chunks small. */
const RUN_CAP: usize = 256 * 1024;

// Header shapes (see HeaderReader in shared/import/formats/perf/perf-header.ts): a header line that is
// `head`, a time column and `tail` is a header met before at another time. Shape s is four words
// at `shapes + 16 s`: where its head is, its length, where its tail is, its length.
const SHAPES: i32 = 32;
const SHAPE_BYTES: usize = 64 * 1024;
let shapes: usize = 0;
let shapeCount: i32 = 0;
let shapeBytes: usize = 0;
let shapeUsed: usize = 0;

/**
 * For each line of the runs met for the first time in a scan, `LINE_WORDS` (five) words: a plain
 * frame line's symbol key (see `frameColumns`), where its symbol starts and ends (without a
 * `+0x…` offset), where its dso column starts and ends; any other line's number, where it starts
 * and ends, -1, 0.
 */
let lineIds: usize = 0;
let lineOut: i32 = 0;
/** lines the line area has room for */
let lineCap: i32 = 0;
/** where a symbol key is put together (symbol, ` (`, dso column) to be looked up */
let scratch: usize = 0;
let scratchCap: usize = 0;

export function resetPerf(): void {
  wholeRuns = 0;
  resetRuns();
  scratch = 0;
  scratchCap = 0;
  shapes = alloc((<usize>SHAPES) << 4);
  shapeBytes = alloc(SHAPE_BYTES);
  shapeCount = 0;
  shapeUsed = 0;
  lineIds = 0;
  lineCap = 0;
}

/** Room in the line area for one more line, which grows as needed (what is in it moves along). */
function lineRoom(): void {
  if (lineOut < lineCap) return;
  const n = lineCap > 0 ? lineCap << 1 : 4096;
  const area = alloc(<usize>n * ((<usize>LINE_WORDS) << 2));
  if (lineOut > 0) memory.copy(area, lineIds, <usize>lineOut * ((<usize>LINE_WORDS) << 2));
  lineIds = area;
  lineCap = n;
}

export function lineWords(): usize {
  return lineIds;
}

/** Where the caller writes the bytes of a shape (head, then tail), or 0 when they do not fit. */
export function shapeSpace(n: usize): usize {
  return shapeCount < SHAPES && shapeUsed + n <= SHAPE_BYTES ? shapeBytes + shapeUsed : 0;
}

/** Adds the shape whose bytes the caller wrote at `shapeSpace`; returns its number. */
export function addShape(headLen: usize, tailLen: usize): i32 {
  const at = shapes + ((<usize>shapeCount) << 4);
  const head = shapeBytes + shapeUsed;
  store<u32>(at, <u32>head);
  store<u32>(at + 4, <u32>headLen);
  store<u32>(at + 8, <u32>(head + headLen));
  store<u32>(at + 12, <u32>tailLen);
  shapeUsed += headLen + tailLen;
  return shapeCount++;
}

/**
 * Reads the lines of `p[0, end)` (the last one too when `last`), writing records; returns where
 * it stopped. Empty lines are BLANK, consecutive frame lines (indented) one RUN, numbered when the
 * same bytes came before; a header of a known shape is HEADER; every other line is a LINE. A run
 * is only reported once the line after it is there (or at the end), so a run cut by the end of
 * the buffer is read again with the next chunk.
 */
export function scanPerf(p: usize, end: usize, last: bool): usize {
  lineOut = 0;
  let runStart: usize = 0;
  let runLines: i32 = 0;
  while (p < end) {
    if (out + 2 > OUT_CAP) {
      full();
      break;
    }
    // A run that came before, found as a whole: by the index of runs (runs.ts), or else by
    // finding where it ends (the first line that does not start with a blank) without reading
    // it line by line, its bytes then being those of a run read line by line before, which
    // ended there too.
    const c = load<u8>(p);
    if (runLines == 0 && (c == 32 || c == 9)) {
      const known = knownRunAt(p, end, RUN_CAP);
      if (known >= 0) {
        wholeRuns++;
        emit(RUN, p, p + foundBytes, known, foundLines, -1);
        p += foundBytes;
        continue;
      }
      const re = runEnd(p, end);
      if (re != 0) {
        const id = find(p, re - p, RUN_KEY);
        if (id >= 0) {
          wholeRuns++;
          emit(RUN, p, re, id, runEndLines, -1);
          p = re;
          continue;
        }
      }
    }
    const nl = findNl(p, end);
    if (nl == end && !last) break;
    let e = nl;
    if (e > p && load<u8>(e - 1) == 13) e--;
    const next = nl < end ? nl + 1 : end;
    if (e > p && isRunLine(p, e)) {
      if (runLines > 0 && next - runStart > RUN_CAP) {
        emitRun(runStart, p, runLines);
        runLines = 0;
      }
      if (runLines == 0) runStart = p;
      runLines++;
      p = next;
      continue;
    }
    if (runLines > 0) {
      emitRun(runStart, p, runLines);
      runLines = 0;
    }
    if (e == p) emit(BLANK, p, p, 0, 1);
    else {
      const shape = shapeCount > 0 ? shapeOf(p, e) : -1;
      if (shape >= 0) {
        setNumbers(timeSeconds, timeFraction);
        emit(HEADER, p, e, shape, 1, timeDigits);
      } else emit(LINE, p, e, 0, 1);
    }
    p = next;
  }
  if (runLines > 0) {
    if (last && p >= end) {
      emitRun(runStart, end, runLines);
      runLines = 0;
    } else p = runStart;
  }
  return p < end ? p : end;
}

/**
 * A RUN record for the lines `p[0, e)`. A run met for the first time gets its lines numbered
 * too (`extra`: where their words start in the line area; -1 for a run met before or when the
 * table is full), so that only what was never met is read as text: of a plain frame line, its
 * symbol and dso column, the first time they come (most lines differ from others only in their
 * address and offset); of any other line, the line.
 */
function emitRun(p: usize, e: usize, n: i32): void {
  const id = lookup(p, e - p, RUN_KEY);
  let words: i32 = -1;
  if (id >= 0 && fresh) {
    indexRun(id, p, e - p, n);
    words = lineOut * LINE_WORDS;
    let q = p;
    for (let k = 0; k < n; k++) {
      const nl = findNl(q, e);
      let le = nl;
      if (le > q && load<u8>(le - 1) == 13) le--;
      lineRoom();
      const at = lineIds + ((<usize>(lineOut * LINE_WORDS)) << 2);
      // The line as a whole: met before, it is what it was then (most lines of a new run are).
      let key = lookup(q, le - q, LINE_KEY);
      if (key >= 0 && fresh && le - q < 65536 && frameColumns(q, le)) {
        const symbol = symbolKey();
        // (a symbol past the table's budget: the line is read as text)
        if (symbol >= 0) {
          setValue(key, symbol);
          setWord(key, 0, (<u32>(symStart - q)) | ((<u32>(symEnd - q)) << 16));
          setWord(key, 1, (<u32>(dsoStart - q)) | ((<u32>(dsoEnd - q)) << 16));
        }
      }
      const sym = key >= 0 ? valueOf(key) : -1;
      if (sym >= 0) {
        // a plain frame line: its symbol's number, and its columns where they were in the line
        const symAt = word(key, 0);
        const dsoAt = word(key, 1);
        key = sym;
        store<i32>(at, offsetOf(q + (symAt & 0xffff)), 4);
        store<i32>(at, offsetOf(q + (symAt >>> 16)), 8);
        store<i32>(at, offsetOf(q + (dsoAt & 0xffff)), 12);
        store<i32>(at, offsetOf(q + (dsoAt >>> 16)), 16);
      } else {
        store<i32>(at, offsetOf(q), 4);
        store<i32>(at, offsetOf(le), 8);
        store<i32>(at, -1, 12);
        store<i32>(at, 0, 16);
      }
      if (key < 0) {
        lineOut = words / LINE_WORDS;
        words = -1;
        break;
      }
      store<i32>(at, key);
      lineOut++;
      q = nl + 1;
    }
  }
  emit(RUN, p, e, id, n, words);
}

function isSpace(c: u32): bool {
  return c == 32 || c - 9 < 5;
}

function isWord(c: u32): bool {
  return c - 48 < 10 || (c | 32) - 97 < 26 || c == 95;
}

// The columns `frameColumns` found.
let symStart: usize = 0;
let symEnd: usize = 0;
let symCut: usize = 0;
let dsoStart: usize = 0;
let dsoEnd: usize = 0;

/**
 * Whether the line `p[0, e)` is a plain frame line: blanks, an address (letters, digits, `_`),
 * blanks, a symbol, ` (`, a dso column without blanks or `)`, and `)` at its very end
 * (`\t    7f4d74061181 JS:^init node:events:347:29+0x481 (/tmp/perf-6394.map)`). Its columns
 * are then where `readFrame` (shared/import/formats/perf/perf-frame-line.ts) finds them, undamaged;
 * the symbol ends before a `+0x…` offset (lower-case hex), as `withoutOffset` cuts it. Any other
 * line (no symbol, a blank or `)` in the dso column, text after it) is left to the importer.
 */
function frameColumns(p: usize, e: usize): bool {
  let i = p;
  while (i < e && isSpace(load<u8>(i))) i++;
  let j = i;
  while (j < e && isWord(load<u8>(j))) j++;
  if (j == i) return false;
  let k = j;
  while (k < e && isSpace(load<u8>(k))) k++;
  if (e - k < 4 || load<u8>(e - 1) != 41) return false;
  // back from the `)` to the last ` (`, over bytes that may be in a dso column
  let x = e - 2;
  for (;;) {
    if (x < k + 2) return false;
    const c = load<u8>(x);
    if (c == 40 && load<u8>(x - 1) == 32) break;
    if (c == 41 || isSpace(c)) return false;
    x--;
  }
  // the symbol is `k[0, x - 1)`, not empty
  symStart = k;
  symCut = x - 1;
  dsoStart = x + 1;
  dsoEnd = e - 1;
  symEnd = symCut;
  let h = symCut;
  while (h > k && isHex(load<u8>(h - 1))) h--;
  if (h < symCut && h >= k + 3 && load<u8>(h - 1) == 120 && load<u8>(h - 2) == 48 && load<u8>(h - 3) == 43) symEnd = h - 3;
  return true;
}

function isHex(c: u32): bool {
  return c - 48 < 10 || c - 97 < 6;
}

/** The number of the key `symbol (dso` of the columns `frameColumns` found; -1 when the table is full. */
function symbolKey(): i32 {
  const dso = dsoEnd - symCut;
  if (symEnd == symCut) return lookup(symStart, symCut - symStart + dso, SYMBOL_KEY);
  const sym = symEnd - symStart;
  // (a key past the table's budget is not remembered: not put together either)
  if (!hasRoom(sym + dso)) return -1;
  if (sym + dso > scratchCap) {
    scratchCap = (sym + dso) << 1;
    scratch = alloc(scratchCap);
  }
  memory.copy(scratch, symStart, sym);
  memory.copy(scratch + sym, symCut, dso);
  return lookup(scratch, sym + dso, SYMBOL_KEY);
}

let runEndLines: i32 = 0;
/** runs recognised whole (a figure for tests: reading a run line by line ends the same) */
export let wholeRuns: i32 = 0;

/**
 * Where the lines from `p` on stop starting with a space or a tab: just after the first `\n`
 * followed by another byte, before `e` and at most RUN_CAP bytes on; 0 when there is none. The
 * lines up to there are counted into `runEndLines`.
 */
function runEnd(p: usize, e: usize): usize {
  const nl = i8x16.splat(10);
  const space = i8x16.splat(32);
  const tab = i8x16.splat(9);
  const stop = e - p > RUN_CAP ? p + RUN_CAP : e - 1;
  let lines: i32 = 0;
  let q = p;
  while (q + 16 <= stop) {
    const m = <u32>i8x16.bitmask(i8x16.eq(v128.load(q), nl));
    if (m != 0) {
      const after = v128.load(q + 1);
      const blank = <u32>i8x16.bitmask(v128.or(i8x16.eq(after, space), i8x16.eq(after, tab)));
      const ends = m & ~blank;
      if (ends != 0) {
        const i = ctz<u32>(ends);
        runEndLines = lines + <i32>popcnt<u32>(m & ((2 << i) - 1));
        return q + <usize>i + 1;
      }
      lines += <i32>popcnt<u32>(m);
    }
    q += 16;
  }
  while (q < stop) {
    if (load<u8>(q) == 10) {
      lines++;
      const c = load<u8>(q + 1);
      if (c != 32 && c != 9) {
        runEndLines = lines;
        return q + 1;
      }
    }
    q++;
  }
  return 0;
}

/** A frame line of a run: it starts with a space or a tab and holds something past them. */
function isRunLine(p: usize, e: usize): bool {
  let c = load<u8>(p);
  if (c != 32 && c != 9) return false;
  while (p < e) {
    c = load<u8>(p);
    if (c != 32 && c != 9) return c > 32;
    p++;
  }
  return false;
}

let timeSeconds: f64 = 0;
let timeFraction: f64 = 0;
let timeDigits: i32 = 0;

/**
 * The shape of the header line `p[0, e)`, or -1: its head, a time column (`3314.846058:`, at
 * most 15 digits either side of the point, as HeaderReader reads it exactly) and its tail.
 */
function shapeOf(p: usize, e: usize): i32 {
  for (let s = 0; s < shapeCount; s++) {
    const at = shapes + ((<usize>s) << 4);
    const head = <usize>load<u32>(at);
    const headLen = <usize>load<u32>(at + 4);
    const tail = <usize>load<u32>(at + 8);
    const tailLen = <usize>load<u32>(at + 12);
    if (e - p <= headLen + tailLen) continue;
    if (!same(head, p, headLen) || !same(tail, e - tailLen, tailLen)) continue;
    if (readTime(p + headLen, e - tailLen)) return s;
  }
  return -1;
}

/** Whether `p[0, e)` is `digits[.digits]:`, each part of 1 to 15 digits; sets the time* globals. */
function readTime(p: usize, e: usize): bool {
  let i = p;
  let seconds: u64 = 0;
  while (i < e && isDigit(load<u8>(i))) seconds = seconds * 10 + <u64>(load<u8>(i++) - 0x30);
  const dot = i;
  if (dot == p || dot == e || dot - p > 15) return false;
  let frac: u64 = 0;
  let digits: i32 = 0;
  if (load<u8>(i) == 46) {
    i++;
    while (i < e && isDigit(load<u8>(i))) frac = frac * 10 + <u64>(load<u8>(i++) - 0x30);
    if (i == dot + 1 || i - dot - 1 > 15) return false;
    digits = <i32>(i - dot - 1);
  }
  if (i != e - 1 || load<u8>(i) != 58) return false;
  timeSeconds = <f64>seconds;
  timeFraction = <f64>frac;
  timeDigits = digits;
  return true;
}
