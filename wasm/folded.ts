// Folded stacks (`a;b;c 12`): lines are found, their counts read, their stacks recognised, and
// new stacks walked down a call tree of the scanner's own.
import { alloc, commonPrefix, findNl, isDigit } from './memory';
import { AT_NODE, FRAME, KNOWN, NEW, NODE, OUT_CAP, SLOW } from './layout';
import { emit, emitAux, full, offsetOf, out, setNumbers, skipLine } from './records';
import { frameOf, newFrame, resetFrames } from './frames';
import { childOf, made, resetNodes } from './nodes';
import { STACK, find, hasRoom, insert, keyOf, setValue, valueOf } from './table';

// The stack walked last (its bytes kept in the table), where each of its frames ends (counted
// from its start) and the node each leads to: sorted folded output (what collapsers write)
// shares all but the last few frames with the line before, and those are not walked again.
const MAX_WALK: i32 = OUT_CAP / 2;
let prevPtr: usize = 0;
let prevLen: usize = 0;
let prevFrames: i32 = 0;
let prevEnds: usize = 0;
let prevNodes: usize = 0;

// Stacks are remembered so that a line met again is known from one look-up instead of a walk.
// Collapsers (stackcollapse-*.pl, `flamelens collapse`) write each stack once, though: there the
// remembered stacks are never met again and their bytes, as many as the file's, fill the budget
// the call tree needs, after which every line is left to the importer's much slower reading. So
// once `TRY_STACKS` new stacks have come with fewer than one line met again for `RARE` of them,
// or once the stacks remembered take `STACK_BYTES` of the budget, stacks are no longer
// remembered (nor looked up) and every line is walked; the last walked is copied to `spare`, for
// the next line's walk to compare with.
const TRY_STACKS: i32 = 16384;
const RARE: i32 = 4;
const STACK_BYTES: usize = 32 << 20;
export let remember = true;
let newStacks: i32 = 0;
let metAgain: i32 = 0;
let stackBytes: usize = 0;
let spare: usize = 0;
let spareCap: usize = 0;

export function resetFolded(): void {
  prevEnds = alloc((<usize>MAX_WALK) << 2);
  prevNodes = alloc((<usize>MAX_WALK) << 2);
  prevFrames = 0;
  remember = true;
  newStacks = 0;
  metAgain = 0;
  stackBytes = 0;
  spare = 0;
  spareCap = 0;
  resetNodes();
  resetFrames();
}

/** A copy of the stack `p[0, n)` that stays while the next line is read (see `spare`). */
function keepWalked(p: usize, n: usize): usize {
  if (n > spareCap) {
    spareCap = n > 4096 ? n * 2 : 8192;
    spare = alloc(spareCap);
  }
  memory.copy(spare, p, n);
  return spare;
}

/**
 * Reads the lines of `p[0, end)` (the last one too when `last`), writing records; returns where
 * it stopped. `stack count` lines whose count is 1 to 15 plain digits after a space or a tab are
 * AT_NODE (after the FRAME and NODE records a new stack needs), KNOWN or NEW; every other
 * non-empty line (a fraction, a long count, another kind of white space, no count at all) is
 * SLOW, for the importer to read as it reads any line.
 */
export function scanFolded(p: usize, end: usize, last: bool): usize {
  while (p < end) {
    if (out >= OUT_CAP) {
      full();
      break;
    }
    const nl = findNl(p, end);
    if (nl == end && !last) break;
    let e = nl;
    if (e > p && load<u8>(e - 1) == 13) e--;
    if (e == p) {
      skipLine();
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
    if (!remember) {
      // Every line is walked (see `remember`); one that is not surely a stack is the importer's.
      const frames = framesToWalk(p, p + stack);
      // (room for the nodes, and for its frames' labels, should they all be new)
      if (frames == 0 || !hasRoom(stack + 16 * <usize>frames)) {
        emit(SLOW, p, e, 0, 1);
        p = nl + 1;
        continue;
      }
      if (out + 2 * frames + 1 > OUT_CAP) {
        full();
        break;
      }
      const node = walk(p, p + stack, 0);
      readCount(q, e);
      emit(AT_NODE, p, e, node, 1);
      p = nl + 1;
      continue;
    }
    let id = find(p, stack, STACK);
    if (id >= 0) metAgain++;
    else {
      newStacks++;
      stackBytes += stack;
      if ((newStacks >= TRY_STACKS && metAgain * RARE < newStacks) || stackBytes > STACK_BYTES) remember = false;
      // A new stack is walked here when it surely is one, as the importer reads it (no line
      // break but \n in it, something visible), and its records fit this call.
      const frames = framesToWalk(p, p + stack);
      if (frames > 0) {
        if (out + 2 * frames + 1 > OUT_CAP) {
          full();
          break;
        }
        if (!hasRoom(2 * stack + 16 * <usize>frames)) {
          emit(SLOW, p, e, 0, 1);
          p = nl + 1;
          continue;
        }
      }
      // (nothing has been looked up since `find`: it is remembered where `find` stopped)
      id = insert(p, stack, STACK);
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
      setValue(id, walk(p, p + stack, keyOf(id)));
    }
    const node = valueOf(id);
    readCount(q, e);
    if (node >= 0) emit(AT_NODE, p, e, node, 1);
    else emit(KNOWN, p, e, id, 1);
    p = nl + 1;
  }
  return p < end ? p : end;
}

/** How many frames of the stack `p[0, e)` to walk here: `plainStack`'s, 0 past what one walk may take. */
function framesToWalk(p: usize, e: usize): i32 {
  const frames = plainStack(p, e);
  return frames > MAX_WALK - 1 ? 0 : frames;
}

/** The count `q[0, e)` (1 to 15 plain digits), given as the record's number. */
function readCount(q: usize, e: usize): void {
  let w: u64 = 0;
  for (let i = q; i < e; i++) w = w * 10 + <u64>(load<u8>(i) - 0x30);
  setNumbers(<f64>w, 0);
}

/**
 * How many frames the stack `p[0, e)` has when it surely is one as the importer reads it: it
 * holds a visible ASCII character and no line break (\r, U+2028, U+2029) or byte-order mark;
 * else 0 (the importer reads the line). Sixteen bytes at a time while none of them is \r or
 * could start a line break or a mark (0xe2, 0xef), then byte by byte.
 */
function plainStack(p: usize, e: usize): i32 {
  let frames: i32 = 1;
  let visible = false;
  let i = p;
  while (i + 16 <= e) {
    const v = v128.load(i);
    if (v128.any_true(v128.or(v128.or(i8x16.eq(v, i8x16.splat(13)), i8x16.eq(v, i8x16.splat(-17))), i8x16.eq(v, i8x16.splat(-30))))) break;
    frames += <i32>popcnt<u32>(<u32>i8x16.bitmask(i8x16.eq(v, i8x16.splat(59))));
    // visible: 33 to 126
    if (!visible) visible = v128.any_true(i8x16.lt_u(i8x16.sub(v, i8x16.splat(33)), i8x16.splat(94)));
    i += 16;
  }
  for (; i < e; i++) {
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

/**
 * Walks the stack `p[0, e)` (at most MAX_WALK frames, kept in the table at `kept`, or copied to
 * `spare` when `kept` is 0) down the call tree, its frames split at `;`; returns the node it leads to.
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
    const frame = frameOf(a, b - a);
    if (newFrame) emitAux(FRAME, offsetOf(a), offsetOf(b), frame);
    const node = childOf(parent, frame);
    if (made) emitAux(NODE, parent, frame, node);
    store<i32>(prevEnds + ((<usize>f) << 2), <i32>(b - p));
    store<i32>(prevNodes + ((<usize>f) << 2), node);
    f++;
    parent = node;
    more = b < e;
    a = b + 1;
  }
  prevPtr = kept != 0 ? kept : keepWalked(p, n);
  prevLen = n;
  prevFrames = f;
  return parent;
}
