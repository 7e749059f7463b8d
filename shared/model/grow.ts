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

export class GrowInt32 {
  data = new Int32Array(0);
  length = 0;
  constructor(private readonly capacity = 1024) {}
  push(v: number): number {
    if (this.length === this.data.length) {
      const next = new Int32Array(Math.max(this.capacity, this.data.length * 2));
      next.set(this.data);
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
  constructor(private readonly capacity = 1024) {}
  push(v: number): number {
    if (this.length === this.data.length) {
      const next = new Float64Array(Math.max(this.capacity, this.data.length * 2));
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length] = v;
    return this.length++;
  }
  finish(): Float64Array {
    return this.data.slice(0, this.length);
  }
}
