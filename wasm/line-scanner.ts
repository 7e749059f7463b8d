// AssemblyScript, compiled to WebAssembly by scripts/build-wasm.mjs into
// shared/import/line-scanner-wasm.ts (the bytes, base64). What it does and why is told in
// shared/import/line-scanner.ts, which runs it: the text importers' lines are found, sorted and
// recognised here, on the bytes, so that a line or stack met before is never decoded again.
//
// Memory is managed by hand: one bump allocator (nothing is freed; an instance lives for one
// import), an input buffer the caller writes chunks into, a record area the caller reads, and a
// table of byte strings met before (folded stacks, perf frame-line runs), each with a number.

// Record kinds. Folded stacks:
const KNOWN: i32 = 0; // a `stack count` line whose stack was met before: arg = stack, weight
const NEW: i32 = 1; // the first line of a stack: arg = stack, start/end = the line
const SLOW: i32 = 2; // any other line: start/end = the line
const AT_NODE: i32 = 7; // a `stack count` line whose stack leads to node arg (see FRAME, NODE), weight
const FRAME: i32 = 8; // a frame label met for the first time: arg = frame, start/end = the label
const NODE: i32 = 9; // a call-tree node made: arg = node, start = its parent (-1: the root), end = its frame
// perf script:
const LINE: i32 = 3; // a line that is not a frame line of a run: start/end
const BLANK: i32 = 4; // an empty line
const RUN: i32 = 5; // consecutive indented lines: arg = run (-1: not remembered), start/end = their bytes, \n included
const HEADER: i32 = 6; // a line of a header shape: arg = shape, extra = digits after the point, weights = seconds, fraction

// What a remembered string is.
const STACK: u32 = 0;
const RUN_KEY: u32 = 1;
const LINE_KEY: u32 = 2;
const FRAME_KEY: u32 = 3;
const NODE_KEY: u32 = 4;

/** Records per `scan` call. */
const OUT_CAP: i32 = 4096;
/** Words (i32) per record: kind, start, end, arg, lines skipped before it, its own lines, extra, unused. */
const REC: i32 = 8;
/** Numbers (f64) per record. */
const NUMS: i32 = 2;
/** A run of frame lines is cut after this many bytes, to keep what is carried between chunks small. */
const RUN_CAP: usize = 256 * 1024;
/** Bytes of remembered strings; past them new strings are no longer remembered (memory stays bounded). */
const KEY_BUDGET: usize = 64 * 1024 * 1024;
/** Slack after every buffer, so that 16-byte loads near its end stay inside memory. */
const SLACK: usize = 16;

let top: usize = 0;
let mode: i32 = 0;

let buf: usize = 0;
let cap: usize = 0;
let pos: usize = 0;
let end: usize = 0;
/** lines consumed but not yet reported in a record */
let pending: i32 = 0;
/** the last `scan` stopped because the input ran out (not because the records were full) */
let hungry: i32 = 1;

let rec: usize = 0;
let wt: usize = 0;
/** perf script: for each line of the runs met for the first time, three words (line, start, end) */
let lineIds: usize = 0;
let lineOut: i32 = 0;

// perf script header shapes (see HeaderReader in shared/import/formats/perf-header.ts): a header
// line that is `head`, a time column and `tail` is a header met before at another time. Shape s
// is four words at `shapes + 16 s`: where its head is, its length, where its tail is, its length.
const SHAPES: i32 = 32;
const SHAPE_BYTES: usize = 64 * 1024;
let shapes: usize = 0;
let shapeCount: i32 = 0;
let shapeBytes: usize = 0;
let shapeUsed: usize = 0;

// The table: open addressing over `slots` (entry number + 1, 0 empty); entry e is eight words at
// `entries + 32 e`: hash, where its bytes are, how many, what they are (STACK, RUN_KEY, LINE_KEY,
// FRAME_KEY, NODE_KEY: a run of one line and that line are not the same string), and a value
// (a folded stack's node).
let slots: usize = 0;
let slotMask: u32 = 0;
let entries: usize = 0;
/** eight bytes for a key made here (a node's parent and frame) */
let scratch: usize = 0;
let entryCap: u32 = 0;
let count: u32 = 0;
let keyBytes: usize = 0;
let arena: usize = 0;
let arenaEnd: usize = 0;

function alloc(n: usize): usize {
  const at = (top + 15) & ~(15 as usize);
  const next = at + n + SLACK;
  const have = (<usize>memory.size()) << 16;
  if (next > have) {
    const pages = <i32>((next - have + 0xffff) >> 16);
    if (memory.grow(pages) < 0) unreachable();
  }
  top = next;
  return at;
}

function allocSlots(n: u32): void {
  slots = alloc((<usize>n) << 2);
  memory.fill(slots, 0, (<usize>n) << 2);
  slotMask = n - 1;
}

/** Starts an import: 0 folded stacks, 1 perf script. */
export function init(m: i32): void {
  mode = m;
  top = __heap_base;
  cap = 2 << 20;
  buf = alloc(cap);
  lineIds = alloc(cap << 3);
  pos = buf;
  end = buf;
  pending = 0;
  hungry = 1;
  rec = alloc((<usize>(OUT_CAP * REC)) << 2);
  wt = alloc((<usize>(OUT_CAP * NUMS)) << 3);
  shapes = alloc((<usize>SHAPES) << 4);
  shapeBytes = alloc(SHAPE_BYTES);
  shapeCount = 0;
  shapeUsed = 0;
  // small, so that even small files make the table grow (tests see that path)
  allocSlots(32);
  entryCap = 16;
  entries = alloc((<usize>entryCap) << 5);
  prevEnds = alloc((<usize>MAX_WALK) << 2);
  prevNodes = alloc((<usize>MAX_WALK) << 2);
  prevFrames = 0;
  scratch = alloc(16);
  count = 0;
  keyBytes = 0;
  arena = 0;
  arenaEnd = 0;
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

/** Where the caller writes the next `n` bytes; what is not read yet moves to the buffer's start. */
export function reserve(n: usize): usize {
  const keep = end - pos;
  if (keep + n > cap) {
    let c = cap << 1;
    while (c < keep + n) c <<= 1;
    const b = alloc(c);
    memory.copy(b, pos, keep);
    buf = b;
    cap = c;
    lineIds = alloc(cap << 3);
  } else if (pos > buf) memory.copy(buf, pos, keep);
  pos = buf;
  end = buf + keep;
  return end;
}

/** The caller wrote `n` bytes where `reserve` said. */
export function wrote(n: usize): void {
  end += n;
}

export function lines(): usize {
  return lineIds;
}
export function records(): usize {
  return rec;
}
export function weights(): usize {
  return wt;
}
export function base(): usize {
  return buf;
}
export function isHungry(): i32 {
  return hungry;
}
/** Lines read after the last record (at the end: empty lines that end the file). */
export function pendingLines(): i32 {
  return pending;
}
/** Bytes not read yet: a line longer than a chunk grows this. */
export function unread(): usize {
  return end - pos;
}

// ---------------------------------------------------------------------------------------------

/** Where the next `\n` at or after `p` is, before `e`; `e` when there is none. */
function findNl(p: usize, e: usize): usize {
  const nl = i8x16.splat(10);
  while (p + 16 <= e) {
    const m = i8x16.bitmask(i8x16.eq(v128.load(p), nl));
    if (m != 0) return p + <usize>ctz<u32>(<u32>m);
    p += 16;
  }
  while (p < e) {
    if (load<u8>(p) == 10) return p;
    p++;
  }
  return e;
}

function hashOf(p: usize, n: usize): u32 {
  // Four lanes of four words, 64 bytes a round: a multiply waits for the one before it in its
  // lane, so one lane alone would hash at a quarter of the speed.
  const k = i32x4.splat(0x01000193);
  let a = i32x4.splat(<i32>n);
  let b = i32x4.splat(0x3c6ef372);
  let c = i32x4.splat(0x5be0cd19);
  let d = i32x4.splat(0x1f83d9ab);
  const e = p + n;
  while (p + 64 <= e) {
    a = v128.xor(i32x4.mul(a, k), v128.load(p));
    b = v128.xor(i32x4.mul(b, k), v128.load(p, 16));
    c = v128.xor(i32x4.mul(c, k), v128.load(p, 32));
    d = v128.xor(i32x4.mul(d, k), v128.load(p, 48));
    p += 64;
  }
  while (p + 16 <= e) {
    a = v128.xor(i32x4.mul(a, k), v128.load(p));
    p += 16;
  }
  const h = v128.xor(v128.xor(a, i32x4.mul(b, k)), v128.xor(i32x4.mul(i32x4.mul(c, k), k), d));
  let x: u32 =
    (<u32>i32x4.extract_lane(h, 0)) ^
    rotl<u32>(<u32>i32x4.extract_lane(h, 1), 7) ^
    rotl<u32>(<u32>i32x4.extract_lane(h, 2), 14) ^
    rotl<u32>(<u32>i32x4.extract_lane(h, 3), 21);
  while (p < e) {
    x = (x ^ (<u32>load<u8>(p))) * 0x01000193;
    p++;
  }
  x ^= x >> 15;
  x *= 0x2c1b3c6d;
  x ^= x >> 12;
  return x;
}

function same(a: usize, b: usize, n: usize): bool {
  let i: usize = 0;
  while (i + 16 <= n) {
    if (v128.any_true(v128.xor(v128.load(a + i), v128.load(b + i)))) return false;
    i += 16;
  }
  while (i < n) {
    if (load<u8>(a + i) != load<u8>(b + i)) return false;
    i++;
  }
  return true;
}

function grow(): void {
  const n = (slotMask + 1) << 1;
  allocSlots(n);
  for (let e: u32 = 0; e < count; e++) {
    let s = load<u32>(entries + ((<usize>e) << 5)) & slotMask;
    while (load<u32>(slots + ((<usize>s) << 2)) != 0) s = (s + 1) & slotMask;
    store<u32>(slots + ((<usize>s) << 2), e + 1);
  }
}

/** Set by `lookup`: the string was not in the table (and is now, unless `lookup` returned -1). */
let fresh: bool = false;

// Where `find` stopped: the string's hash and the empty slot it would go to.
let lastHash: u32 = 0;
let lastSlot: u32 = 0;

/** The number of the string `p[0, n)` of `kind`, or -1 when it is not remembered. */
function find(p: usize, n: usize, kind: u32): i32 {
  const h = hashOf(p, n) ^ kind;
  let s = h & slotMask;
  for (;;) {
    const v = load<u32>(slots + ((<usize>s) << 2));
    if (v == 0) break;
    const at = entries + ((<usize>(v - 1)) << 5);
    if (load<u32>(at) == h && <usize>load<u32>(at + 8) == n && load<u32>(at + 12) == kind && same(<usize>load<u32>(at + 4), p, n))
      return <i32>(v - 1);
    s = (s + 1) & slotMask;
  }
  lastHash = h;
  lastSlot = s;
  return -1;
}

/** The number of the string `p[0, n)` of `kind`, remembered if new; -1 when new and the budget is spent. */
function lookup(p: usize, n: usize, kind: u32): i32 {
  const found = find(p, n, kind);
  if (found >= 0) {
    fresh = false;
    return found;
  }
  const h = lastHash;
  const s = lastSlot;
  fresh = true;
  if (keyBytes + n > KEY_BUDGET) return -1;
  if (arena + n > arenaEnd) {
    const size = n > 1 << 20 ? n : 1 << 20;
    arena = alloc(size);
    arenaEnd = arena + size;
  }
  memory.copy(arena, p, n);
  if (count == entryCap) {
    const e = alloc((<usize>entryCap) << 6);
    memory.copy(e, entries, (<usize>entryCap) << 5);
    entries = e;
    entryCap <<= 1;
  }
  const at = entries + ((<usize>count) << 5);
  store<i32>(at + 16, -1);
  store<u32>(at, h);
  store<u32>(at + 4, <u32>arena);
  store<u32>(at + 8, <u32>n);
  store<u32>(at + 12, kind);
  arena += n;
  keyBytes += n;
  store<u32>(slots + ((<usize>s) << 2), count + 1);
  count++;
  if (count << 1 > slotMask) grow();
  return <i32>(count - 1);
}

// ---------------------------------------------------------------------------------------------

let out: i32 = 0;

function emit(kind: i32, start: usize, stop: usize, arg: i32, own: i32): void {
  const r = rec + ((<usize>(out * REC)) << 2);
  store<i32>(r, kind);
  store<i32>(r, <i32>(start - buf), 4);
  store<i32>(r, <i32>(stop - buf), 8);
  store<i32>(r, arg, 12);
  store<i32>(r, pending, 16);
  store<i32>(r, own, 20);
  store<i32>(r, 0, 24);
  pending = 0;
  out++;
}

/**
 * Reads the complete lines in the buffer (all of it when `last`), writing records; returns how
 * many. Stops early when the records are full (`isHungry()` is then 0: call again).
 */
export function scan(last: i32): i32 {
  out = 0;
  lineOut = 0;
  hungry = 1;
  if (mode == 0) scanFolded(last != 0);
  else scanPerf(last != 0);
  return out;
}

function isDigit(c: u32): bool {
  return c - 0x30 < 10;
}

/**
 * Folded stacks: `stack count` lines whose count is 1 to 15 plain digits after a space or a tab
 * are KNOWN or NEW records; every other non-empty line (a fraction, a long count, another kind of
 * white space, no count at all) is SLOW, for the importer to read as it reads any line.
 */
function scanFolded(last: bool): void {
  let p = pos;
  while (p < end) {
    if (out >= OUT_CAP) {
      hungry = 0;
      break;
    }
    const nl = findNl(p, end);
    if (nl == end && !last) break;
    let e = nl;
    if (e > p && load<u8>(e - 1) == 13) e--;
    if (e == p) {
      pending++;
      p = nl + 1;
      continue;
    }
    let q = e;
    while (q > p && isDigit(load<u8>(q - 1))) q--;
    const digits = e - q;
    if (digits == 0 || digits > 15 || q == p || (load<u8>(q - 1) != 32 && load<u8>(q - 1) != 9)) {
      emit(SLOW, p, e, 0, 1);
      p = nl + 1;
      continue;
    }
    const stack = q - 1 - p;
    let id = find(p, stack, STACK);
    if (id < 0) {
      // A new stack is walked here when it surely is one, as the importer reads it (no line
      // break but \n in it, something visible), and its records fit this call.
      let frames = plainStack(p, p + stack);
      if (frames > MAX_WALK - 1) frames = 0;
      if (frames > 0) {
        if (out + 2 * frames + 1 > OUT_CAP) {
          hungry = 0;
          break;
        }
        if (keyBytes + 2 * stack + 16 * <usize>frames > KEY_BUDGET) {
          emit(SLOW, p, e, 0, 1);
          p = nl + 1;
          continue;
        }
      }
      id = lookup(p, stack, STACK);
      if (id < 0) {
        emit(SLOW, p, e, 0, 1);
        p = nl + 1;
        continue;
      }
      if (frames == 0) {
        emit(NEW, p, e, id, 1);
        p = nl + 1;
        continue;
      }
      // (walked first: the walk may move the entries)
      const leaf = walk(p, p + stack, <usize>load<u32>(entries + ((<usize>id) << 5) + 4));
      store<i32>(entries + ((<usize>id) << 5) + 16, leaf);
    }
    const node = load<i32>(entries + ((<usize>id) << 5) + 16);
    let w: u64 = 0;
    for (let i = q; i < e; i++) w = w * 10 + <u64>(load<u8>(i) - 0x30);
    store<f64>(wt + ((<usize>(out * NUMS)) << 3), <f64>w);
    if (node >= 0) emit(AT_NODE, p, e, node, 1);
    else emit(KNOWN, p, e, id, 1);
    p = nl + 1;
  }
  pos = p < end ? p : end;
}

/**
 * How many frames the stack `p[0, e)` has when it surely is one as the importer reads it: it
 * holds a visible ASCII character and no line break (\r, U+2028, U+2029) or byte-order mark;
 * else 0 (the importer reads the line).
 */
function plainStack(p: usize, e: usize): i32 {
  let frames: i32 = 1;
  let visible = false;
  for (let i = p; i < e; i++) {
    const c = load<u8>(i);
    if (c == 59) frames++;
    else if (c == 13) return 0;
    // a byte-order mark: the importer's reading of the file's first line drops it
    else if (c == 0xef && i + 2 < e && load<u8>(i + 1) == 0xbb && load<u8>(i + 2) == 0xbf) return 0;
    else if (c == 0xe2 && i + 2 < e && load<u8>(i + 1) == 0x80 && (load<u8>(i + 2) == 0xa8 || load<u8>(i + 2) == 0xa9)) return 0;
    else if (c > 32 && c < 127) visible = true;
  }
  return visible ? frames : 0;
}

// The stack walked last (its bytes kept in the table), where each of its frames ends (counted
// from its start) and the node each leads to: sorted folded output (what collapsers write)
// shares all but the last few frames with the line before, and those are not walked again.
const MAX_WALK: i32 = OUT_CAP / 2;
let prevPtr: usize = 0;
let prevLen: usize = 0;
let prevFrames: i32 = 0;
let prevEnds: usize = 0;
let prevNodes: usize = 0;

/** How many bytes `a[0, n)` and `b[0, n)` have in common from the start. */
function commonPrefix(a: usize, b: usize, n: usize): usize {
  let i: usize = 0;
  while (i + 16 <= n) {
    const m = <u32>i8x16.bitmask(i8x16.eq(v128.load(a + i), v128.load(b + i)));
    if (m != 0xffff) return i + <usize>ctz<u32>(~m);
    i += 16;
  }
  while (i < n && load<u8>(a + i) == load<u8>(b + i)) i++;
  return i;
}

/**
 * Walks the stack `p[0, e)` (at most MAX_WALK frames, kept in the table at `kept`) down the call
 * tree, its frames split at `;`; returns the node it leads to.
 */
function walk(p: usize, e: usize, kept: usize): i32 {
  const n = e - p;
  let shared: i32 = 0;
  if (prevFrames > 0) {
    const common = commonPrefix(p, prevPtr, n < prevLen ? n : prevLen);
    while (shared < prevFrames) {
      const end = <usize>load<i32>(prevEnds + ((<usize>shared) << 2));
      if (end < common) {
        shared++;
        continue;
      }
      if (end == common && (end == n || load<u8>(p + end) == 59) && (end == prevLen || load<u8>(prevPtr + end) == 59)) shared++;
      break;
    }
  }
  let parent: i32 = -1;
  let a = p;
  if (shared > 0) {
    parent = load<i32>(prevNodes + ((<usize>(shared - 1)) << 2));
    a = p + <usize>load<i32>(prevEnds + ((<usize>(shared - 1)) << 2)) + 1;
  }
  let f = shared;
  let more = a <= e;
  while (more) {
    let b = a;
    while (b < e && load<u8>(b) != 59) b++;
    const frame = lookup(a, b - a, FRAME_KEY);
    if (fresh) emitAux(FRAME, <i32>(a - buf), <i32>(b - buf), frame);
    store<i32>(scratch, parent);
    store<i32>(scratch, frame, 4);
    const node = lookup(scratch, 8, NODE_KEY);
    if (fresh) emitAux(NODE, parent, frame, node);
    store<i32>(prevEnds + ((<usize>f) << 2), <i32>(b - p));
    store<i32>(prevNodes + ((<usize>f) << 2), node);
    f++;
    parent = node;
    more = b < e;
    a = b + 1;
  }
  prevPtr = kept;
  prevLen = n;
  prevFrames = f;
  return parent;
}

/** A record of no line of its own (FRAME, NODE). */
function emitAux(kind: i32, start: i32, stop: i32, arg: i32): void {
  const r = rec + ((<usize>(out * REC)) << 2);
  store<i32>(r, kind);
  store<i32>(r, start, 4);
  store<i32>(r, stop, 8);
  store<i32>(r, arg, 12);
  store<i32>(r, 0, 16);
  store<i32>(r, 0, 20);
  store<i32>(r, 0, 24);
  out++;
}

/**
 * A RUN record for the lines `p[0, e)`. A run met for the first time gets its lines numbered
 * too (`extra`: where their words start in the line area; -1 for a run met before or when the
 * table is full), so that only the lines never met are read as text. A scan call reads at most
 * its buffer, whose lines (two bytes or more each) fit the line area.
 */
function emitRun(p: usize, e: usize, n: i32): void {
  const id = lookup(p, e - p, RUN_KEY);
  let words: i32 = -1;
  if (id >= 0 && fresh) {
    words = lineOut * 3;
    let q = p;
    for (let k = 0; k < n; k++) {
      const nl = findNl(q, e);
      let le = nl;
      if (le > q && load<u8>(le - 1) == 13) le--;
      const lid = lookup(q, le - q, LINE_KEY);
      if (lid < 0) {
        lineOut = words / 3;
        words = -1;
        break;
      }
      const at = lineIds + ((<usize>(lineOut * 3)) << 2);
      store<i32>(at, lid);
      store<i32>(at, <i32>(q - buf), 4);
      store<i32>(at, <i32>(le - buf), 8);
      lineOut++;
      q = nl + 1;
    }
  }
  const r = rec + ((<usize>(out * REC)) << 2);
  emit(RUN, p, e, id, n);
  store<i32>(r, words, 24);
}

let runEndLines: i32 = 0;

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
      const b = load<u8>(q + 1);
      if (b != 32 && b != 9) {
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

/**
 * perf script: empty lines are BLANK, consecutive frame lines (indented) one RUN, numbered when
 * the same bytes came before; every other line (headers, comments, anything odd) is a LINE. A run
 * is only reported once the line after it is there (or at the end), so a run cut by the end of
 * the buffer is read again with the next chunk.
 */
function scanPerf(last: bool): void {
  let p = pos;
  let runStart: usize = 0;
  let runLines: i32 = 0;
  while (p < end) {
    if (out + 2 > OUT_CAP) {
      hungry = 0;
      break;
    }
    // A run that came before, found as a whole: where it ends (the first line that does not
    // start with a blank) is found without reading it line by line, and its bytes are those of
    // a run read line by line before, which ended there too.
    const c = load<u8>(p);
    if (runLines == 0 && (c == 32 || c == 9)) {
      const re = runEnd(p, end);
      if (re != 0) {
        const id = find(p, re - p, RUN_KEY);
        if (id >= 0) {
          const r = rec + ((<usize>(out * REC)) << 2);
          emit(RUN, p, re, id, runEndLines);
          store<i32>(r, -1, 24);
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
        const r = rec + ((<usize>(out * REC)) << 2);
        store<f64>(wt + ((<usize>(out * NUMS)) << 3), timeSeconds);
        store<f64>(wt + ((<usize>(out * NUMS)) << 3), timeFraction, 8);
        emit(HEADER, p, e, shape, 1);
        store<i32>(r, timeDigits, 24);
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
  pos = p < end ? p : end;
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
