/**
 * The `perf script` reader (see perf-script.ts for the format and where it parts ways with
 * `stackcollapse-perf.pl`): what the importer knows while it reads, as fields, and the steps of
 * reading as methods. Lines come one by one (`readLine`) or as the line scanner's records
 * (`onBatch`); either way a sample opens at its header (`startSample`), gathers its frames leaf
 * first (`put`) and goes into the call tree at the blank line that closes it (`flush`).
 */
import { CallTreeBuilder, FrameTableBuilder, detached } from '../../model/builders';
import { GrowInt32 } from '../../model/grow';
import { MAX_WEIGHT } from '../../model/types';
import { TextTable, forEachLineOf } from '../lines';
import { LINE_WORDS, NUMS, REC, Rec, type ScanBatch, Word } from '../line-scanner';
import { FrameLineNames } from './perf-frames';
import { type FrameLine, readFrame } from './perf-frame-line';
import { type Header, HeaderReader, type Shape, eventMatches, isSpace, skipSpace, timeFromDigits } from './perf-header';
import { RunFrames, SampleThreads, SeenLine, StackWalker, type Thread } from './perf-seen';

/** How many lines of one kind were met, and the line number of the first. */
export class Tally {
  count = 0;
  first = 0;

  /** Counts `n` more, the first of them at line `first`. */
  add(n: number, first: number): void {
    if (n === 0) return;
    if (this.count === 0) this.first = first;
    this.count += n;
  }
}

/** Lines that are neither a header nor a frame: a tally, and the first of them. */
export class BadLines extends Tally {
  text = '';
}

/** A line's first character code (NaN for an empty line). */
function firstChar(text: string, from: number, to: number): number {
  return from < to ? text.charCodeAt(from) : NaN;
}

export class PerfScriptReader {
  readonly frames = new FrameTableBuilder();
  readonly tree = new CallTreeBuilder();
  readonly threads: SampleThreads;
  /** The event the samples kept are of (the first met, or the first that matches `wanted`). */
  kept: string | undefined;
  readonly skippedEvents = new Map<string, number>();
  readonly processNames: Record<string, string> = {};
  readonly threadNames: Record<string, string> = {};
  hasIds = false;

  // Totals for the profile's unit, interval and time span. The sum is a float from the start: a
  // sum that outgrew a small integer would make V8 recompile the code that adds to it.
  withPeriod = 0;
  readonly periodSum = new Float64Array(1);
  start = Infinity;
  end = -Infinity;
  headers = 0;

  // What was skipped or repaired, for the warnings.
  readonly bad = new BadLines();
  readonly damaged = new Tally();
  readonly hugePeriods = new Tally();
  orphans = 0;
  reportLike = false;

  // The sample being read: its root frame, weight, time and frames leaf first (`height` of them:
  // a counter, as emptying an array once per sample is a call into the runtime).
  private open = false;
  private rootFrame = 0;
  private weight = 1;
  private time = NaN;
  private java = false;
  private readonly stack: number[] = [];
  private height = 0;

  // The frames that runs of frame lines pushed, by the number the line scanner gave the run
  // (apart for processes named java); and the run that is all the open sample's frames so far.
  private readonly runFrames: (RunFrames | undefined)[] = [];
  private readonly javaRunFrames: (RunFrames | undefined)[] = [];
  private sampleRun: RunFrames | undefined;
  // The frames of every run remembered, end to end in one typed array (off the heap the collector
  // walks: an array of its own for each of thousands of runs was much of what it had to mark).
  private readonly pool = new GrowInt32(4096);
  // Whole frame lines, address included, with what they pushed: a long capture repeats the same
  // few thousand lines, so all but the first of each skip parsing (`readFrame`).
  private readonly lineCache = new TextTable<SeenLine>();
  private readonly javaLineCache = new TextTable<SeenLine>();
  // What each frame line (or plain frame line's symbol) the scanner numbered pushes (null: it is
  // no frame line), apart for processes named java.
  private readonly lineFrames: (SeenLine | null | undefined)[] = [];
  private readonly javaLineFrames: (SeenLine | null | undefined)[] = [];
  // Header shapes the line scanner knows, by the number it gave them, and those met in a batch.
  private readonly shapes: Shape<Thread>[] = [];
  private newShapes: Shape<Thread>[] = [];

  private readonly walker = new StackWalker(this.tree);
  private readonly fl: FrameLine = { sym: 0, dso: 0, close: 0, damaged: false };
  private readonly names = new FrameLineNames(this.frames);
  private readonly headerReader = new HeaderReader<Thread>();
  /** `readLine` as a function of its own, for the line splitters. */
  readonly lineReader = (text: string, from: number, to: number, lineNo: number): void => this.readLine(text, from, to, lineNo);

  /** `wanted`: the event type to keep (by default the first met); `allThreads`: each thread a root of its own. */
  constructor(
    private readonly wanted: string | undefined,
    allThreads: boolean,
  ) {
    this.threads = new SampleThreads(this.frames, allThreads);
  }

  /** The sample still open at the end of the file goes in. */
  finishSamples(): void {
    if (this.open) this.flush();
  }

  // ── samples ──

  /** The open sample, its stack leading to `node`, goes into the tree. */
  private addSample(node: number): void {
    const time = this.time;
    this.tree.addSample(node, this.weight, time);
    if (time < this.start) this.start = time;
    if (time > this.end) this.end = time;
  }

  /** Closes the open sample. */
  private flush(): void {
    this.open = false;
    const run = this.sampleRun;
    this.sampleRun = undefined;
    if (run === undefined || run.length !== this.height) return this.addSample(this.walker.walk(this.rootFrame, this.stack, this.height));
    // The stack is one run met before: the node it leads to from this root is known.
    if (run.root !== this.rootFrame) {
      run.node = this.walker.walk(this.rootFrame, this.stack, this.height);
      run.root = this.rootFrame;
    }
    this.addSample(run.node);
  }

  // Writes stay within the array or push: a write past its end would make V8 drop the optimized
  // code of the line reader (and compile it again) until it had seen that happen.
  private put(id: number): void {
    const stack = this.stack;
    if (this.height < stack.length) stack[this.height] = id;
    else stack.push(id);
    this.height++;
  }

  private pushIds(ids: number | number[]): void {
    if (typeof ids === 'number') this.put(ids);
    else for (let i = ids.length - 1; i >= 0; i--) this.put(ids[i]!);
  }

  /** Pushes the frames of the frame line `readFrame` just read; returns them. */
  private pushFrame(line: string, lineNo: number): number | number[] {
    if (this.fl.damaged) this.damaged.add(1, lineNo);
    const ids = this.names.of(line, this.fl, this.java);
    this.pushIds(ids);
    return ids;
  }

  // ── headers ──

  /** Names the sample's process and thread: a process after its main thread (tid = pid), else after its first thread seen. */
  private nameThread(h: Header, t: Thread): void {
    // (copied when they change: a name cut from a line would keep its whole chunk alive)
    const name = t.name;
    const processes = this.processNames;
    if ((h.tid === h.pid || processes[h.pid!] === undefined) && processes[h.pid!] !== name) processes[h.pid!] = detached(name);
    if (this.threadNames[t.thread!] !== name) this.threadNames[t.thread!] = detached(name);
    this.hasIds = true;
  }

  /** What a sample takes from its header: time, weight, root frame, process and thread names. */
  private takeHeader(h: Header, t: Thread, at: number, period: number): void {
    this.time = at;
    this.weight = period > 0 ? period : 1;
    if (period > 0) {
      this.withPeriod++;
      this.periodSum[0]! += period;
    }
    this.java = t.java;
    this.rootFrame = t.root;
    this.tree.thread = t.index;
    if (h.pid !== undefined) this.nameThread(h, t);
  }

  /** Whether a sample of event `event` is kept (the others are counted by event). */
  private keeps(event: string | undefined): boolean {
    if (event === undefined) return true;
    if (this.kept === undefined && (this.wanted === undefined || eventMatches(event, this.wanted))) this.kept = event;
    if (event === this.kept) return true;
    this.skippedEvents.set(detached(event), (this.skippedEvents.get(event) ?? 0) + 1);
    return false;
  }

  /** Opens the sample of header `h`, read from `text[from, to)` (the line, for a frame on it). */
  private startSample(h: Header, text: string, from: number, to: number, lineNo: number): void {
    this.headers++;
    if (!this.keeps(h.event)) return;
    // As the reference: a missing or zero period counts 1.
    const period = h.period === undefined ? 0 : Number(h.period);
    if (period > MAX_WEIGHT) {
      // Periods are 64-bit counts, but one past 2^53 is no real period, and a few would add up to
      // Infinity: the sample is left out (its frame lines are skipped while it is not open).
      this.hugePeriods.add(1, lineNo);
      return;
    }
    this.open = true;
    this.height = 0;
    this.sampleRun = undefined;
    const shape = this.headerReader.shape;
    let t = shape?.extra;
    if (t === undefined) {
      t = this.threads.of(h);
      if (shape !== undefined) shape.extra = t;
    }
    this.takeHeader(h, t, h.time, period);
    if (h.inlineFrame !== undefined) {
      const line = text.slice(from, to);
      if (readFrame(line, h.inlineFrame, this.fl)) this.pushFrame(line, lineNo);
    }
  }

  // ── lines one by one ──
  // Three methods, the one called for every line small: V8 optimizes a function after an amount
  // of work that grows with its size, and the first megabytes of a big file are read before that.

  /** Reads line `lineNo`, `text[from, to)`. */
  readLine(text: string, from: number, to: number, lineNo: number): void {
    const c = firstChar(text, from, to);
    if (this.open && isSpace(c)) {
      const seen = (this.java ? this.javaLineCache : this.lineCache).get(text, from, to);
      if (seen !== undefined) return this.seenLine(seen, lineNo);
    }
    this.otherLine(text, from, to, lineNo, c);
  }

  /** A frame line met before: the frames it pushes. */
  private seenLine(seen: SeenLine, lineNo: number): void {
    if (seen.damaged) this.damaged.add(1, lineNo);
    this.pushIds(seen.ids);
  }

  /** Any other line: blank, a header, a comment, a frame line met for the first time, or bad. */
  private otherLine(text: string, from: number, to: number, lineNo: number, c: number): void {
    if (from === to) return this.finishSamples();
    if (!isSpace(c) && c !== 35 /* # */) {
      const h = this.headerReader.read(text, from, to);
      if (h) {
        this.finishSamples();
        return this.startSample(h, text, from, to, lineNo);
      }
    }
    const line = text.slice(from, to);
    if (isSpace(c) && skipSpace(line, 0) === line.length) return this.finishSamples();
    if (c === 35) {
      if (!this.reportLike && /^# (Overhead|Samples: )/.test(line)) this.reportLike = true;
      return;
    }
    if (readFrame(line, 0, this.fl)) {
      if (this.open) {
        const ids = this.pushFrame(line, lineNo);
        if (isSpace(c)) (this.java ? this.javaLineCache : this.lineCache).set(text, from, to, new SeenLine(ids, this.fl.damaged));
      } else if (this.headers === 0) this.orphans++;
      return;
    }
    if (this.bad.count === 0) this.bad.text = line.length > 120 ? `${line.slice(0, 120)}…` : line;
    this.bad.add(1, lineNo);
  }

  // ── the line scanner's records ──

  /** One batch of the line scanner's records. */
  onBatch(b: ScanBatch): void {
    // (shapes are numbered for the scanner only when it reads the file)
    this.headerReader.onShape ??= (s) => this.newShapes.push(s);
    const r = b.records;
    for (let i = 0; i < b.count; i++) {
      const lineNo = b.line(i);
      const kind = r[i * REC + Word.Kind]!;
      if (kind === Rec.Run) this.readRun(b, i, lineNo);
      else if (kind === Rec.Blank) this.finishSamples();
      else if (kind === Rec.Header) i += this.headerRecord(b, i, lineNo);
      else {
        const text = b.text(i, lineNo);
        this.readLine(text, 0, text.length, lineNo);
      }
    }
    for (const s of this.newShapes) if (b.addShape(s.head, s.tail) === this.shapes.length) this.shapes.push(s);
    this.newShapes = [];
  }

  /**
   * A header like one met before (HeaderReader.read) at another time, record `i` of `b`; returns
   * how many records after it were taken with it (2 when it began a known sample, else 0).
   */
  private headerRecord(b: ScanBatch, i: number, lineNo: number): number {
    const r = b.records;
    const s = this.shapes[r[i * REC + Word.Arg]!]!;
    const at = timeFromDigits(b.numbers[i * NUMS]!, b.numbers[i * NUMS + 1]!, r[i * REC + Word.Extra]!);
    if (
      !this.open &&
      i + 2 < b.count &&
      r[(i + 1) * REC + Word.Kind] === Rec.Run &&
      r[(i + 2) * REC + Word.Kind] === Rec.Blank &&
      this.knownSample(s, b, i + 1, at)
    ) {
      b.line(i + 1);
      b.line(i + 2);
      return 2;
    }
    s.h.time = at;
    this.headerReader.shape = s;
    this.finishSamples();
    this.startSample(s.h, '', 0, 0, lineNo);
    return 0;
  }

  /**
   * A sample made of a header of shape `s` at time `at`, the run of frame lines that is record
   * `i` of `b` and a blank line, when that run came before in a sample of the same thread with
   * nothing else (and no damaged line): its sample is taken at once, as `startSample`, the run
   * and `flush` would take it. False (and nothing done) otherwise.
   */
  private knownSample(s: Shape<Thread>, b: ScanBatch, i: number, at: number): boolean {
    const t = s.extra;
    const h = s.h;
    if (t === undefined || (h.event !== undefined && h.event !== this.kept) || t.period > MAX_WEIGHT) return false;
    const id = b.records[i * REC + Word.Arg]!;
    const run = id < 0 ? undefined : (t.java ? this.javaRunFrames : this.runFrames)[id];
    if (run === undefined || run.root !== t.root || run.damaged > 0) return false;
    this.headers++;
    this.takeHeader(h, t, at, t.period);
    this.addSample(run.node);
    return true;
  }

  /**
   * A run of frame lines from the line scanner (record `i` of `b`, its first line `lineNo`): one
   * met before in a sample of the same kind pushes what it pushed then; any other is read line by
   * line, and remembered when all of its lines were frames.
   */
  private readRun(b: ScanBatch, i: number, lineNo: number): void {
    const o = i * REC;
    const id = b.records[o + Word.Arg]!;
    if (this.open && id >= 0) {
      const run = (this.java ? this.javaRunFrames : this.runFrames)[id];
      if (run !== undefined) return this.pushRun(run, lineNo);
    }
    if (!this.open && id >= 0 && (this.runFrames[id] ?? this.javaRunFrames[id]) !== undefined) {
      // frame lines outside a sample (of an event left out, or before the first header)
      if (this.headers === 0) this.orphans += b.records[o + Word.Lines]!;
      return;
    }
    if (this.open && b.records[o + Word.Extra]! >= 0 && this.newRun(b, i, lineNo)) return;
    this.runByLines(b, i, lineNo, id);
  }

  /** Pushes the frames of a run met before, starting at line `lineNo`. */
  private pushRun(run: RunFrames, lineNo: number): void {
    if (this.height === 0) this.sampleRun = run;
    const ids = this.pool.data;
    for (let k = run.start, e = run.start + run.length; k < e; k++) this.put(ids[k]!);
    this.damaged.add(run.damaged, lineNo + run.firstDamaged);
  }

  /** Reads run `id` (record `i` of `b`) line by line, and remembers it when all of its lines were frames of the open sample. */
  private runByLines(b: ScanBatch, i: number, lineNo: number, id: number): void {
    const wasOpen = this.open;
    const below = this.height;
    const badBefore = this.bad.count;
    // the run's damaged lines counted apart, then added to those before it
    const damaged = this.damaged;
    const before = damaged.count;
    const firstBefore = damaged.first;
    damaged.count = 0;
    forEachLineOf(b.text(i, lineNo), lineNo - 1, this.lineReader);
    const runDamaged = damaged.count;
    const runFirstDamaged = damaged.first - lineNo;
    damaged.count += before;
    if (before > 0) damaged.first = firstBefore;
    if (id < 0 || !wasOpen || !this.open || this.bad.count !== badBefore) return;
    // (indented lines start no sample and end none: the sample is the one the run began in)
    this.rememberRun(id, below, runDamaged, runDamaged > 0 ? runFirstDamaged : 0);
  }

  /**
   * A run met for the first time, in an open sample, from its numbered lines: only the lines
   * never met before are read. False (and nothing done) when one of them is not a frame line: the
   * run is then read line by line, which counts and reports it.
   */
  private newRun(b: ScanBatch, i: number, lineNo: number): boolean {
    const words = b.lineWords;
    const at = b.records[i * REC + Word.Extra]!;
    const n = b.records[i * REC + Word.Lines]!;
    const below = this.height;
    let runDamaged = 0;
    let firstDamaged = 0;
    for (let k = 0; k < n; k++) {
      const seen = this.numberedLine(b, words, at + LINE_WORDS * k);
      if (seen === null) {
        this.height = below;
        return false;
      }
      this.pushIds(seen.ids);
      if (seen.damaged && runDamaged++ === 0) firstDamaged = k;
    }
    this.damaged.add(runDamaged, lineNo + firstDamaged);
    this.rememberRun(b.records[i * REC + Word.Arg]!, below, runDamaged, firstDamaged);
    return true;
  }

  /** What the frame line whose words start at `w` pushes (null: it is no frame line), read once per number. */
  private numberedLine(b: ScanBatch, words: Int32Array, w: number): SeenLine | null {
    const known = this.java ? this.javaLineFrames : this.lineFrames;
    const lid = words[w]!;
    let seen = known[lid];
    if (seen !== undefined) return seen;
    const java = this.java;
    if (words[w + 3]! >= 0) {
      // A plain frame line: its symbol (without offset) and dso column, numbered by the scanner,
      // so met here once.
      const sym = b.decode(words[w + 1]!, words[w + 2]!);
      seen = new SeenLine(this.names.named(sym, b.decode(words[w + 3]!, words[w + 4]!), false, java), false);
    } else {
      const line = b.decode(words[w + 1]!, words[w + 2]!);
      seen = readFrame(line, 0, this.fl) ? new SeenLine(this.names.of(line, this.fl, java, false), this.fl.damaged) : null;
    }
    while (known.length < lid) known.push(undefined);
    known[lid] = seen;
    return seen;
  }

  /** Remembers run `id`: the frames pushed from `below` on, its damaged lines and the first of them. */
  private rememberRun(id: number, below: number, runDamaged: number, firstDamaged: number): void {
    const start = this.pool.length;
    for (let i = below; i < this.height; i++) this.pool.push(this.stack[i]!);
    const run = new RunFrames(start, this.height - below, runDamaged, firstDamaged);
    const table = this.java ? this.javaRunFrames : this.runFrames;
    while (table.length < id) table.push(undefined);
    table[id] = run;
    if (below === 0) this.sampleRun = run;
  }
}
