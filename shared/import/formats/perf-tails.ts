/**
 * What the `perf script` reader (perf-script.ts) remembers of the frame lines it has read, so that
 * a long capture, which repeats the same few thousand lines, is mostly not read line by line: a
 * line met before pushes the frames it pushed then, and when the rest of its sample (its callers,
 * down to the root) is the same text as the last time, all of that is taken at once. Only a cache:
 * what a file imports to never depends on it.
 */
import { detached } from '../../model/builders';

// What is remembered here is made with `new` (classes, `new Array`), not with literals: V8 keeps
// watch over where literals are made, and once most of them outlive a few collections (as
// remembered entries do) it throws away the optimized code of every function that makes them,
// to compile it again with another way of allocating; that happened in the first megabytes of a
// file, to the functions that read every line. (The same holds for TextTable's entries.)

/** A frame line met before: the frames it pushed and whether it was damaged. */
export class SeenLine {
  /**
   * The rest of the sample after this line the last few times it went on differently (its
   * callers down to the root: from this line's `\n` to the last frame line's end), the one that
   * was there again most recently first. When the text after this line is one of them again, all
   * of it is taken at once: stacks share their lower frames (`uv_run`, `main`…) from sample to
   * sample, and a leaf function is called from a few places.
   */
  tails: SeenTail[] | undefined = undefined;
  /** how often a tail was there again, and not */
  tailHits = 0;
  tailMisses = 0;
  /** none was there the last time: the rest of that sample is noted when it ends */
  missed = false;
  /** a line whose callers vary more than a few tails can follow notes no more */
  closed = false;

  constructor(
    readonly ids: number | number[],
    readonly damaged: boolean,
  ) {}
}

export class SeenTail {
  /** the call-tree node these frames lead to from the root frame `root` (-1: not known yet) */
  node = -1;
  root = -1;

  constructor(
    /** the text (a slice of one copy that the tails noted with it share) */
    readonly text: string,
    /** the frames it pushes: `ids[from]` on (an array shared with the tails noted with it) */
    readonly ids: number[],
    readonly from: number,
    readonly lines: number,
    readonly damaged: number,
    /** the first damaged line, counted from this one (1: the next line) */
    readonly firstDamaged: number,
  ) {}
}

/**
 * The frames a run of frame lines pushed (leaf first), its damaged lines and the first of them
 * (counted from its first line, 0 the first), and the node the stack made of it alone leads to
 * from the root frame `root` (-1: not known yet). For the runs the line scanner numbers.
 */
export class RunFrames {
  node = -1;
  root = -1;

  constructor(
    /** (a typed array: off the heap the collector walks) */
    readonly ids: Int32Array,
    readonly damaged: number,
    readonly firstDamaged: number,
  ) {}
}

/** Tails a line keeps: the least recently there again makes way for a new one. */
const TAILS = 4;
/** Bytes (about) all remembered tails may take together. */
const TAIL_BUDGET = 64 * 1024 * 1024;

/** Whether the rest of the sample is to be noted as a tail of `seen`. */
function wantsTail(seen: SeenLine): boolean {
  return !seen.closed && (seen.tails === undefined || seen.missed);
}

/**
 * The frame lines of the sample being read, to note their tails when the sample ends: their
 * entries, where each line's `\n` is and the stack height after it. `tailable` stays true while
 * all of them are remembered lines of one text. Counters rather than emptied arrays: setting an
 * array's length is a call into the runtime, once per sample.
 */
export class SampleLines {
  tailable = false;
  /** a tail taken at once ends the sample's lines: the tail, and the stack height after it */
  taken: SeenTail | undefined;
  takenEnd = -1;
  private text = '';
  private count = 0;
  private readonly seen: SeenLine[] = [];
  private readonly nl: number[] = [];
  private readonly height: number[] = [];
  private readonly damagedAfter: number[] = [];
  private readonly firstDamagedAfter: number[] = [];
  private budget = TAIL_BUDGET;

  reset(): void {
    this.tailable = true;
    this.text = '';
    this.count = 0;
    this.taken = undefined;
    this.takenEnd = -1;
  }

  /** A frame line of `text` whose `\n` is at `nl`, the stack `height` frames high after it. */
  note(seen: SeenLine | undefined, text: string, nl: number, height: number): void {
    if (!this.tailable) return;
    // written every time, not only when it turns false: see GrowInt32
    const tailable = seen !== undefined && (this.count === 0 || text === this.text) && this.taken === undefined;
    this.tailable = tailable;
    if (!tailable) return;
    const i = this.count++;
    this.text = text;
    // within the arrays or pushed: a write past their end makes V8 drop optimized code
    if (i < this.seen.length) {
      this.seen[i] = seen;
      this.nl[i] = nl;
      this.height[i] = height;
    } else {
      this.seen.push(seen);
      this.nl.push(nl);
      this.height.push(height);
    }
  }

  /**
   * When the text after the remembered line `seen` (whose `\n` is at `nl`) is one of its tails
   * again, returns the tail (the caller pushes its frames and goes on after it) and notes it as
   * taken. A line that misses much more often than it hits stops noting tails.
   */
  take(seen: SeenLine, text: string, nl: number, height: number): SeenTail | undefined {
    const tails = seen.tails;
    if (tails === undefined) return undefined;
    for (let k = 0; k < tails.length; k++) {
      const tail = tails[k]!;
      const stop = nl + tail.text.length;
      // The `\n` first: a tail of another length is rejected without a comparison. (Reads stay
      // within the text: one past its end would make V8 drop the optimized code of the caller.)
      if (stop < text.length && text.charCodeAt(stop) === 10 && text.slice(nl, stop) === tail.text) {
        if (k > 0) {
          tails[k] = tails[0]!;
          tails[0] = tail;
        }
        seen.tailHits++;
        seen.missed = false;
        this.taken = tail;
        this.takenEnd = height + tail.ids.length - tail.from;
        return tail;
      }
    }
    seen.missed = true;
    if (++seen.tailMisses > 2 * seen.tailHits + 2 * TAILS) seen.closed = true;
    return undefined;
  }

  /**
   * Notes a tail for every line of the finished sample that wants one (it has none, or none was
   * there this time, and it has not stopped noting them); `stack` holds the
   * sample's frames, leaf first, `height` of them. The text from the first such line on is
   * copied once (a slice of a line would keep its whole chunk alive) and each tail is a slice of
   * that copy: one copy per sample, not one per line.
   */
  noteTails(stack: readonly number[], height: number): void {
    const n = this.count;
    if (!this.tailable || n === 0) return;
    const seen = this.seen;
    // the first line that wants a tail (every line looked at: an index counted up only when the
    // first does not would be code V8 meets late, and recompiles for)
    let first = -1;
    for (let i = n - 2; i >= 0; i--) if (wantsTail(seen[i]!)) first = i;
    if (first < 0) return;
    // The last part, when it was taken at once (by the last line noted).
    const taken = this.taken;
    const nl = this.nl;
    const stop = nl[n - 1]! + (taken ? taken.text.length : 0);
    // Tails are a cache: within a budget, so that a capture with ever new lines (JIT code
    // moving) does not grow by a stack's text for each of them.
    const base = this.height[first]!;
    const size = stop - nl[first]! + 8 * (height - base);
    if (size > this.budget) return;
    this.budget -= size;
    const copy = detached(this.text.slice(nl[first]!, stop));
    const ids = stack.slice(base, height);
    // From the last line up: how many of the lines after each one are damaged, and the first.
    const after = this.damagedAfter;
    const firstAfter = this.firstDamagedAfter;
    // filled from the end: grown first, so that they stay dense arrays
    while (after.length < n) {
      after.push(0);
      firstAfter.push(0);
    }
    for (let i = n - 2, count = 0, at = 0; i >= first; i--) {
      if (seen[i + 1]!.damaged) {
        count++;
        at = i + 1;
      }
      after[i] = count;
      firstAfter[i] = at;
    }
    // In text order: a line met twice in one sample (recursion) gets the longer tail.
    for (let i = first; i < n - 1; i++) {
      const s = seen[i]!;
      if (!wantsTail(s)) continue;
      let lines = n - 1 - i;
      let damaged = after[i]!;
      let firstDamaged = damaged > 0 ? firstAfter[i]! - i : 0;
      if (taken) {
        if (taken.damaged > 0 && damaged === 0) firstDamaged = lines + taken.firstDamaged;
        damaged += taken.damaged;
        lines += taken.lines;
      }
      const tail = new SeenTail(copy.slice(nl[i]! - nl[first]!), ids, this.height[i]! - base, lines, damaged, firstDamaged);
      if (s.tails === undefined) (s.tails = new Array<SeenTail>()).push(tail);
      else if (s.tails.length < TAILS) s.tails.push(tail);
      else s.tails[TAILS - 1] = tail;
      s.missed = false;
    }
  }
}
