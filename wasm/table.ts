// The strings met before (folded stacks, their frames and call-tree nodes, perf frame-line runs,
// lines and symbols), each with a number: open addressing over `slots`, two words each (entry
// number + 1, 0 empty; its hash, so that a probe reads an entry only when the hashes agree);
// entry e is eight words at `entries + 32 e`: hash, where its bytes are, how many, what they are
// (a run of one line and that line are not the same string), a value (a stack's node), and three
// words its kind may use as it likes (`word`, `setWord`): a perf run its head's hash, the next
// run of its bucket and its line count (runs.ts); a perf frame line its columns (perf.ts).
import { alloc, allocZeroed, hashOf, same } from './memory';

export const STACK: u32 = 0;
export const RUN_KEY: u32 = 1;
export const LINE_KEY: u32 = 2;
export const FRAME_KEY: u32 = 3;
export const SYMBOL_KEY: u32 = 5;

/** Bytes of remembered strings; past them new strings are no longer remembered (memory stays bounded). */
const KEY_BUDGET: usize = 64 * 1024 * 1024;

let slots: usize = 0;
let slotMask: u32 = 0;
let entries: usize = 0;
let entryCap: u32 = 0;
let count: u32 = 0;
let keyBytes: usize = 0;
let arena: usize = 0;
let arenaEnd: usize = 0;

/** Set by `lookup`: the string was not in the table (and is now, unless `lookup` returned -1). */
export let fresh: bool = false;

// Where `find` stopped: the string's hash and the empty slot it would go to.
let lastHash: u32 = 0;
let lastSlot: u32 = 0;

function allocSlots(n: u32): void {
  slots = allocZeroed((<usize>n) << 3);
  slotMask = n - 1;
}

/** An empty table (a new import). */
export function resetTable(): void {
  // small, so that even small files make the table grow (tests see that path)
  allocSlots(32);
  entryCap = 16;
  entries = alloc((<usize>entryCap) << 5);
  count = 0;
  keyBytes = 0;
  arena = 0;
  arenaEnd = 0;
}

/** Counts `n` bytes remembered elsewhere (the scanner's call tree) against the same budget. */
export function charge(n: usize): void {
  keyBytes += n;
}

/** Whether strings of `n` bytes more may still be remembered. */
export function hasRoom(n: usize): bool {
  return keyBytes + n <= KEY_BUDGET;
}

/** Where the bytes of string `id` are kept. */
export function keyOf(id: i32): usize {
  return <usize>load<u32>(entries + ((<usize>id) << 5) + 4);
}

/** The value kept with string `id` (-1 until one is set). */
export function valueOf(id: i32): i32 {
  return load<i32>(entries + ((<usize>id) << 5) + 16);
}

export function setValue(id: i32, value: i32): void {
  store<i32>(entries + ((<usize>id) << 5) + 16, value);
}

/** How many bytes string `id` has. */
export function keyLength(id: i32): usize {
  return <usize>load<u32>(entries + ((<usize>id) << 5) + 8);
}

/** The number of strings remembered. */
export function keyCount(): i32 {
  return <i32>count;
}

/** Word `k` (0 to 2) of string `id`'s own words, 0 until set. */
export function word(id: i32, k: i32): u32 {
  return load<u32>(entries + ((<usize>id) << 5) + 20 + ((<usize>k) << 2));
}

export function setWord(id: i32, k: i32, v: u32): void {
  store<u32>(entries + ((<usize>id) << 5) + 20 + ((<usize>k) << 2), v);
}

function grow(): void {
  const old = slots;
  const oldCount = slotMask + 1;
  allocSlots(oldCount << 1);
  // from the old slots, in order (their hashes are there): no entry is read
  for (let i: u32 = 0; i < oldCount; i++) {
    const at = old + ((<usize>i) << 3);
    const v = load<u32>(at);
    if (v == 0) continue;
    const h = load<u32>(at, 4);
    let s = h & slotMask;
    while (load<u32>(slots + ((<usize>s) << 3)) != 0) s = (s + 1) & slotMask;
    store<u32>(slots + ((<usize>s) << 3), v);
    store<u32>(slots + ((<usize>s) << 3), h, 4);
  }
}

/** The number of the string `p[0, n)` of `kind`, or -1 when it is not remembered. */
export function find(p: usize, n: usize, kind: u32): i32 {
  const h = hashOf(p, n) ^ kind;
  let s = h & slotMask;
  for (;;) {
    const sp = slots + ((<usize>s) << 3);
    const v = load<u32>(sp);
    if (v == 0) break;
    if (load<u32>(sp, 4) == h) {
      const at = entries + ((<usize>(v - 1)) << 5);
      if (<usize>load<u32>(at + 8) == n && load<u32>(at + 12) == kind && same(<usize>load<u32>(at + 4), p, n)) return <i32>(v - 1);
    }
    s = (s + 1) & slotMask;
  }
  lastHash = h;
  lastSlot = s;
  return -1;
}

/** The number of the string `p[0, n)` of `kind`, remembered if new; -1 when new and the budget is spent. */
export function lookup(p: usize, n: usize, kind: u32): i32 {
  const found = find(p, n, kind);
  if (found >= 0) {
    fresh = false;
    return found;
  }
  return insert(p, n, kind);
}

/**
 * Remembers the string `p[0, n)` of `kind` that `find` (the table's last call) did not find,
 * where it stopped; returns its number (`fresh` is set), or -1 when the budget is spent.
 */
export function insert(p: usize, n: usize, kind: u32): i32 {
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
  store<u32>(at + 20, 0);
  store<u32>(at + 24, 0);
  store<u32>(at + 28, 0);
  store<u32>(at, h);
  store<u32>(at + 4, <u32>arena);
  store<u32>(at + 8, <u32>n);
  store<u32>(at + 12, kind);
  arena += n;
  keyBytes += n;
  store<u32>(slots + ((<usize>s) << 3), count + 1);
  store<u32>(slots + ((<usize>s) << 3), h, 4);
  count++;
  if (count << 1 > slotMask) grow();
  return <i32>(count - 1);
}
