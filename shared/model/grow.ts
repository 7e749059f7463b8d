/**
 * Append-only typed-array columns that double their capacity as they fill. Each starts empty and
 * takes its first capacity on the first push, so that the growing code has run before V8
 * optimizes a caller: code that has never run is left out of the optimized code, and the first
 * time it is needed V8 throws the optimized code away and compiles it again.
 *
 * Two classes, not one generic over the array type: importers push in their hottest loops, and a
 * class whose `data` is sometimes an Int32Array and sometimes a Float64Array makes every access
 * to it polymorphic, which V8 optimizes less well than one that always holds the same type.
 */
import { type BuildBudget, allocate } from './budget';

export class GrowInt32 {
  data = new Int32Array(0);
  length = 0;
  /** what the column's growth is charged to (see ./budget), when it is part of an import's model */
  budget: BuildBudget | undefined;
  /**
   * The array outgrown is given back as soon as it is copied (see `giveBack`), not at the next
   * full collection: only for a column whose `data` nobody holds across a push.
   */
  givesBack = false;
  constructor(private readonly capacity = 1024) {}
  push(v: number): number {
    if (this.length === this.data.length) {
      const n = Math.max(this.capacity, this.data.length * 2);
      const next = allocate(this.budget, (n - this.data.length) * 4, () => new Int32Array(n));
      next.set(this.data);
      if (this.givesBack) giveBack(this.data);
      this.data = next;
    }
    this.data[this.length] = v;
    return this.length++;
  }
  /** A right-sized copy. */
  finish(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

export class GrowFloat64 {
  data = new Float64Array(0);
  length = 0;
  budget: BuildBudget | undefined;
  /** as `GrowInt32.givesBack` */
  givesBack = false;
  constructor(private readonly capacity = 1024) {}
  push(v: number): number {
    if (this.length === this.data.length) {
      const n = Math.max(this.capacity, this.data.length * 2);
      const next = allocate(this.budget, (n - this.data.length) * 8, () => new Float64Array(n));
      next.set(this.data);
      if (this.givesBack) giveBack(this.data);
      this.data = next;
    }
    this.data[this.length] = v;
    return this.length++;
  }
  finish(): Float64Array {
    return this.data.slice(0, this.length);
  }
}

/**
 * Makes room for `more` values beyond `length` in one step (exactly that much, no doubling), so
 * that a column whose final size is known never holds spare capacity or a copy made while growing.
 */
function reserved<T extends Int32Array | Float64Array>(
  data: T,
  length: number,
  more: number,
  make: (n: number) => T,
  budget: BuildBudget | undefined,
): T {
  if (length + more <= data.length) return data;
  const next = allocate(budget, (length + more - data.length) * data.BYTES_PER_ELEMENT, () => make(length + more));
  next.set(data.subarray(0, length));
  return next;
}

/** Room for `more` pushes without growing. */
export function reserveInt32(g: GrowInt32, more: number): void {
  g.data = reserved(g.data, g.length, more, (n) => new Int32Array(n), g.budget);
}

export function reserveFloat64(g: GrowFloat64, more: number): void {
  g.data = reserved(g.data, g.length, more, (n) => new Float64Array(n), g.budget);
}

/**
 * The column's values, right-sized, and the column emptied: when it is exactly full (see
 * `reserveInt32`), its own array, not a copy, so that finishing a column never holds it twice.
 */
export function takeInt32(g: GrowInt32): Int32Array<ArrayBuffer> {
  const out = g.length === g.data.length ? g.data : new Int32Array(shrunk(g.data, g.length));
  g.data = new Int32Array(0);
  g.length = 0;
  return out;
}

export function takeFloat64(g: GrowFloat64): Float64Array<ArrayBuffer> {
  const out = g.length === g.data.length ? g.data : new Float64Array(shrunk(g.data, g.length));
  g.data = new Float64Array(0);
  g.length = 0;
  return out;
}

/** Values in the first piece of a `PiecedInt32`; later pieces grow with the column, up to `MAX_PIECE`. */
const MIN_PIECE = 1 << 16;
const MAX_PIECE = 1 << 20;

/**
 * An append-only Int32 column kept in pieces while it fills and made one array once, when taken:
 * for a column whose size is known only at its end (a long capture's sample nodes, 10 M of them).
 * A doubling column copies itself at every doubling and holds the old array beside the new one
 * (64 MB at 16 M capacity beside 32 MB), then copies again to its size; this one copies each
 * value once, and gives each piece back as soon as it is copied.
 */
export class PiecedInt32 {
  private readonly full: Int32Array[] = [];
  private piece = new Int32Array(0);
  private at = 0;
  length = 0;

  constructor(private readonly budget?: BuildBudget) {}

  /** The piece being filled, with room for at least one value from `filled` on. */
  current(): Int32Array {
    if (this.at === this.piece.length) {
      if (this.piece.length > 0) this.full.push(this.piece);
      const n = Math.min(MAX_PIECE, Math.max(MIN_PIECE, this.length));
      this.piece = allocate(this.budget, n * 4, () => new Int32Array(n));
      this.at = 0;
    }
    return this.piece;
  }

  /** Where in the current piece the next value goes. */
  get filled(): number {
    return this.at;
  }

  /** `n` values were written into the current piece from `filled` on. */
  wrote(n: number): void {
    this.at += n;
    this.length += n;
  }

  /** The values, one array of their number; the column is emptied. */
  take(): Int32Array<ArrayBuffer> {
    const out = allocate(this.budget, this.length * 4, () => new Int32Array(this.length));
    let o = 0;
    for (const p of [...this.full, this.piece.subarray(0, this.at)]) {
      out.set(p, o);
      o += p.length;
      // given back now, not at the next full collection
      giveBack(p);
    }
    this.full.length = 0;
    this.piece = new Int32Array(0);
    this.at = 0;
    this.length = 0;
    return out;
  }
}

/** `ArrayBuffer.prototype.transfer` (ES2024; the project's library types stop at ES2023). */
type MovableBuffer = ArrayBuffer & { transfer?(byteLength: number): ArrayBuffer };

/**
 * Gives an array's memory back to the system now, where the engine can (`transfer(0)` detaches
 * the buffer and frees its memory); else it waits for the collector. The array is empty after.
 */
export function giveBack(a: Int32Array | Float64Array): void {
  if (a.byteLength > 0 && a.buffer instanceof ArrayBuffer) (a.buffer as MovableBuffer).transfer?.(0);
}

/**
 * The first `length` values of a column's array in a buffer of their own size. Where the engine
 * has `ArrayBuffer.prototype.transfer`, the column's buffer is detached and its memory given back
 * at once: a copy by `slice` left it to the next full collection, and a long capture's node
 * column (10 M samples in a buffer grown to 16 M) held 40 MB twice through the rest of the import.
 */
function shrunk(data: Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer>, length: number): ArrayBuffer {
  const bytes = length * data.BYTES_PER_ELEMENT;
  const buffer = data.buffer as MovableBuffer;
  if (typeof buffer.transfer === 'function' && data.byteOffset === 0) return buffer.transfer(bytes);
  return data.buffer.slice(data.byteOffset, data.byteOffset + bytes);
}

/**
 * Numbers as a file gives them (ids, time deltas): in an Int32Array while every one is a 32-bit
 * integer (4 bytes each; a JavaScript array takes 8 and spare room as it grows), in a
 * Float64Array from the first that is not.
 */
export class GrowNumbers {
  private ints: GrowInt32 | undefined = new GrowInt32();
  private floats: GrowFloat64 | undefined;

  get length(): number {
    return this.ints ? this.ints.length : this.floats!.length;
  }

  push(v: number): void {
    const ints = this.ints;
    if (ints !== undefined && (v | 0) === v && !Object.is(v, -0)) {
      ints.push(v);
      return;
    }
    if (ints !== undefined) {
      const floats = new GrowFloat64(Math.max(1024, ints.length * 2));
      for (let i = 0; i < ints.length; i++) floats.push(ints.data[i]!);
      this.floats = floats;
      this.ints = undefined;
    }
    this.floats!.push(v);
  }

  at(i: number): number {
    return this.ints ? this.ints.data[i]! : this.floats!.data[i]!;
  }

  /** Lets go of the numbers. */
  clear(): void {
    this.ints = new GrowInt32();
    this.floats = undefined;
  }
}
