/**
 * A hash map from pairs of non-negative int32 (merged parent id, key id) to a node id, in one
 * typed array with open addressing. Aligning two 1,000,000-node trees does one lookup per node; a
 * `Map` keyed by `parent * keyCount + key` spends most of its time hashing heap numbers once the
 * product passes 2^31, this does not. Each slot keeps its pair and value side by side (three
 * consecutive int32), so that a probe touches one cache line instead of three arrays: the probes
 * land all over a table of tens of MB, and memory, not arithmetic, is what they cost.
 */
export class PairMap {
  /** slot i: [3i] first, [3i + 1] second, [3i + 2] value (-1: empty) */
  private slots: Int32Array;
  private mask: number;
  private count = 0;

  constructor(expected = 16) {
    let cap = 16;
    while (cap < expected * 2) cap *= 2;
    this.slots = PairMap.empty(cap);
    this.mask = cap - 1;
  }

  private static empty(cap: number): Int32Array {
    const s = new Int32Array(cap * 3);
    for (let i = 2; i < s.length; i += 3) s[i] = -1;
    return s;
  }

  get size(): number {
    return this.count;
  }

  /** Index into `slots` of (a, b)'s slot, or of the empty slot where it would go. */
  private slot(a: number, b: number): number {
    let h = Math.imul(a ^ (a >>> 16), 0x45d9f3b) ^ Math.imul(b ^ (b >>> 15), 0x9e3779b1);
    h ^= h >>> 13;
    const s = this.slots;
    const mask = this.mask;
    let i = h & mask;
    for (;;) {
      const at = i * 3;
      if (s[at + 2] === -1 || (s[at] === a && s[at + 1] === b)) return at;
      i = (i + 1) & mask;
    }
  }

  /** The value stored for (a, b), -1 when none. */
  get(a: number, b: number): number {
    return this.slots[this.slot(a, b) + 2]!;
  }

  /** Stores `v` (≥ 0) for (a, b). */
  set(a: number, b: number, v: number): void {
    const at = this.slot(a, b);
    const s = this.slots;
    if (s[at + 2] === -1) {
      s[at] = a;
      s[at + 1] = b;
      this.count++;
    }
    s[at + 2] = v;
    if (this.count * 2 > this.mask + 1) this.grow();
  }

  private grow(): void {
    const old = this.slots;
    const cap = (this.mask + 1) * 2;
    this.slots = PairMap.empty(cap);
    this.mask = cap - 1;
    const s = this.slots;
    for (let i = 0; i < old.length; i += 3) {
      if (old[i + 2] === -1) continue;
      const at = this.slot(old[i]!, old[i + 1]!);
      s[at] = old[i]!;
      s[at + 1] = old[i + 1]!;
      s[at + 2] = old[i + 2]!;
    }
  }
}
