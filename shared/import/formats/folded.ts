/**
 * Folded stacks: one line per distinct stack, frames root → leaf separated by `;`, then a space
 * and a count — `main;handle;parse 12`. The lingua franca of Brendan Gregg's FlameGraph
 * (`stackcollapse-*.pl`, reference: https://github.com/brendangregg/FlameGraph) and of bcc
 * `offcputime -f`, bpftrace and many profilers. Frames are kept verbatim; annotations such as
 * `_[k]` (kernel) and `_[j]` (JIT) only guide the category. Lines that do not end in a number
 * are skipped with a warning, as FlameGraph's own `flamegraph.pl` does.
 */
import { CallTreeBuilder, type FrameInput, FrameTableBuilder, finishProfile } from '../../model/builders';
import { Category, MAX_WEIGHT, Tier } from '../../model/types';
import { ImportError } from '../errors';
import type { Importer } from '../importer';
import { TextTable, forEachLineIn } from '../lines';
import { HEAD_BYTES } from '../source';

// JavaScript's `\s`, which is what the count's separator may be.
function isSpace(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * Splits `stack count` as flamegraph.pl reads it: the count is the number after the last
 * white-space character, so a frame may itself end in spaces (`…;write0;  3` has a last frame " "
 * and the count 3). The stack must hold something that is not white space, and no line break.
 * This is exactly what `/^(.*\S.*|.*;.*)\s(\d+(?:\.\d*)?)$/` matches, in one pass: the regular
 * expression backtracks quadratically on a long line that does not end in a count (a 40,000
 * character line took six seconds).
 */
export function splitFoldedLine(line: string): [stack: string, count: string] | undefined {
  let w = line.length - 1;
  while (w >= 0 && !isSpace(line.charCodeAt(w))) w--;
  if (w < 0) return undefined;
  // the count: digits, then optionally a point and more digits
  let i = w + 1;
  const digits = i;
  while (i < line.length && isDigit(line.charCodeAt(i))) i++;
  if (i === digits) return undefined;
  if (i < line.length && line.charCodeAt(i) === 0x2e) {
    i++;
    while (i < line.length && isDigit(line.charCodeAt(i))) i++;
  }
  if (i !== line.length) return undefined;
  // Native searches, not a character loop (that cost a third of the import of a big file; a
  // regular expression for the line breaks, a tenth).
  const stack = line.slice(0, w);
  if (stack.includes('\n') || stack.includes('\r') || stack.includes('\u2028') || stack.includes('\u2029')) return undefined;
  if (!VISIBLE.test(stack)) return undefined;
  return [stack, line.slice(w + 1)];
}

const VISIBLE = /\S/;

/**
 * Whether `stack` holds the frames of `prev` up to the one that ends at `e` (a `;` or its end
 * follows there), given that both are known to agree before `from`. One native comparison of
 * slices: a loop over the characters took several times as long.
 */
function sharesFrames(stack: string, prev: string, from: number, e: number): boolean {
  if (e > stack.length || (e < stack.length && stack.charCodeAt(e) !== 0x3b)) return false;
  return stack.slice(from, e) === prev.slice(from, e);
}

function frameCategory(label: string): Category | undefined {
  if (label.endsWith('_[k]')) return Category.Kernel;
  return undefined;
}

export const foldedImporter: Importer = {
  id: 'folded',
  label: 'folded stacks (stackcollapse, bcc, bpftrace: "a;b;c 12")',
  extensions: ['.folded', '.collapsed', '.txt', '.stacks'],
  sniff(head) {
    const lines = head.split('\n');
    // A cut-off last line says nothing, unless it is all there is: one very deep stack.
    if (lines.length > 1 && !head.endsWith('\n')) lines.pop();
    else if (lines.length === 1 && head.length >= HEAD_BYTES / 2) return /^[^{[<\s][^\t]*;[^\t]*;/.test(head);
    let good = 0;
    let bad = 0;
    for (const raw of lines.slice(0, 200)) {
      const line = raw.replace(/\r$/, '');
      if (line.trim() === '' || line.startsWith('#') || line.startsWith('//')) continue;
      if (splitFoldedLine(line)) good++;
      else bad++;
    }
    return good > 0 && good >= bad * 2;
  },
  async parse({ file, source }) {
    const frames = new FrameTableBuilder();
    const tree = new CallTreeBuilder();
    const warnings: string[] = [];
    let skipped = 0;
    let firstSkipped = 0;
    let tooLarge = 0;
    let firstTooLarge = 0;
    // Frames by label: a label always makes the same frame, and interning builds a key string.
    // Found in place (`TextTable`): hashing every label as a `Map` key took 40% of an import.
    const byLabel = new TextTable<number>();
    const frameOf = (stack: string, from: number, to: number): number => {
      let id = byLabel.get(stack, from, to);
      if (id === undefined) {
        const label = stack.slice(from, to);
        // Labels stay as written, empty ones included ("a;;b" is what some collapsers emit).
        const frame: FrameInput = { name: label === '' ? '(empty)' : label, tier: Tier.Unknown, label };
        const cat = frameCategory(label);
        if (cat !== undefined) frame.category = cat;
        id = frames.intern(frame);
        byLabel.set(stack, from, to, id);
      }
      return id;
    };
    // The previous line's stack, where each of its frames ends and the tree node it reached (the
    // first `depth` entries), and where its first character that is not white space is.
    let prevStack = '';
    let prevVisible = 0;
    let depth = 0;
    const prevEnds: number[] = [];
    const prevNodes: number[] = [];
    const skip = (text: string, start: number, end: number, lineNo: number) => {
      if (text.slice(start, end).trim() === '') return;
      if (skipped++ === 0) firstSkipped = lineNo;
    };
    await forEachLineIn(source.chunks(), file, (text, start, end, lineNo) => {
      // The line is read in place, as `splitFoldedLine` reads it: the count after the last white
      // space, the stack before it.
      let w = end - 1;
      while (w >= start && !isSpace(text.charCodeAt(w))) w--;
      let i = w + 1;
      let count = 0;
      while (i < end && isDigit(text.charCodeAt(i))) count = count * 10 + (text.charCodeAt(i++) - 0x30);
      if (w < start || i === w + 1) return skip(text, start, end, lineNo);
      // Up to 15 digits, adding them up is exact; past them, or with a fraction, `Number` reads it.
      let exact = i - w - 1 <= 15;
      if (i < end && text.charCodeAt(i) === 0x2e) {
        exact = false;
        i++;
        while (i < end && isDigit(text.charCodeAt(i))) i++;
      }
      if (i !== end) return skip(text, start, end, lineNo);
      const stack = text.slice(start, w);
      // The frames it shares with the previous line are not read again. How many there are is
      // found by comparing whole prefixes (a prefix shared up to frame k is shared up to every
      // frame before it), from the deepest down in growing steps, then by halving the range:
      // sorted output (what collapsers write) mostly shares all but the last few frames.
      let lo = 0;
      let hi = depth;
      // deepest first, then 2, 4, 8… frames further up
      for (let off = 0, grow = 0; lo < hi; off = grow, grow = 2 * grow + 1) {
        const k = Math.max(lo + 1, hi - off);
        if (sharesFrames(stack, prevStack, 0, prevEnds[k - 1]!)) lo = k;
        else hi = k - 1;
        if (lo > 0) break;
      }
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (sharesFrames(stack, prevStack, lo > 0 ? prevEnds[lo - 1]! : 0, prevEnds[mid - 1]!)) lo = mid;
        else hi = mid - 1;
      }
      // Only the rest needs checking: the shared part was valid on the previous line. A stack
      // holds no line break (\n cannot occur in a line) and something that is not white space.
      const shared = lo > 0 ? prevEnds[lo - 1]! : 0;
      if (stack.indexOf('\r', shared) >= 0 || stack.indexOf('\u2028', shared) >= 0 || stack.indexOf('\u2029', shared) >= 0)
        return skip(text, start, end, lineNo);
      let visible = prevVisible;
      if (visible >= shared) {
        visible = shared;
        while (visible < stack.length && isSpace(stack.charCodeAt(visible))) visible++;
        if (visible === stack.length) return skip(text, start, end, lineNo);
      }
      const weight = exact ? count : Number(text.slice(w + 1, end));
      if (!(weight <= MAX_WEIGHT)) {
        if (tooLarge++ === 0) firstTooLarge = lineNo;
        return;
      }
      // The stack root → leaf, walked down the tree from the last frame shared, as its frames are
      // read (no array of parts).
      depth = lo;
      prevStack = stack;
      prevVisible = visible;
      let node = lo > 0 ? prevNodes[lo - 1]! : tree.root;
      if (lo === 0 || shared < stack.length) {
        for (let from = lo > 0 ? shared + 1 : 0; ;) {
          const semi = stack.indexOf(';', from);
          const to = semi < 0 ? stack.length : semi;
          node = tree.child(node, frameOf(stack, from, to));
          // within the arrays or pushed: a write past their end makes V8 drop optimized code
          if (depth < prevEnds.length) {
            prevEnds[depth] = to;
            prevNodes[depth] = node;
          } else {
            prevEnds.push(to);
            prevNodes.push(node);
          }
          depth++;
          if (semi < 0) break;
          from = semi + 1;
        }
      }
      tree.addSelf(node, weight);
    });
    if (skipped > 0) warnings.push(`skipped ${skipped} line(s) that are not "stack count", first at line ${firstSkipped}`);
    if (tooLarge > 0)
      warnings.push(`skipped ${tooLarge} line(s) whose count is too large to be one (over 2^53), first at line ${firstTooLarge}`);
    if (tree.nodeCount === 1) throw new ImportError({ file, message: 'no "frame;frame count" lines found' });
    return finishProfile({
      name: file,
      format: 'folded',
      kind: 'aggregated',
      unit: 'samples',
      frames,
      tree,
      meta: { producer: 'folded stacks', warnings },
    });
  },
};
