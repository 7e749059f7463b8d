// The line scanner's memory and the byte work everything else is made of. Memory is managed by
// hand: one bump allocator, nothing is ever freed (an instance lives for one import).

/** Slack after every block, so that 16-byte loads near its end stay inside memory. */
const SLACK: usize = 16;

let top: usize = 0;

/** Forgets every block (a new import). */
export function resetMemory(): void {
  top = __heap_base;
}

/** A block of `n` bytes, 16-byte aligned, the memory grown as needed. */
export function alloc(n: usize): usize {
  const at = (top + 15) & ~(15 as usize);
  const next = at + n + SLACK;
  const have = (<usize>memory.size()) << 16;
  if (next > have) {
    // by at least a quarter of what there is: growing page by page costs the engine a lot
    const need = <i32>((next - have + 0xffff) >> 16);
    const more = memory.size() >> 2;
    if (more <= need || memory.grow(more) < 0) if (memory.grow(need) < 0) unreachable();
  }
  top = next;
  return at;
}

/**
 * Makes the block at `at` of `n` bytes `m` bytes long when it is the last one made (nothing was
 * allocated after it), the memory grown as needed; false, and nothing done, when it is not.
 */
export function extendLast(at: usize, n: usize, m: usize): bool {
  if (top != at + n + SLACK) return false;
  alloc(m - n);
  top = at + m + SLACK;
  return true;
}

/** `alloc` of `n` bytes, all 0. */
export function allocZeroed(n: usize): usize {
  const at = alloc(n);
  memory.fill(at, 0, n);
  return at;
}

export function isDigit(c: u32): bool {
  return c - 0x30 < 10;
}

/** Where the next `\n` at or after `p` is, before `e`; `e` when there is none. */
export function findNl(p: usize, e: usize): usize {
  const nl = i8x16.splat(10);
  // 64 bytes a round while there is no line break in them (lines of folded stacks run to a few
  // kilobytes), then 16
  while (p + 64 <= e) {
    const any = v128.or(
      v128.or(i8x16.eq(v128.load(p), nl), i8x16.eq(v128.load(p, 16), nl)),
      v128.or(i8x16.eq(v128.load(p, 32), nl), i8x16.eq(v128.load(p, 48), nl)),
    );
    if (v128.any_true(any)) break;
    p += 64;
  }
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

/** A hash of the bytes `p[0, n)`. */
export function hashOf(p: usize, n: usize): u32 {
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
  // the rest four bytes a step (rotated, so that their high bits reach the low ones), then one
  while (p + 4 <= e) {
    x = rotl<u32>((x ^ load<u32>(p)) * 0x01000193, 15);
    p += 4;
  }
  while (p < e) {
    x = (x ^ (<u32>load<u8>(p))) * 0x01000193;
    p++;
  }
  x ^= x >> 15;
  x *= 0x2c1b3c6d;
  x ^= x >> 12;
  return x;
}

/**
 * Whether `a[0, n)` and `b[0, n)` hold the same bytes. What is left after whole blocks of 16 (or
 * a string shorter than that) is compared in two loads that overlap, not byte by byte.
 */
export function same(a: usize, b: usize, n: usize): bool {
  if (n < 16) {
    if (n >= 8) return load<u64>(a) == load<u64>(b) && load<u64>(a + n - 8) == load<u64>(b + n - 8);
    if (n >= 4) return load<u32>(a) == load<u32>(b) && load<u32>(a + n - 4) == load<u32>(b + n - 4);
    for (let i: usize = 0; i < n; i++) if (load<u8>(a + i) != load<u8>(b + i)) return false;
    return true;
  }
  let i: usize = 0;
  while (i + 64 <= n) {
    const d = v128.or(
      v128.or(v128.xor(v128.load(a + i), v128.load(b + i)), v128.xor(v128.load(a + i, 16), v128.load(b + i, 16))),
      v128.or(v128.xor(v128.load(a + i, 32), v128.load(b + i, 32)), v128.xor(v128.load(a + i, 48), v128.load(b + i, 48))),
    );
    if (v128.any_true(d)) return false;
    i += 64;
  }
  while (i + 16 <= n) {
    if (v128.any_true(v128.xor(v128.load(a + i), v128.load(b + i)))) return false;
    i += 16;
  }
  return i == n || !v128.any_true(v128.xor(v128.load(a + n - 16), v128.load(b + n - 16)));
}

/** How many bytes `a[0, n)` and `b[0, n)` have in common from the start. */
export function commonPrefix(a: usize, b: usize, n: usize): usize {
  let i: usize = 0;
  while (i + 16 <= n) {
    const m = <u32>i8x16.bitmask(i8x16.eq(v128.load(a + i), v128.load(b + i)));
    if (m != 0xffff) return i + <usize>ctz<u32>(~m);
    i += 16;
  }
  while (i < n && load<u8>(a + i) == load<u8>(b + i)) i++;
  return i;
}
