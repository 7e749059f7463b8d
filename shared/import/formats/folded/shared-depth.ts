/**
 * How much of a line of folded stacks is the line before it: collapsers write sorted stacks,
 * which mostly share all but their last few frames, and those are not read again.
 */

/** Failed whole-prefix comparisons after which `sharedDepth` halves the range instead. */
const WALK_TRIES = 3;

/** Whether a frame may end `e` characters into the stack `text[start, start + len)`: at its end or at a `;`. */
function frameEndsAt(text: string, start: number, len: number, e: number): boolean {
  return e === len || (e < len && text.charCodeAt(start + e) === 0x3b);
}

/**
 * How many of the previous stack's first `depth` frames the stack `text[start, end)` begins with,
 * where the previous one is at `prevStart` in `prev` and its frame k ends `ends[k]` characters in.
 * A prefix shared up to frame k is shared up to every frame before it, and sorted output (what
 * collapsers write) mostly shares all but the last few frames. So frames are tried from the
 * deepest up, each first on a few characters (the frame ends where it did, and its first and last
 * characters agree), and only a likely one is confirmed by comparing the whole prefix, natively.
 * Should a few such comparisons fail (frames that look alike), the rest of the range is halved.
 */
export function sharedDepth(
  text: string,
  start: number,
  end: number,
  prev: string,
  prevStart: number,
  ends: readonly number[],
  depth: number,
): number {
  const len = end - start;
  let k = depth;
  for (let tries = 0; k > 0 && tries < WALK_TRIES; k--) {
    const e = ends[k - 1]!;
    const s = k > 1 ? ends[k - 2]! + 1 : 0;
    if (!frameEndsAt(text, start, len, e)) continue;
    if (
      e > s &&
      (text.charCodeAt(start + e - 1) !== prev.charCodeAt(prevStart + e - 1) ||
        text.charCodeAt(start + s) !== prev.charCodeAt(prevStart + s))
    )
      continue;
    if (text.slice(start, start + e) === prev.slice(prevStart, prevStart + e)) return k;
    tries++;
  }
  // shared up to `lo` frames (known), and not beyond `hi`
  let lo = 0;
  let hi = k;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    const e = ends[mid - 1]!;
    const f = lo > 0 ? ends[lo - 1]! : 0;
    if (frameEndsAt(text, start, len, e) && text.slice(start + f, start + e) === prev.slice(prevStart + f, prevStart + e)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
