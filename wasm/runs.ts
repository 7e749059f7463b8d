// perf script: runs of frame lines met before, found where a run starts by their first bytes, so
// that a long capture's call chains are read once each, by comparing them with the run they
// repeat. (Without this index a run is found by reading it three times: to find where it ends,
// to hash it, and to compare it with the string of that hash.)
//
// Runs of at least HEAD bytes are kept in `buckets` by the hash of their first HEAD bytes; runs
// in one bucket are chained, the one found last first, through their own words in the table:
// 0 the hash of their head, 1 the next run in the bucket (its number + 1, 0: none), 2 how many
// lines they have.
import { allocZeroed, hashOf, same } from './memory';
import { keyCount, keyLength, keyOf, setWord, word } from './table';

/** Bytes of a run's head; shorter runs are found the other way. */
const HEAD: usize = 128;
/** Runs of a bucket compared before giving up (the run is then found the other way). */
const TRIES: i32 = 8;

let buckets: usize = 0;
let bucketMask: u32 = 0;
let indexed: u32 = 0;

/** Set by `knownRunAt`: the run's length and how many lines it has. */
export let foundBytes: usize = 0;
export let foundLines: i32 = 0;

function allocBuckets(n: u32): void {
  buckets = allocZeroed((<usize>n) << 2);
  bucketMask = n - 1;
}

export function resetRuns(): void {
  allocBuckets(256);
  indexed = 0;
}

function link(id: i32, h: u32): void {
  const b = buckets + ((<usize>(h & bucketMask)) << 2);
  setWord(id, 1, load<u32>(b));
  store<u32>(b, <u32>id + 1);
}

/**
 * Adds run `id`, the string `p[0, n)` of `lines` lines met for the first time, to the index
 * (when it is at least HEAD bytes long).
 */
export function indexRun(id: i32, p: usize, n: usize, lines: i32): void {
  if (n < HEAD) return;
  const h = hashOf(p, HEAD);
  setWord(id, 0, h);
  setWord(id, 2, <u32>lines);
  link(id, h);
  indexed++;
  if (indexed > bucketMask) {
    // twice the buckets, and every run indexed so far in them again
    allocBuckets((bucketMask + 1) << 1);
    const count = keyCount();
    for (let e: i32 = 0; e < count; e++) if (word(e, 2) != 0) link(e, word(e, 0));
  }
}

/**
 * The number of the run met before that the lines from `p` on are, or -1 when the index does
 * not tell (the lines may still be such a run). The run must end before `end` (so that where it
 * ends is seen: at a line that starts with neither a space nor a tab), in `\n`, and be at most
 * `cap` bytes long; `foundBytes` and `foundLines` are then its length and its lines.
 */
export function knownRunAt(p: usize, end: usize, cap: usize): i32 {
  if (end - p <= HEAD) return -1;
  const h = hashOf(p, HEAD);
  const b = buckets + ((<usize>(h & bucketMask)) << 2);
  let prev: i32 = -1;
  let v = load<u32>(b);
  for (let t: i32 = 0; v != 0 && t < TRIES; t++) {
    const id = <i32>(v - 1);
    const next = word(id, 1);
    if (word(id, 0) == h) {
      const n = keyLength(id);
      const k = keyOf(id);
      if (n < end - p && n <= cap && load<u8>(k + n - 1) == 10) {
        const after = load<u8>(p + n);
        if (after != 32 && after != 9 && same(k, p, n)) {
          if (prev >= 0) {
            // to the front of its bucket: captures repeat their hot chains
            setWord(prev, 1, next);
            setWord(id, 1, load<u32>(b));
            store<u32>(b, v);
          }
          foundBytes = n;
          foundLines = <i32>word(id, 2);
          return id;
        }
      }
    }
    prev = id;
    v = next;
  }
  return -1;
}
