/**
 * A hash map from pairs of non-negative int32 (merged parent id, key id) to a node id, in typed
 * arrays with open addressing. Aligning two 300,000-node trees does one lookup per node; a
 * `Map` keyed by `parent * keyCount + key` spends most of its time hashing heap numbers once the
 * product passes 2^31, this does not.
 */
export class PairMap {
  private first: Int32Array;
  private second: Int32Array;
  private value: Int32Array;
  private mask: number;
  private count = 0;

  constructor(expected = 16) {
    let cap = 16;
    while (cap < expected * 2) cap *= 2;
    this.first = new Int32Array(cap);
    this.second = new Int32Array(cap);
    this.value = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
  }

  get size(): number {
    return this.count;
  }

  private slot(a: number, b: number): number {
    let h = Math.imul(a ^ (a >>> 16), 0x45d9f3b) ^ Math.imul(b ^ (b >>> 15), 0x9e3779b1);
    h ^= h >>> 13;
    let i = h & this.mask;
    while (this.value[i] !== -1 && (this.first[i] !== a || this.second[i] !== b)) i = (i + 1) & this.mask;
    return i;
  }

  /** The value stored for (a, b), -1 when none. */
  get(a: number, b: number): number {
    return this.value[this.slot(a, b)]!;
  }

  /** Stores `v` (≥ 0) for (a, b). */
  set(a: number, b: number, v: number): void {
    const i = this.slot(a, b);
    if (this.value[i] === -1) {
      this.first[i] = a;
      this.second[i] = b;
      this.count++;
    }
    this.value[i] = v;
    if (this.count * 2 > this.value.length) this.grow();
  }

  private grow(): void {
    const { first, second, value } = this;
    const cap = value.length * 2;
    this.first = new Int32Array(cap);
    this.second = new Int32Array(cap);
    this.value = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
    for (let i = 0; i < value.length; i++) {
      if (value[i] === -1) continue;
      const j = this.slot(first[i]!, second[i]!);
      this.first[j] = first[i]!;
      this.second[j] = second[i]!;
      this.value[j] = value[i]!;
    }
  }
}
