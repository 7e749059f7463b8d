/**
 * The `perf script` reader as the importer runs it: the line scanner numbers call chains (runs of
 * frame lines), frame lines and header shapes it met before, so a chain met before pushes the
 * frames it pushed then and a known sample goes in without a line being read; anything else is
 * read line by line by PerfLineReader (perf-line-reader.ts).
 */
import { GrowInt32 } from '../../../model/grow';
import { MAX_WEIGHT } from '../../../model/types';
import { forEachLineOf } from '../../io/lines';
import { LINE_WORDS, NUMS, REC, Rec, type ScanBatch, Word } from '../../io/line-scanner';
import { readFrame } from './perf-frame-line';
import { type Shape, timeFromDigits } from './perf-header';
import { PerfLineReader } from './perf-line-reader';
import { RunFrames, SeenLine, type Thread } from './perf-seen';

/** Reads `perf script` as the line scanner's records, and line by line where the scanner could not. */
export class PerfScriptReader extends PerfLineReader {
  // The frames that runs of frame lines pushed, by the number the line scanner gave the run
  // (apart for processes named java).
  private readonly runFrames: (RunFrames | undefined)[] = [];
  private readonly javaRunFrames: (RunFrames | undefined)[] = [];
  // The frames of every run remembered, end to end in one typed array (off the heap the collector
  // walks: an array of its own for each of thousands of runs was much of what it had to mark).
  private readonly pool = new GrowInt32(4096);
  // What each frame line (or plain frame line's symbol) the scanner numbered pushes (null: it is
  // no frame line), apart for processes named java.
  private readonly lineFrames: (SeenLine | null | undefined)[] = [];
  private readonly javaLineFrames: (SeenLine | null | undefined)[] = [];
  // Header shapes the line scanner knows, by the number it gave them, and those met in a batch.
  private readonly shapes: Shape<Thread>[] = [];
  private newShapes: Shape<Thread>[] = [];

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
