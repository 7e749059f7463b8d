/**
 * Folded stacks: one line per distinct stack, frames root → leaf separated by `;`, then a space
 * and a count — `main;handle;parse 12`. The lingua franca of Brendan Gregg's FlameGraph
 * (`stackcollapse-*.pl`, reference: https://github.com/brendangregg/FlameGraph) and of bcc
 * `offcputime -f`, bpftrace and many profilers. Frames are kept verbatim; annotations such as
 * `_[k]` (kernel) and `_[j]` (JIT) only guide the category. Lines that do not end in a number
 * are skipped with a warning, as FlameGraph's own `flamegraph.pl` does.
 */
import type { BuildBudget } from '../../../model/budget';
import { CallTreeBuilder, type FrameInput, FrameTableBuilder, finishProfile } from '../../../model/builders';
import { GrowInt32 } from '../../../model/grow';
import { Category, MAX_WEIGHT, type Profile, Tier } from '../../../model/types';
import { ImportError } from '../../errors';
import { ChildLabels } from './child-labels';
import { sharedDepth } from './shared-depth';
import type { Importer } from '../../importer';
import { TextTable, forEachLineIn } from '../../io/lines';
import { NUMS, REC, Rec, type ScanBatch, Word, scanRecords } from '../../io/line-scanner';
import { HEAD_BYTES } from '../../io/source';

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
 * Finds the line breaks other than \n (what a stack may not hold) in a text read front to back:
 * where the next \r, U+2028 and U+2029 are is remembered, so each is searched for once (natively)
 * however many lines ask. Most texts hold none at all.
 */
class Breaks {
  private readonly next = [-1, -1, -1];
  private static readonly CHARS = ['\r', '\u2028', '\u2029'];

  /** Starts on a new text. */
  reset(text: string): void {
    for (let i = 0; i < 3; i++) this.next[i] = text.indexOf(Breaks.CHARS[i]!);
  }

  /** Whether `text[from, to)` holds one; `from` never goes back within a text. */
  within(text: string, from: number, to: number): boolean {
    for (let i = 0; i < 3; i++) {
      let n = this.next[i]!;
      if (n >= 0 && n < from) this.next[i] = n = text.indexOf(Breaks.CHARS[i]!, from);
      if (n >= 0 && n < to) return true;
    }
    return false;
  }
}

function frameCategory(label: string): Category | undefined {
  if (label.endsWith('_[k]')) return Category.Kernel;
  return undefined;
}

/**
 * Reads one folded file into a call tree. Lines are read in place in the text they came in (no
 * string is made for a line, nor for a frame met before), and a line's frames shared with the
 * line before are not read again: collapsers write sorted stacks, which mostly share all but
 * their last few frames. With the line scanner, a stack met before comes as its number and is
 * never decoded (`onBatch`); without it, every line comes through `readLine`.
 */
class FoldedReader {
  readonly frames: FrameTableBuilder;
  readonly tree: CallTreeBuilder;
  constructor(budget?: BuildBudget) {
    this.frames = new FrameTableBuilder(budget);
    this.tree = new CallTreeBuilder(budget);
  }
  skipped = 0;
  firstSkipped = 0;
  tooLarge = 0;
  firstTooLarge = 0;
  /**
   * Frames by label: a label always makes the same frame, and interning builds a key string.
   * Found in place (`TextTable`): hashing every label as a `Map` key took 40% of an import.
   */
  private readonly byLabel = new TextTable<number>();
  /** Most frames are found among the children of the node before them, without hashing. */
  private readonly kids = new ChildLabels();
  /** Line breaks other than \n in the current text. */
  readonly breaks = new Breaks();
  // The previous line's stack (at `prevStart` in `prevText`), where each of its frames ends
  // (counted from its start) and the tree node it reached (the first `depth` entries), and where
  // its first character that is not white space is.
  private prevText = '';
  private prevStart = 0;
  private prevVisible = 0;
  private depth = 0;
  private readonly prevEnds: number[] = [];
  private readonly prevNodes: number[] = [];
  /**
   * What the scanner's numbers of strings stand for: the node a stack went to the first time it
   * was read here (-1: its line was skipped), the frame of a label.
   */
  private readonly byNumber: number[] = [];
  /**
   * The node of each of the scanner's nodes (numbered 0, 1, 2… as made), once they are not
   * simply node n + 1: filled only when `scannerOnly` ends (a collapsed file of 1.5 M nodes never
   * needs it).
   */
  private readonly byNode = new GrowInt32();
  /** how many nodes the scanner has made */
  private scannerNodes = 0;
  /**
   * Whether the tree's nodes are all the scanner's, each frame of theirs the frame of one label
   * of the scanner's alone: a node the scanner makes is then surely new to the tree, and made
   * without looking for it. A line read as text, or two labels that make one frame, end that.
   */
  private scannerOnly = true;

  /** The frame of a label. Labels stay as written, empty ones included ("a;;b" is what some collapsers emit). */
  frameOfLabel(label: string): number {
    const frame: FrameInput = { name: label === '' ? '(empty)' : label, tier: Tier.Unknown, label };
    const cat = frameCategory(label);
    if (cat !== undefined) frame.category = cat;
    return this.frames.intern(frame);
  }

  private frameOf(text: string, from: number, to: number): number {
    let id = this.byLabel.get(text, from, to);
    if (id === undefined) {
      id = this.frameOfLabel(text.slice(from, to));
      this.byLabel.set(text, from, to, id, this.frames.labelOf(id));
    }
    return id;
  }

  private childOf(node: number, frame: number): number {
    const made = this.tree.nodeCount;
    const c = this.tree.child(node, frame);
    if (c >= made) {
      this.kids.add(node, c, this.frames.labelOf(frame));
      this.leaveScannerOnly();
    }
    return c;
  }

  /**
   * The tree's nodes are no longer the scanner's alone: each node the scanner makes from now on
   * is looked for, and the scanner's nodes so far (node n + 1 each) are written down.
   */
  private leaveScannerOnly(): void {
    if (!this.scannerOnly) return;
    this.scannerOnly = false;
    for (let n = 0; n < this.scannerNodes; n++) this.byNode.push(n + 1);
  }

  /** The tree's node of the scanner's node `n`. */
  private nodeOfScanner(n: number): number {
    return this.scannerOnly ? n + 1 : this.byNode.data[n]!;
  }

  /** Records in `kids` the nodes made from the scanner's records since lines were last read as text. */
  private syncKids(): void {
    const { kids, tree, frames } = this;
    for (let c = kids.size; c < tree.nodeCount; c++) kids.add(tree.parentOf(c), c, frames.labelOf(tree.frameOf(c)));
  }

  /** Counts a line that is not `stack count` (a blank one is no such line); returns -1. */
  private skip(text: string, start: number, end: number, lineNo: number): number {
    if (text.slice(start, end).trim() !== '' && this.skipped++ === 0) this.firstSkipped = lineNo;
    return -1;
  }

  /** Reads one line `text[start, end)`; returns the node its count went to, or -1 when the line was skipped. */
  readLine(text: string, start: number, end: number, lineNo: number): number {
    // The count after the last white space, the stack before it, as `splitFoldedLine` reads it.
    let w = end - 1;
    while (w >= start && !isSpace(text.charCodeAt(w))) w--;
    let i = w + 1;
    let count = 0;
    while (i < end && isDigit(text.charCodeAt(i))) count = count * 10 + (text.charCodeAt(i++) - 0x30);
    if (w < start || i === w + 1) return this.skip(text, start, end, lineNo);
    // Up to 15 digits, adding them up is exact; past them, or with a fraction, `Number` reads it.
    let exact = i - w - 1 <= 15;
    if (i < end && text.charCodeAt(i) === 0x2e) {
      exact = false;
      i++;
      while (i < end && isDigit(text.charCodeAt(i))) i++;
    }
    if (i !== end) return this.skip(text, start, end, lineNo);
    // The stack is text[start, w). The frames it shares with the previous line are not read again.
    const lo = this.depth > 0 ? sharedDepth(text, start, w, this.prevText, this.prevStart, this.prevEnds, this.depth) : 0;
    // Only the rest needs checking: the shared part was valid on the previous line. A stack holds
    // no line break and something that is not white space. Most texts hold no break at all, which
    // one search per text (not per line) tells.
    const shared = lo > 0 ? this.prevEnds[lo - 1]! : 0;
    if (this.breaks.within(text, start + shared, w)) return this.skip(text, start, end, lineNo);
    let visible = this.prevVisible;
    if (visible >= shared) {
      visible = shared;
      while (start + visible < w && isSpace(text.charCodeAt(start + visible))) visible++;
      if (start + visible === w) return this.skip(text, start, end, lineNo);
    }
    const weight = exact ? count : Number(text.slice(w + 1, end));
    if (!(weight <= MAX_WEIGHT)) {
      if (this.tooLarge++ === 0) this.firstTooLarge = lineNo;
      return -1;
    }
    this.depth = lo;
    this.prevText = text;
    this.prevStart = start;
    this.prevVisible = visible;
    const node = this.walkDown(text, start, w, lo, shared);
    this.tree.addSelf(node, weight);
    return node;
  }

  /**
   * The stack `text[start, w)` root → leaf, walked down the tree from its `lo`-th frame (the last
   * shared with the line before, which ends `shared` characters in) as its frames are read, with
   * no array of parts; returns the leaf's node.
   */
  private walkDown(text: string, start: number, w: number, lo: number, shared: number): number {
    const { kids, prevEnds, prevNodes } = this;
    let node = lo > 0 ? prevNodes[lo - 1]! : this.tree.root;
    if (lo > 0 && start + shared >= w) return node;
    if (kids.size !== this.tree.nodeCount) this.syncKids();
    let depth = this.depth;
    for (let from = lo > 0 ? start + shared + 1 : start; ;) {
      // (no branch for a frame found: see `ChildLabels.find`)
      let child = kids.find(node, text, from, w, 0x3b);
      let to = kids.end;
      if (child < 0) {
        const semi = text.indexOf(';', from);
        to = semi < 0 || semi > w ? w : semi;
        child = this.childOf(node, this.frameOf(text, from, to));
      }
      node = child;
      // within the arrays or pushed: a write past their end makes V8 drop optimized code
      if (depth < prevEnds.length) {
        prevEnds[depth] = to - start;
        prevNodes[depth] = node;
      } else {
        prevEnds.push(to - start);
        prevNodes.push(node);
      }
      depth++;
      if (to === w) break;
      from = to + 1;
    }
    this.depth = depth;
    return node;
  }

  private numbered(n: number, value: number): void {
    const byNumber = this.byNumber;
    while (byNumber.length < n) byNumber.push(-1);
    byNumber[n] = value;
  }

  /** One batch of the line scanner's records (see `Rec`). */
  onBatch(b: ScanBatch): void {
    const r = b.records;
    const { tree, byNumber } = this;
    for (let i = 0; i < b.count; i++) {
      const lineNo = b.line(i);
      const o = i * REC;
      const kind = r[o]!;
      if (kind === Rec.AtNode) tree.addSelf(this.nodeOfScanner(r[o + Word.Arg]!), b.numbers[i * NUMS]!);
      else if (kind === Rec.Known) {
        const node = byNumber[r[o + Word.Arg]!]!;
        if (node >= 0) tree.addSelf(node, b.numbers[i * NUMS]!);
        else if (this.skipped++ === 0) this.firstSkipped = lineNo;
      } else if (kind === Rec.Node) {
        // (made in order: node n is the n-th made)
        const parent = r[o + Word.Start]!;
        const at = parent < 0 ? tree.root : this.nodeOfScanner(parent);
        const frame = byNumber[r[o + Word.End]!]!;
        this.scannerNodes++;
        if (this.scannerOnly) tree.newChild(at, frame);
        else this.byNode.push(tree.child(at, frame));
      } else if (kind === Rec.Frame) {
        // (met once: the scanner numbers labels; the table that finds labels fast for lines read
        // as text is left to those lines, which intern the same frames)
        const known = this.frames.length;
        const frame = this.frameOfLabel(b.decode(r[o + Word.Start]!, r[o + Word.End]!));
        if (frame < known) this.leaveScannerOnly();
        this.numbered(r[o + Word.Arg]!, frame);
      } else {
        const text = b.text(i, lineNo);
        this.breaks.reset(text);
        const node = this.readLine(text, 0, text.length, lineNo);
        if (kind === Rec.New) this.numbered(r[o + Word.Arg]!, node);
      }
    }
  }

  /** The profile, with a warning for each kind of line left out. */
  finish(file: string): Profile {
    const warnings: string[] = [];
    if (this.skipped > 0) warnings.push(`skipped ${this.skipped} line(s) that are not "stack count", first at line ${this.firstSkipped}`);
    if (this.tooLarge > 0)
      warnings.push(`skipped ${this.tooLarge} line(s) whose count is too large to be one (over 2^53), first at line ${this.firstTooLarge}`);
    if (this.tree.nodeCount === 1) throw new ImportError({ file, message: 'no "frame;frame count" lines found' });
    const { frames, tree } = this;
    return finishProfile({
      name: file,
      format: 'folded',
      kind: 'aggregated',
      unit: 'samples',
      frames,
      tree,
      meta: { producer: 'folded stacks', warnings },
    });
  }
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
  async parse({ file, source, budget }) {
    const reader = new FoldedReader(budget);
    const scanned = await scanRecords(source, file, 'folded', (b) => reader.onBatch(b));
    if (scanned === undefined)
      await forEachLineIn(
        source.chunks(),
        file,
        (text, start, end, lineNo) => reader.readLine(text, start, end, lineNo),
        // once per text, outside the line reader: code that runs this seldom has no type feedback
        // when V8 compiles the line reader, and would make it throw that code away
        (text) => reader.breaks.reset(text),
      );
    return reader.finish(file);
  },
};
