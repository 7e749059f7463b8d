// The call tree of folded stacks as the scanner walks them: node n (0, 1, 2… in the order they
// are made) is the child of a parent node (-1: the root) for a frame (its number in the table).
// Found by (parent, frame) with open addressing over `slots`, four words each: the parent, the
// frame, the node + 1 (0: empty), unused. A table of its own, not strings of the table of
// strings: a lookup reads one slot, where that took a slot, an entry and the key's bytes.
import { allocZeroed } from './memory';
import { charge } from './table';

/** What a node takes of the budget of remembered bytes (its slot, and room to grow). */
const NODE_BYTES: usize = 16;

let slots: usize = 0;
let slotMask: u32 = 0;
let count: i32 = 0;

/** Set by `childOf`: the node was made by that call. */
export let made: bool = false;

function allocSlots(n: u32): void {
  slots = allocZeroed((<usize>n) << 4);
  slotMask = n - 1;
}

/** No nodes (a new import); small, so that even small files make the table grow. */
export function resetNodes(): void {
  allocSlots(32);
  count = 0;
}

function slotOf(parent: i32, frame: i32): u32 {
  let h = (<u32>parent * 0x9e3779b1) ^ ((<u32>frame + 0x7f4a7c15) * 0x85ebca77);
  h ^= h >> 15;
  return h * 0x2c1b3c6d;
}

function grow(): void {
  const old = slots;
  const oldCount = slotMask + 1;
  allocSlots(oldCount << 1);
  for (let i: u32 = 0; i < oldCount; i++) {
    const at = old + ((<usize>i) << 4);
    if (load<i32>(at, 8) == 0) continue;
    let s = slotOf(load<i32>(at), load<i32>(at, 4)) & slotMask;
    while (load<i32>(slots + ((<usize>s) << 4), 8) != 0) s = (s + 1) & slotMask;
    v128.store(slots + ((<usize>s) << 4), v128.load(at));
  }
}

/**
 * The child of `parent` for `frame`, made when new (`made`). The caller has made sure of the
 * room (`hasRoom`): this charges what it takes to the same budget.
 */
export function childOf(parent: i32, frame: i32): i32 {
  let s = slotOf(parent, frame) & slotMask;
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
  if ((<u32>count) << 1 > slotMask) grow();
  return count - 1;
}
