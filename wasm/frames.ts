// The frame labels of folded stacks met so far, by their bytes: a few thousand, looked up once
// for each frame of each new stack, so kept in a small table of their own that stays in the
// processor's caches (in the table of strings they were among a stack's worth of entries each).
// Open addressing over `slots`, four words each: the label's hash, its number in the table of
// strings + 1 (0: empty), where its bytes are kept, how many. The bytes are kept here too, side by
// side (in the table of strings they lie among the stacks'), so that comparing a label with the
// one it may be reads memory that is in the caches.
import { alloc, allocZeroed, hashOf, same } from './memory';
import { FRAME_KEY, fresh, lookup } from './table';

let slots: usize = 0;
let slotMask: u32 = 0;
let count: u32 = 0;
let arena: usize = 0;
let arenaEnd: usize = 0;

/** Set by `frameOf`: the label was met for the first time. */
export let newFrame: bool = false;

function allocSlots(n: u32): void {
  slots = allocZeroed((<usize>n) << 4);
  slotMask = n - 1;
}

/** No labels (a new import). */
export function resetFrames(): void {
  allocSlots(32);
  count = 0;
  arena = 0;
  arenaEnd = 0;
}

/** A copy of `p[0, n)` among the other labels' bytes. */
function keep(p: usize, n: usize): usize {
  if (arena + n > arenaEnd) {
    const size = n > 1 << 16 ? n : 1 << 16;
    arena = alloc(size);
    arenaEnd = arena + size;
  }
  const at = arena;
  memory.copy(at, p, n);
  arena += n;
  return at;
}

function grow(): void {
  const old = slots;
  const oldCount = slotMask + 1;
  allocSlots(oldCount << 1);
  for (let i: u32 = 0; i < oldCount; i++) {
    const at = old + ((<usize>i) << 4);
    if (load<u32>(at, 4) == 0) continue;
    let s = load<u32>(at) & slotMask;
    while (load<u32>(slots + ((<usize>s) << 4), 4) != 0) s = (s + 1) & slotMask;
    v128.store(slots + ((<usize>s) << 4), v128.load(at));
  }
}

/**
 * The number of the label `p[0, n)` in the table of strings, remembered there if new
 * (`newFrame`); -1 when new and the table's budget is spent.
 */
export function frameOf(p: usize, n: usize): i32 {
  const h = hashOf(p, n);
  let s = h & slotMask;
  for (;;) {
    const at = slots + ((<usize>s) << 4);
    const v = load<u32>(at, 4);
    if (v == 0) break;
    if (load<u32>(at) == h && <usize>load<u32>(at, 12) == n && same(<usize>load<u32>(at, 8), p, n)) {
      newFrame = false;
      return <i32>(v - 1);
    }
    s = (s + 1) & slotMask;
  }
  const id = lookup(p, n, FRAME_KEY);
  newFrame = fresh;
  if (id < 0) return id;
  const at = slots + ((<usize>s) << 4);
  store<u32>(at, h);
  store<u32>(at, <u32>id + 1, 4);
  store<u32>(at, <u32>keep(p, n), 8);
  store<u32>(at, <u32>n, 12);
  count++;
  if (count << 1 > slotMask) grow();
  return id;
}
