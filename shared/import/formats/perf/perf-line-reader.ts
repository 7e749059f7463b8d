/**
 * Reading `perf script` line by line (see perf-script.ts for the format and where it parts ways
 * with `stackcollapse-perf.pl`): what the importer knows while it reads, as fields, and the steps
 * of reading as methods. A sample opens at its header (`startSample`), gathers its frames leaf
 * first (`put`) and goes into the call tree at the blank line that closes it (`flush`).
 * PerfScriptReader (perf-script-reader.ts) adds the line scanner's records.
 */
import type { BuildBudget } from '../../../model/budget';
import { CallTreeBuilder, FrameTableBuilder, detached } from '../../../model/builders';
import { MAX_WEIGHT } from '../../../model/types';
import { TextTable } from '../../io/lines';
import { FrameLineNames } from './perf-frames';
import { type FrameLine, readFrame } from './perf-frame-line';
import { type Header, HeaderReader, eventMatches, isSpace, skipSpace } from './perf-header';
import { type RunFrames, SampleThreads, SeenLine, StackWalker, type Thread } from './perf-seen';

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

/** Reads `perf script` line by line: samples, their headers and frames. */
export class PerfLineReader {
  readonly frames: FrameTableBuilder;
  readonly tree: CallTreeBuilder;
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
  protected open = false;
  private rootFrame = 0;
  private weight = 1;
  private time = NaN;
  protected java = false;
  protected readonly stack: number[] = [];
  protected height = 0;

  protected sampleRun: RunFrames | undefined;
  // Whole frame lines, address included, with what they pushed: a long capture repeats the same
  // few thousand lines, so all but the first of each skip parsing (`readFrame`).
  private readonly lineCache = new TextTable<SeenLine>();
  private readonly javaLineCache = new TextTable<SeenLine>();

  private readonly walker: StackWalker;
  protected readonly fl: FrameLine = { sym: 0, dso: 0, close: 0, damaged: false };
  protected readonly names: FrameLineNames;
  protected readonly headerReader = new HeaderReader<Thread>();
  /** `readLine` as a function of its own, for the line splitters. */
  readonly lineReader = (text: string, from: number, to: number, lineNo: number): void => this.readLine(text, from, to, lineNo);

  /** `wanted`: the event type to keep (by default the first met); `allThreads`: each thread a root of its own. */
  constructor(
    private readonly wanted: string | undefined,
    allThreads: boolean,
    budget?: BuildBudget,
  ) {
    this.frames = new FrameTableBuilder(budget);
    this.tree = new CallTreeBuilder(budget);
    this.walker = new StackWalker(this.tree);
    this.names = new FrameLineNames(this.frames);
    this.threads = new SampleThreads(this.frames, allThreads);
  }

  /** The sample still open at the end of the file goes in. */
  finishSamples(): void {
    if (this.open) this.flush();
  }

  // ── samples ──

  /** The open sample, its stack leading to `node`, goes into the tree. */
  protected addSample(node: number): void {
    const time = this.time;
    this.tree.addSample(node, this.weight, time);
    if (time < this.start) this.start = time;
    if (time > this.end) this.end = time;
  }

  /** Closes the open sample. */
  protected flush(): void {
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
  protected put(id: number): void {
    const stack = this.stack;
    if (this.height < stack.length) stack[this.height] = id;
    else stack.push(id);
    this.height++;
  }

  protected pushIds(ids: number | number[]): void {
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
  protected takeHeader(h: Header, t: Thread, at: number, period: number): void {
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
  protected startSample(h: Header, text: string, from: number, to: number, lineNo: number): void {
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
}
