/**
 * Time intervals and the wall-clock time they cover. Async resources in a Node trace live side
 * by side: a server with a thousand promises pending at once writes a thousand overlapping
 * `PROMISE` lifetimes, and their summed duration (1,297 s in a 4.8 s trace) says how many were
 * alive, not for how long any of them was. The time covered by at least one of them — the union
 * of the intervals — is the other figure a reader needs.
 *
 * An interval list is a `Float64Array` of `[start0, end0, start1, end1, …]` in microseconds.
 * `merged` lists are sorted by start, without overlaps or touching neighbours.
 */

/** Collects intervals as they come (in any order) and gives their union. */
export class IntervalCollector {
  private data = new Float64Array(16);
  private n = 0;
  private sorted = true;

  add(start: number, end: number): void {
    if (!(end > start)) return; // instants cover no time
    if (this.n + 2 > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    if (this.n > 0 && start < this.data[this.n - 2]!) this.sorted = false;
    this.data[this.n++] = start;
    this.data[this.n++] = end;
  }

  /** The union of what was added, merged. */
  merged(): Float64Array {
    return mergeIntervals(this.data.subarray(0, this.n), this.sorted);
  }
}

/** The union of an interval list (in any order) as a merged list. */
export function mergeIntervals(list: Float64Array, sortedByStart = false): Float64Array {
  const count = list.length >> 1;
  if (count === 0) return new Float64Array(0);
  let order: Uint32Array | undefined;
  if (!sortedByStart) {
    const starts = new Float64Array(count);
    for (let i = 0; i < count; i++) starts[i] = list[2 * i]!;
    order = new Uint32Array(count);
    for (let i = 0; i < count; i++) order[i] = i;
    order.sort((a, b) => starts[a]! - starts[b]!);
  }
  const out: number[] = [];
  let s = NaN;
  let e = NaN;
  for (let k = 0; k < count; k++) {
    const i = order ? order[k]! : k;
    const a = list[2 * i]!;
    const b = list[2 * i + 1]!;
    if (!(b > a)) continue;
    if (a <= e) {
      if (b > e) e = b;
      continue;
    }
    if (e === e) out.push(s, e);
    s = a;
    e = b;
  }
  if (e === e) out.push(s, e);
  return Float64Array.from(out);
}

/** The union of several merged lists, merged. */
export function unionOf(lists: readonly Float64Array[]): Float64Array {
  const nonEmpty = lists.filter((l) => l.length > 0);
  if (nonEmpty.length === 0) return new Float64Array(0);
  if (nonEmpty.length === 1) return nonEmpty[0]!;
  const all = new Float64Array(nonEmpty.reduce((n, l) => n + l.length, 0));
  let at = 0;
  for (const l of nonEmpty) {
    all.set(l, at);
    at += l.length;
  }
  return mergeIntervals(all);
}

/** The time a merged list covers. */
export function coveredTime(merged: Float64Array): number {
  let t = 0;
  for (let i = 0; i < merged.length; i += 2) t += merged[i + 1]! - merged[i]!;
  return t;
}
