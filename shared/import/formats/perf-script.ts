/**
 * Linux `perf script` text: one block per sample, a header line (`comm pid[/tid] [cpu] time:
 * period event:`) followed by the call chain leaf first, one `address symbol (dso)` line per
 * frame, and a blank line. Reference: Brendan Gregg's FlameGraph `stackcollapse-perf.pl` with
 * default options (https://github.com/brendangregg/FlameGraph), whose output `collapse()`
 * reproduces. This file reads the lines (one by one, or as records of the line scanner): samples,
 * event types and weights; the format is told from others in perf-sniff.ts, headers are cut into
 * their columns in perf-header.ts, what each frame is called (its reference label, V8 function,
 * script and tier, dso naming) is worked out in perf-frames.ts, frame lines are cut into their
 * columns in perf-frame-line.ts, and what is remembered to read a long capture fast is in
 * perf-seen.ts. Where we part ways with the script, on purpose:
 * - the last sample is kept when the file does not end with a blank line (the script drops it);
 * - a header met before the blank line that should close the previous sample closes it (the
 *   script would glue both stacks together), which also reads `perf script` without `-g`;
 * - a header without a timestamp still yields its period and event (the script only looks for
 *   them after a `time:` column).
 */
import { CallTreeBuilder, FrameTableBuilder, detached, finishProfile } from '../../model/builders';
import { GrowInt32 } from '../../model/grow';
import { MAX_WEIGHT } from '../../model/types';
import type { RunMeta, Unit } from '../../model/types';
import { ImportError } from '../errors';
import type { Importer } from '../importer';
import { TextTable, forEachLineIn, forEachLineOf } from '../lines';
import { LINE_WORDS, NUMS, REC, Rec, type ScanBatch, scanRecords } from '../line-scanner';
import { FrameLineNames } from './perf-frames';
import { type FrameLine, readFrame } from './perf-frame-line';
import { type Header, HeaderReader, type Shape, baseEvent, eventMatches, isSpace, skipSpace, timeFromDigits } from './perf-header';
import { RunFrames, SampleThreads, SeenLine, StackWalker, type Thread } from './perf-seen';
import { isPerfData, sniffPerfScript } from './perf-sniff';
import { withThreads } from './sample-threads';

export const perfScriptImporter: Importer = {
  id: 'perf-script',
  label: 'Linux perf script text ("perf script" after "perf record -g")',
  extensions: ['.perf', '.script', '.perf.txt', '.script.txt', '.data.txt'],
  sniff: sniffPerfScript,

  async parse({ file, source, options }) {
    if (isPerfData(source.head))
      throw new ImportError({
        file,
        message: 'this is a binary perf.data file; turn it into text first with `perf script -i perf.data > perf.script.txt` and open that',
      });
    const frames = new FrameTableBuilder();
    const tree = new CallTreeBuilder();
    const wanted = options.perfEvent?.trim() || undefined;
    let kept: string | undefined;
    const skippedEvents = new Map<string, number>();
    const processNames: Record<string, string> = {};
    const threadNames: Record<string, string> = {};
    let hasIds = false;

    // The sample being read: its root frame, weight, time and frames leaf first (`height` of
    // them: a counter, as emptying an array once per sample is a call into the runtime).
    let open = false;
    let rootFrame = 0;
    let weight = 1;
    let time = NaN;
    let java = false;
    const stack: number[] = [];
    let height = 0;
    let withPeriod = 0;
    // a float from the start: a sum that outgrows a small integer would make V8 recompile
    const periodSum = new Float64Array(1);
    let start = Infinity;
    let end = -Infinity;
    let headers = 0;

    const bad = { count: 0, first: 0, text: '' };
    const damaged = { count: 0, first: 0 };
    let orphans = 0;
    const hugePeriods = { count: 0, first: 0 };
    let reportLike = false;

    // The frames that runs of frame lines pushed, by the number the line scanner gave the run
    // (apart for processes named java); and the run that is all the open sample's frames so far.
    const runFrames: (RunFrames | undefined)[] = [];
    const javaRunFrames: (RunFrames | undefined)[] = [];
    let sampleRun: RunFrames | undefined;
    // The frames of every run remembered, end to end in one typed array (off the heap the
    // collector walks: an array of its own for each of thousands of runs was much of what it had
    // to mark).
    const pool = new GrowInt32(4096);

    const walker = new StackWalker(tree);
    /** Counts `n` damaged frame lines, the first of them at line `first`. */
    const countDamaged = (n: number, first: number) => {
      if (n === 0) return;
      if (damaged.count === 0) damaged.first = first;
      damaged.count += n;
    };
    /** The open sample, its stack leading to `node`, goes into the tree. */
    const addSample = (node: number) => {
      tree.addSample(node, weight, time);
      if (time < start) start = time;
      if (time > end) end = time;
    };

    const flush = () => {
      open = false;
      const run = sampleRun;
      sampleRun = undefined;
      if (run === undefined || run.length !== height) return addSample(walker.walk(rootFrame, stack, height));
      // The stack is one run met before: the node it leads to from this root is known.
      if (run.root !== rootFrame) {
        run.node = walker.walk(rootFrame, stack, height);
        run.root = rootFrame;
      }
      addSample(run.node);
    };

    const fl: FrameLine = { sym: 0, dso: 0, close: 0, damaged: false };
    const names = new FrameLineNames(frames);
    // Writes stay within the array or push: a write past its end would make V8 drop the
    // optimized code of the line reader (and compile it again) until it had seen that happen.
    const put = (id: number) => {
      if (height < stack.length) stack[height] = id;
      else stack.push(id);
      height++;
    };
    const pushIds = (ids: number | number[]) => {
      if (typeof ids === 'number') put(ids);
      else for (let i = ids.length - 1; i >= 0; i--) put(ids[i]!);
    };
    /** Pushes the frames of the frame line `readFrame` just read; returns them. */
    const pushFrame = (line: string, lineNo: number): number | number[] => {
      if (fl.damaged && damaged.count++ === 0) damaged.first = lineNo;
      const ids = names.of(line, fl, java);
      pushIds(ids);
      return ids;
    };
    // Whole frame lines, address included, with what they pushed: a long capture repeats the
    // same few thousand lines, so all but the first of each skip parsing (`readFrame`).
    const lineCache = new TextTable<SeenLine>();
    const javaLineCache = new TextTable<SeenLine>();

    const threads = new SampleThreads(frames, options.thread === 'all');
    /** Names the sample's process and thread: a process after its main thread (tid = pid), else after its first thread seen. */
    const nameThread = (h: Header, t: Thread) => {
      // (copied when they change: a name cut from a line would keep its whole chunk alive)
      const name = t.name;
      if ((h.tid === h.pid || processNames[h.pid!] === undefined) && processNames[h.pid!] !== name) processNames[h.pid!] = detached(name);
      if (threadNames[t.thread!] !== name) threadNames[t.thread!] = detached(name);
      hasIds = true;
    };
    const headerReader = new HeaderReader<Thread>();
    /** What a sample takes from its header: time, weight, root frame, process and thread names. */
    const takeHeader = (h: Header, t: Thread, at: number, period: number) => {
      time = at;
      weight = period > 0 ? period : 1;
      if (period > 0) {
        withPeriod++;
        periodSum[0]! += period;
      }
      java = t.java;
      rootFrame = t.root;
      tree.thread = t.index;
      if (h.pid !== undefined) nameThread(h, t);
    };

    const startSample = (h: Header, text: string, from: number, to: number, lineNo: number) => {
      headers++;
      if (h.event !== undefined) {
        if (kept === undefined && (wanted === undefined || eventMatches(h.event, wanted))) kept = h.event;
        if (h.event !== kept) {
          skippedEvents.set(detached(h.event), (skippedEvents.get(h.event) ?? 0) + 1);
          return;
        }
      }
      // As the reference: a missing or zero period counts 1.
      const period = h.period === undefined ? 0 : Number(h.period);
      if (period > MAX_WEIGHT) {
        // Periods are 64-bit counts, but one past 2^53 is no real period, and a few would add up
        // to Infinity: the sample is left out (its frame lines are skipped while it is not open).
        if (hugePeriods.count++ === 0) hugePeriods.first = lineNo;
        return;
      }
      open = true;
      height = 0;
      sampleRun = undefined;
      const shape = headerReader.shape;
      let t = shape?.extra;
      if (t === undefined) {
        t = threads.of(h);
        if (shape !== undefined) shape.extra = t;
      }
      takeHeader(h, t, h.time, period);
      if (h.inlineFrame !== undefined) {
        const line = text.slice(from, to);
        if (readFrame(line, h.inlineFrame, fl)) pushFrame(line, lineNo);
      }
    };

    // The line reader is three functions, the one called for every line small: V8 optimizes a
    // function after an amount of work that grows with its size, and the first megabytes of a
    // big file are read before that.

    /** A frame line met before: the frames it pushes. */
    const seenLine = (seen: SeenLine, lineNo: number) => {
      if (seen.damaged && damaged.count++ === 0) damaged.first = lineNo;
      pushIds(seen.ids);
    };

    /** Any other line: blank, a header, a comment, a frame line met for the first time, or bad. */
    const otherLine = (text: string, from: number, to: number, lineNo: number, c: number) => {
      if (from === to) {
        if (open) flush();
        return;
      }
      if (!isSpace(c) && c !== 35 /* # */) {
        const h = headerReader.read(text, from, to);
        if (h) {
          if (open) flush();
          startSample(h, text, from, to, lineNo);
          return;
        }
      }
      const line = text.slice(from, to);
      if (isSpace(c) && skipSpace(line, 0) === line.length) {
        if (open) flush();
        return;
      }
      if (c === 35) {
        if (!reportLike && /^# (Overhead|Samples: )/.test(line)) reportLike = true;
        return;
      }
      if (readFrame(line, 0, fl)) {
        if (open) {
          const ids = pushFrame(line, lineNo);
          if (isSpace(c)) (java ? javaLineCache : lineCache).set(text, from, to, new SeenLine(ids, fl.damaged));
        } else if (headers === 0) orphans++;
        return;
      }
      if (bad.count++ === 0) {
        bad.first = lineNo;
        bad.text = line.length > 120 ? `${line.slice(0, 120)}…` : line;
      }
    };

    const readLine = (text: string, from: number, to: number, lineNo: number) => {
      const c = from < to ? text.charCodeAt(from) : NaN;
      if (open && isSpace(c)) {
        const seen = (java ? javaLineCache : lineCache).get(text, from, to);
        if (seen !== undefined) return seenLine(seen, lineNo);
      }
      otherLine(text, from, to, lineNo, c);
    };

    // What each frame line (or plain frame line's symbol) the scanner numbered pushes (null: it is
    // no frame line), apart for processes named java.
    const lineFrames: (SeenLine | null | undefined)[] = [];
    const javaLineFrames: (SeenLine | null | undefined)[] = [];

    /**
     * A run met for the first time, in an open sample, from its numbered lines: only the lines
     * never met before are read. False (and nothing done) when one of them is not a frame line:
     * the run is then read line by line, which counts and reports it.
     */
    const newRun = (b: ScanBatch, i: number, lineNo: number): boolean => {
      const words = b.lineWords;
      const at = b.records[i * REC + 6]!;
      const n = b.records[i * REC + 5]!;
      const known = java ? javaLineFrames : lineFrames;
      const below = height;
      let runDamaged = 0;
      let firstDamaged = 0;
      for (let k = 0; k < n; k++) {
        const w = at + LINE_WORDS * k;
        const lid = words[w]!;
        let seen = known[lid];
        if (seen === undefined) {
          if (words[w + 3]! >= 0) {
            // A plain frame line: its symbol (without offset) and dso column, numbered by the
            // scanner, so met here once.
            const sym = b.decode(words[w + 1]!, words[w + 2]!);
            seen = new SeenLine(names.named(sym, b.decode(words[w + 3]!, words[w + 4]!), false, java), false);
          } else {
            const line = b.decode(words[w + 1]!, words[w + 2]!);
            seen = readFrame(line, 0, fl) ? new SeenLine(names.of(line, fl, java, false), fl.damaged) : null;
          }
          while (known.length < lid) known.push(undefined);
          known[lid] = seen;
        }
        if (seen === null) {
          height = below;
          return false;
        }
        pushIds(seen.ids);
        if (seen.damaged && runDamaged++ === 0) firstDamaged = k;
      }
      countDamaged(runDamaged, lineNo + firstDamaged);
      rememberRun(b.records[i * REC + 3]!, below, runDamaged, firstDamaged);
      return true;
    };

    /** Remembers run `id`: the frames pushed from `below` on, its damaged lines and the first of them. */
    const rememberRun = (id: number, below: number, runDamaged: number, firstDamaged: number) => {
      const start = pool.length;
      for (let i = below; i < height; i++) pool.push(stack[i]!);
      const run = new RunFrames(start, height - below, runDamaged, firstDamaged);
      const table = java ? javaRunFrames : runFrames;
      while (table.length < id) table.push(undefined);
      table[id] = run;
      if (below === 0) sampleRun = run;
    };

    /**
     * A run of frame lines from the line scanner (record `i` of `b`, its first line `lineNo`):
     * one met before in a sample of the same kind pushes what it pushed then; any other is read
     * line by line, and remembered when all of its lines were frames.
     */
    const readRun = (b: ScanBatch, i: number, lineNo: number) => {
      const id = b.records[i * REC + 3]!;
      if (open && id >= 0) {
        const run = (java ? javaRunFrames : runFrames)[id];
        if (run !== undefined) {
          if (height === 0) sampleRun = run;
          const ids = pool.data;
          for (let k = run.start, e = run.start + run.length; k < e; k++) put(ids[k]!);
          countDamaged(run.damaged, lineNo + run.firstDamaged);
          return;
        }
      }
      if (!open && id >= 0 && (runFrames[id] ?? javaRunFrames[id]) !== undefined) {
        // frame lines outside a sample (of an event left out, or before the first header)
        if (headers === 0) orphans += b.records[i * REC + 5]!;
        return;
      }
      if (open && b.records[i * REC + 6]! >= 0 && newRun(b, i, lineNo)) return;
      const wasOpen = open;
      const below = height;
      const badBefore = bad.count;
      const damagedBefore = damaged.count;
      const firstDamagedBefore = damaged.first;
      damaged.count = 0;
      forEachLineOf(b.text(i, lineNo), lineNo - 1, readLine);
      const runDamaged = damaged.count;
      const runFirstDamaged = damaged.first - lineNo;
      damaged.count += damagedBefore;
      if (damagedBefore > 0) damaged.first = firstDamagedBefore;
      if (id < 0 || !wasOpen || !open || bad.count !== badBefore) return;
      // (indented lines start no sample and end none: the sample is the one the run began in)
      rememberRun(id, below, runDamaged, runDamaged > 0 ? runFirstDamaged : 0);
    };

    /**
     * A sample made of a header of shape `s` at time `at`, the run of frame lines that is record
     * `i` of `b` and a blank line, when that run came before in a sample of the same thread with
     * nothing else (and no damaged line): its sample is taken at once, as `startSample`, the run
     * and `flush` would take it. False (and nothing done) otherwise.
     */
    const knownSample = (s: Shape<Thread>, b: ScanBatch, i: number, at: number): boolean => {
      const t = s.extra;
      const h = s.h;
      if (t === undefined || (h.event !== undefined && h.event !== kept) || t.period > MAX_WEIGHT) return false;
      const id = b.records[i * REC + 3]!;
      const run = id < 0 ? undefined : (t.java ? javaRunFrames : runFrames)[id];
      if (run === undefined || run.root !== t.root || run.damaged > 0) return false;
      headers++;
      takeHeader(h, t, at, t.period);
      addSample(run.node);
      return true;
    };

    // Header shapes the line scanner knows, by the number it gave them.
    const shapes: Shape<Thread>[] = [];
    let newShapes: Shape<Thread>[] = [];
    const scanned = await scanRecords(source, file, 'perf', (b) => {
      headerReader.onShape = (s) => newShapes.push(s);
      const r = b.records;
      for (let i = 0; i < b.count; i++) {
        const lineNo = b.line(i);
        const kind = r[i * REC]!;
        if (kind === Rec.Run) readRun(b, i, lineNo);
        else if (kind === Rec.Blank) {
          if (open) flush();
        } else if (kind === Rec.Header) {
          // a header like one met before (HeaderReader.read), at another time
          const s = shapes[r[i * REC + 3]!]!;
          const at = timeFromDigits(b.numbers[i * NUMS]!, b.numbers[i * NUMS + 1]!, r[i * REC + 6]!);
          if (!open && i + 2 < b.count && r[(i + 1) * REC] === Rec.Run && r[(i + 2) * REC] === Rec.Blank && knownSample(s, b, i + 1, at)) {
            b.line(i + 1);
            b.line(i + 2);
            i += 2;
            continue;
          }
          s.h.time = at;
          headerReader.shape = s;
          if (open) flush();
          startSample(s.h, '', 0, 0, lineNo);
        } else {
          const text = b.text(i, lineNo);
          readLine(text, 0, text.length, lineNo);
        }
      }
      for (const s of newShapes) if (b.addShape(s.head, s.tail) === shapes.length) shapes.push(s);
      newShapes = [];
    });
    const lines = scanned ?? (await forEachLineIn(source.chunks(), file, readLine));
    if (open) flush();

    const samples = tree.sampleCount;
    if (samples === 0) {
      let message: string;
      if (wanted !== undefined && skippedEvents.size > 0)
        message = `no samples of event "${wanted}"; this file has ${[...skippedEvents].map(([e, n]) => `${e} (${n} samples)`).join(', ')}`;
      else if (reportLike)
        message = 'this is `perf report` output, which has no call stacks per sample; open the output of `perf script` instead';
      else if (lines === 0) message = 'the file is empty';
      else
        message =
          'no perf script samples found: expected sample headers like "node 1234 [000] 12.345678: 1001001 cpu-clock:" each followed by frame lines like "\\tffffffff8100 func (dso)"; make the file with `perf script` from a `perf record -g` capture';
      throw new ImportError(bad.count > 0 ? { file, line: bad.first, message } : { file, message });
    }

    const warnings: string[] = [];
    if (bad.count > 0)
      warnings.push(`skipped ${bad.count} line(s) that are neither a sample header nor a frame, first at line ${bad.first}: "${bad.text}"`);
    if (damaged.count > 0)
      warnings.push(
        `${damaged.count} frame line(s) had stray text after the "(dso)" column, first at line ${damaged.first}; their frames were kept`,
      );
    if (orphans > 0) warnings.push(`skipped ${orphans} frame line(s) before the first sample header`);
    if (hugePeriods.count > 0)
      warnings.push(`left out ${hugePeriods.count} sample(s) whose period is past 2^53, first at line ${hugePeriods.first}`);
    if (skippedEvents.size > 0) {
      const n = [...skippedEvents.values()].reduce((a, b) => a + b, 0);
      warnings.push(
        `kept only "${kept}" samples; left out ${n} sample(s) of ${[...skippedEvents.keys()].join(', ')} (choose another event in the import options)`,
      );
    }
    if (wanted !== undefined && kept === undefined)
      warnings.push(`the file names no event types, so the event "${wanted}" could not be chosen`);

    let unit: Unit = 'samples';
    if (withPeriod > 0) unit = kept !== undefined && /^(cpu|task)-clock$/.test(baseEvent(kept)) ? 'nanoseconds' : 'events';
    const meta: RunMeta = { producer: 'perf script', warnings };
    if (Number.isFinite(start)) {
      meta.startTime = start;
      meta.endTime = end;
    }
    // A clock event's period is its sampling interval, in nanoseconds.
    if (unit === 'nanoseconds') meta.sampleInterval = periodSum[0]! / withPeriod / 1000;
    if (kept !== undefined) meta.eventType = kept;
    if (skippedEvents.size > 0) meta.otherEventTypes = [...skippedEvents.keys()];
    if (hasIds) {
      meta.processNames = processNames;
      meta.threadNames = threadNames;
    }
    const p = finishProfile({ name: file, format: 'perf-script', kind: 'sampled', unit, frames, tree, meta });
    return withThreads(file, p, threads.keys, threads.names, options.thread);
  },
};
