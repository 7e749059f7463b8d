// The call tree of folded stacks as the scanner walks them: node n (0, 1, 2… in the order they
// are made) is the child of a parent node (-1: the root) for a frame (its number in the table).
// Found by (parent, frame) with open addressing over `slots`, four words each: the parent, the
// frame, the node + 1 (0: empty), unused. A table of its own, not strings of the table of
// strings: a lookup reads one slot, where that took a slot, an entry and the key's bytes. The
// table doubles once three quarters of its slots are taken: at half, a file of 1,560,000 nodes
// took a table of 4,194,304 slots (64 MB) where 2,097,152 do.
import { alloc, allocZeroed, extendLast } from './memory';
import { charge } from './table';

/** What a node takes of the budget of remembered bytes (its slot, and room to grow). */
const NODE_BYTES: usize = 16;

/** Nodes a growth in place may leave to be placed after the others (see `grow`). */
const LATE_CAP: u32 = 4096;

let slots: usize = 0;
let slotMask: u32 = 0;
/** 32 − log2(the number of slots): a node's slot is the top bits of its hash */
let shift: u32 = 0;
let count: i32 = 0;
/** Bytes set aside at `slots` for the table, a part of them not yet its (see `grow`). */
let room: usize = 0;
let late: usize = 0;
let inPlace: i32 = 0;
let anew: i32 = 0;
let placedLate: i32 = 0;

/** Set by `childOf`: the node was made by that call. */
export let made: bool = false;

function setSlots(at: usize, n: u32): void {
  slots = at;
  slotMask = n - 1;
  shift = <u32>clz<u32>(n) + 1;
}

/** No nodes (a new import); small, so that even small files make the table grow. */
export function resetNodes(): void {
  late = allocZeroed((<usize>LATE_CAP) << 4);
  setSlots(allocZeroed(32 << 4), 32);
  room = 32 << 4;
  count = 0;
  inPlace = 0;
  anew = 0;
  placedLate = 0;
}

/**
 * For tests, how the table grew: 0, how many times where it was; 1, how many times into a new
 * table; 2, how many nodes were placed late (see `grow`).
 */
export function nodeTableGrowth(which: i32): i32 {
  return which == 0 ? inPlace : which == 1 ? anew : placedLate;
}

function slotOf(parent: i32, frame: i32): u32 {
  let h = (<u32>parent * 0x9e3779b1) ^ ((<u32>frame + 0x7f4a7c15) * 0x85ebca77);
  h ^= h >> 15;
  return (h * 0x2c1b3c6d) >> shift;
}

/** Puts the node in slot `at` (a copy of it) into the first empty slot from its own on. */
function place(at: usize): void {
  let s = slotOf(load<i32>(at), load<i32>(at, 4));
  while (load<i32>(slots + ((<usize>s) << 4), 8) != 0) s = (s + 1) & slotMask;
  v128.store(slots + ((<usize>s) << 4), v128.load(at));
}

/** How many nodes sit before their own slot, having wrapped around the end of the table. */
function wrapped(): u32 {
  let k: u32 = 0;
  for (let i: u32 = 0; i <= slotMask; i++) {
    const at = slots + ((<usize>i) << 4);
    if (load<i32>(at, 8) == 0) break;
    if (slotOf(load<i32>(at), load<i32>(at, 4)) > i) k++;
  }
  return k;
}

/**
 * Twice the slots. A node's slot is the top bits of its hash, so one whose slot was i has slot
 * 2i or 2i + 1 now. Where there is room for it (set aside when the table was made, or free
 * memory after it when it is the last block) the table grows where it is, with no second table
 * beside it and none left behind: the old slots are copied to the upper half, the lower half
 * emptied, and each node, in slot order, put in the first empty slot from its own on. That slot
 * is never past the one the node was read from (just emptied) unless its own slot is, which
 * happens only to a node that had wrapped around the end of the old table: those wait (`late`)
 * until every other is placed. Otherwise (or when more nodes wrapped than can wait) a new table
 * is made, with room for it to grow twice more, and the nodes placed in it from the old.
 */
function grow(): void {
  const n = slotMask + 1;
  const bytes = (<usize>n) << 4;
  if (wrapped() <= LATE_CAP && (bytes << 1 <= room || extendLast(slots, room, bytes << 1))) {
    if (bytes << 1 > room) room = bytes << 1;
    const upper = slots + bytes;
    memory.copy(upper, slots, bytes);
    memory.fill(slots, 0, bytes);
    setSlots(slots, n << 1);
    let waiting: u32 = 0;
    for (let j = n; j < n << 1; j++) {
      const at = slots + ((<usize>j) << 4);
      if (load<i32>(at, 8) == 0) continue;
      const home = slotOf(load<i32>(at), load<i32>(at, 4));
      if (home > j) {
        v128.store(late + ((<usize>waiting) << 4), v128.load(at));
        waiting++;
        v128.store(at, i32x4.splat(0));
        continue;
      }
      const node = v128.load(at);
      v128.store(at, i32x4.splat(0));
      let s = home;
      while (load<i32>(slots + ((<usize>s) << 4), 8) != 0) s++;
      v128.store(slots + ((<usize>s) << 4), node);
    }
    for (let k: u32 = 0; k < waiting; k++) place(late + ((<usize>k) << 4));
    inPlace++;
    placedLate += <i32>waiting;
    return;
  }
  const old = slots;
  anew++;
  // room for two growths more where it is: memory set aside and not yet written to is not taken
  // from the machine (it is only once written)
  room = bytes << 3;
  const at = alloc(room);
  memory.fill(at, 0, bytes << 1);
  setSlots(at, n << 1);
  for (let i: u32 = 0; i < n; i++) {
    const at = old + ((<usize>i) << 4);
    if (load<i32>(at, 8) != 0) place(at);
  }
}

/**
 * The child of `parent` for `frame`, made when new (`made`). The caller has made sure of the
 * room (`hasRoom`): this charges what it takes to the same budget.
 */
export function childOf(parent: i32, frame: i32): i32 {
  let s = slotOf(parent, frame);
  for (;;) {
    const at = slots + ((<usize>s) << 4);
    const v = load<i32>(at, 8);
    if (v == 0) break;
    if (load<i32>(at) == parent && load<i32>(at, 4) == frame) {
      made = false;
      return v - 1;
    }
    s = (s + 1) & slotMask;
  }
  const at = slots + ((<usize>s) << 4);
  store<i32>(at, parent);
  store<i32>(at, frame, 4);
  store<i32>(at, count + 1, 8);
  charge(NODE_BYTES);
  made = true;
  count++;
  if ((<u32>count) << 2 > slotMask * 3) grow();
  return count - 1;
}
