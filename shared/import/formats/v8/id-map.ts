/**
 * Node ids to indices, for the V8 formats: ids are almost always 1, 2, 3…, so they index a
 * typed array; an id that is negative, fractional or far beyond the others goes to a `Map` (and
 * stays there). A `Map` alone cost a tenth of the import of a big .cpuprofile.
 */
export class IdMap {
  private dense = new Int32Array(1024).fill(-1);
  private readonly sparse = new Map<number, number>();
  private denseCount = 0;

  get(id: number): number | undefined {
    if (Number.isInteger(id) && id >= 0 && id < this.dense.length) {
      const v = this.dense[id]!;
      if (v >= 0) return v;
    }
    return this.sparse.size === 0 ? undefined : this.sparse.get(id);
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  /** `value` must be a non-negative integer below 2^31. */
  set(id: number, value: number): void {
    if (Number.isInteger(id) && id >= 0 && !this.sparse.has(id)) {
      // The table grows while ids stay dense (at most ~8 slots per id so far), so that a few
      // huge ids cannot make it huge.
      if (id >= this.dense.length && id < 8 * (this.denseCount + 1024)) {
        let size = this.dense.length * 2;
        while (size <= id) size *= 2;
        const next = new Int32Array(size).fill(-1);
        next.set(this.dense);
        this.dense = next;
      }
      if (id < this.dense.length) {
        if (this.dense[id]! < 0) this.denseCount++;
        this.dense[id] = value;
        return;
      }
    }
    this.sparse.set(id, value);
  }

  /**
   * The typed array of the dense ids: index by id, -1 for an id it holds none for (it may still be
   * in the `Map`). Replaced as it grows: good until the next `set`.
   */
  get denseIndex(): Int32Array {
    return this.dense;
  }

  get sparseSize(): number {
    return this.sparse.size;
  }
}

/**
 * Ids to values through an `IdMap` and a value by index (a V8 node's call-tree node), once every
 * id is in the map: a dense id costs two reads of typed arrays, for the millions of ids of a
 * profile's `samples`, and no memory of its own.
 */
export class IdLookup {
  /** index by id, -1 for none (or an id only the map holds: see `get`) */
  private readonly dense: Int32Array;
  /** whether some ids are only in the map */
  private readonly sparse: boolean;

  constructor(
    private readonly index: IdMap,
    /** the value by index */
    private readonly values: Int32Array,
  ) {
    this.dense = index.denseIndex;
    this.sparse = index.sparseSize > 0;
  }

  /** The value of `id`, -1 when it has none. */
  get(id: number): number {
    const dense = this.dense;
    if (id >= 0 && id < dense.length && (id | 0) === id) {
      const i = dense[id]!;
      if (i >= 0) return this.values[i]!;
      if (!this.sparse) return -1;
    }
    const i = this.index.get(id);
    return i === undefined ? -1 : this.values[i]!;
  }
}
