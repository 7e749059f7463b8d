/**
 * Linux `perf script` text: one block per sample, a header line (`comm pid[/tid] [cpu] time:
 * period event:`) followed by the call chain leaf first, one `address symbol (dso)` line per
 * frame, and a blank line. Reference: Brendan Gregg's FlameGraph `stackcollapse-perf.pl` with
 * default options (https://github.com/brendangregg/FlameGraph), whose output `collapse()`
 * reproduces. This file reads the lines: frame line layout, samples, event types and weights;
 * headers are cut into their columns in perf-header.ts, what each frame is called (its reference
 * label, V8 function, script and tier, dso naming) is worked out in perf-frames.ts, frame lines
 * are cut into their columns in perf-frame-line.ts, and what is remembered of frame lines to read
 * a long capture fast is in perf-tails.ts. Where we part ways with the script, on purpose:
 * - the last sample is kept when the file does not end with a blank line (the script drops it);
 * - a header met before the blank line that should close the previous sample closes it (the
 *   script would glue both stacks together), which also reads `perf script` without `-g`;
 * - a header without a timestamp still yields its period and event (the script only looks for
 *   them after a `time:` column).
 */
import { CallTreeBuilder, FrameTableBuilder, detached, finishProfile } from '../../model/builders';
import { Category, MAX_WEIGHT, Tier } from '../../model/types';
import type { RunMeta, Unit } from '../../model/types';
import { ImportError } from '../errors';
import type { Importer } from '../importer';
import { type LineCursor, TextTable, forEachLineIn, forEachLineOf } from '../lines';
import { NUMS, REC, Rec, type ScanBatch, scanRecords } from '../line-scanner';
import { perfFrameInputs, withoutOffset } from './perf-frames';
import { type FrameLine, readFrame } from './perf-frame-line';
import { type Header, HeaderReader, type Shape, isSpace, readHeader, skipSpace, timeFromDigits } from './perf-header';
import { RunFrames, SampleLines, SeenLine } from './perf-tails';

// ---------------------------------------------------------------------------------------------
// Event types.

/** `cycles:u` → `cycles`, `cpu-clock:pppH` → `cpu-clock`; tracepoints (`sched:sched_switch`) stay. */
function baseEvent(event: string): string {
  const m = /^(.+):([ukhIGHpPSDWe]+)$/.exec(event);
  return m ? m[1]! : event;
}

function eventMatches(event: string, wanted: string): boolean {
  if (event === wanted) return true;
  return baseEvent(wanted) === wanted && baseEvent(event) === wanted;
}

// ---------------------------------------------------------------------------------------------

const HEX_ADDRESS = /^\s*[0-9a-fA-F]+\s/;

function looksLikeHeader(line: string): boolean {
  if (line === '' || isSpace(line.charCodeAt(0)) || line.startsWith('#')) return false;
  const h = readHeader(line);
  return h !== undefined && (h.event !== undefined || !Number.isNaN(h.time));
}

function looksLikeFrame(line: string): boolean {
  return HEX_ADDRESS.test(line) && readFrame(line, 0, { sym: 0, dso: 0, close: 0, damaged: false });
}

function isPerfData(head: string): boolean {
  return head.startsWith('PERFILE2') || head.startsWith('PERFFILE');
}

export const perfScriptImporter: Importer = {
  id: 'perf-script',
  label: 'Linux perf script text ("perf script" after "perf record -g")',
  extensions: ['.perf', '.script', '.perf.txt', '.script.txt', '.data.txt'],
  sniff(head, fileName) {
    // perf.data itself is claimed only to say how to turn it into text.
    if (isPerfData(head)) return true;
    const first = head.trimStart().charAt(0);
    if (first === '{' || first === '[' || first === '<') return false;
    const lines = head.split('\n', 2000);
    let perfBanner = false;
    let headers = 0;
    let oneLiners = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.replace(/\r$/, '');
      if (line.startsWith('#')) {
        if (/^# (perf version|captured on)\b/.test(line)) perfBanner = true;
        continue;
      }
      if (!looksLikeHeader(line)) continue;
      headers++;
      const next = lines[i + 1]?.replace(/\r$/, '');
      if (next !== undefined && looksLikeFrame(next)) return true;
      const h = readHeader(line)!;
      if (h.inlineFrame !== undefined && looksLikeFrame(line.slice(h.inlineFrame)) && ++oneLiners >= 2) return true;
    }
    if (perfBanner && lines[0]!.startsWith('# ========')) return true;
    return headers > 0 && /perf/i.test(fileName) && !/\.(json|folded|collapsed)$/i.test(fileName);
  },

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

    const rootCache = new Map<string, number>();
    const bad = { count: 0, first: 0, text: '' };
    const damaged = { count: 0, first: 0 };
    let orphans = 0;
    const hugePeriods = { count: 0, first: 0 };
    let reportLike = false;
    const sampleLines = new SampleLines();

    // The frames that runs of frame lines pushed, by the number the line scanner gave the run
    // (apart for processes named java); and the run that is all the open sample's frames so far.
    const runFrames: (RunFrames | undefined)[] = [];
    const javaRunFrames: (RunFrames | undefined)[] = [];
    let sampleRun: RunFrames | undefined;

    // The stack walked down last (root frame first, then its frames root → leaf) and the node
    // each of them led to: one stack shares most of its root end with the one before.
    const walkedIds: number[] = [];
    const walkedNodes: number[] = [];
    let walked = 0;
    /** The node the open sample's stack leads to, walked down from the root frame. */
    const walkDown = (): number => {
      let k = 0;
      if (walked > 0 && walkedIds[0] === rootFrame) {
        k = 1;
        while (k < walked && k <= height && walkedIds[k] === stack[height - k]) k++;
      }
      let node = k > 0 ? walkedNodes[k - 1]! : tree.child(tree.root, rootFrame);
      if (k === 0) {
        walkedIds[0] = rootFrame;
        walkedNodes[0] = node;
        k = 1;
      }
      // (within the arrays or pushed: a write past their end makes V8 drop optimized code)
      for (; k <= height; k++) {
        const frame = stack[height - k]!;
        node = tree.child(node, frame);
        if (k < walkedIds.length) {
          walkedIds[k] = frame;
          walkedNodes[k] = node;
        } else {
          walkedIds.push(frame);
          walkedNodes.push(node);
        }
      }
      walked = height + 1;
      return node;
    };

    const flush = () => {
      open = false;
      const run = sampleRun;
      sampleRun = undefined;
      if (run !== undefined && run.ids.length === height) {
        // The stack is one run met before: the node it leads to from this root is known.
        if (run.root !== rootFrame) {
          run.node = walkDown();
          run.root = rootFrame;
        }
        tree.addSample(run.node, weight, time);
        if (time < start) start = time;
        if (time > end) end = time;
        return;
      }
      sampleLines.noteTails(stack, height);
      // The stack's root end is the tail taken at once, when it ends the sample: the node its
      // frames lead to is known from the last time.
      const taken = sampleLines.takenEnd === height ? sampleLines.taken : undefined;
      const below = taken === undefined ? -1 : height - (taken.ids.length - taken.from);
      let node: number;
      let i = height - 1;
      if (taken !== undefined && taken.root === rootFrame) {
        node = taken.node;
        i = below - 1;
      } else node = tree.child(tree.root, rootFrame);
      for (; i >= 0; i--) {
        node = tree.child(node, stack[i]!);
        if (taken !== undefined && i === below) {
          taken.node = node;
          taken.root = rootFrame;
        }
      }
      tree.addSample(node, weight, time);
      if (time < start) start = time;
      if (time > end) end = time;
      open = false;
    };

    const fl: FrameLine = { sym: 0, dso: 0, close: 0, damaged: false };
    const cursor: LineCursor = { lines: 0, next: 0 };
    // Frames by their text `symbol+0x1f (dso`, apart for processes named java (labels differ
    // there); and by the same text without the offset, met again for every call site of a
    // function: naming and interning its frames once per function, not once per call site.
    const frameCache = new Map<string, number | number[]>();
    const javaFrameCache = new Map<string, number | number[]>();
    const symbolCache = new Map<string, number | number[]>();
    const javaSymbolCache = new Map<string, number | number[]>();
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
      const ids = framesOf(line);
      pushIds(ids);
      return ids;
    };
    /**
     * The frames of the frame line `readFrame` just read. `byLine`: look in (and fill) the cache
     * of lines by their text after the address (needless for lines the line scanner numbered:
     * it tells lines apart by their whole text, and a line's address goes with its offset).
     */
    const framesOf = (line: string, byLine = true): number | number[] => {
      const cache = java ? javaFrameCache : frameCache;
      const key = byLine ? line.slice(fl.sym, fl.close) : '';
      let ids = byLine ? cache.get(key) : undefined;
      if (ids === undefined) {
        // The dso column holds no blank, so no `" ("`: the text without the offset is unambiguous.
        // (What the frames depend on: `damaged` only matters with a `)` inside the column, which
        // makes every line with that column damaged.)
        const sym = withoutOffset(line.slice(fl.sym, fl.dso - 2));
        const bySymbol = java ? javaSymbolCache : symbolCache;
        const symKey = sym + line.slice(fl.dso - 2, fl.close);
        ids = bySymbol.get(symKey);
        if (ids === undefined) {
          const inputs = perfFrameInputs(sym, line.slice(fl.dso, fl.close), fl.damaged, java);
          const interned: number[] = [];
          if (inputs !== undefined) for (let i = 0; i < inputs.length; i++) interned.push(frames.intern(inputs[i]!));
          ids = interned.length === 1 ? interned[0]! : interned;
          bySymbol.set(detached(symKey), ids);
        }
        if (byLine) cache.set(detached(key), ids);
      }
      return ids;
    };
    // Whole frame lines, address included, with what they pushed: a long capture repeats the
    // same few thousand lines, so all but the first of each skip parsing (`readFrame`).
    const lineCache = new TextTable<SeenLine>();
    const javaLineCache = new TextTable<SeenLine>();

    /** What a sample takes from its header's comm and ids, worked out once per header shape. */
    interface Thread {
      root: number;
      name: string;
      java: boolean;
      /** `pid:tid`, with ids */
      thread: string | undefined;
      /** the header's period (0: none) */
      period: number;
    }
    const threadOf = (h: Header): Thread => {
      // The reference's root is the comm with blanks made `_` (`V8 WorkerThread` → `V8_WorkerThread`).
      const label = h.comm.replaceAll(' ', '_');
      const name = h.comm.trimEnd();
      let root = rootCache.get(h.comm);
      if (root === undefined) {
        // swapper is the kernel's idle task: its samples are idle CPU time.
        const category = name === 'swapper' ? Category.Idle : Category.Other;
        root = frames.intern({ name, tier: Tier.Unknown, category, label });
        rootCache.set(detached(h.comm), root);
      }
      const period = h.period === undefined ? 0 : Number(h.period);
      return { root, name, java: label === 'java', thread: h.pid === undefined ? undefined : `${h.pid}:${h.tid}`, period };
    };
    /** Names the sample's process and thread: a process after its main thread (tid = pid), else after its first thread seen. */
    const nameThread = (h: Header, t: Thread) => {
      // (copied when they change: a name cut from a line would keep its whole chunk alive)
      const name = t.name;
      if ((h.tid === h.pid || processNames[h.pid!] === undefined) && processNames[h.pid!] !== name) processNames[h.pid!] = detached(name);
      if (threadNames[t.thread!] !== name) threadNames[t.thread!] = detached(name);
      hasIds = true;
    };
    const headerReader = new HeaderReader<Thread>();

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
      sampleLines.reset();
      time = h.time;
      weight = period > 0 ? period : 1;
      if (period > 0) {
        withPeriod++;
        periodSum[0]! += period;
      }
      const shape = headerReader.shape;
      let t = shape?.extra;
      if (t === undefined) {
        t = threadOf(h);
        if (shape !== undefined) shape.extra = t;
      }
      java = t.java;
      rootFrame = t.root;
      if (h.pid !== undefined) nameThread(h, t);
      if (h.inlineFrame !== undefined) {
        const line = text.slice(from, to);
        if (readFrame(line, h.inlineFrame, fl)) pushFrame(line, lineNo);
      }
    };

    // The line reader is three functions, the one called for every line small: V8 optimizes a
    // function after an amount of work that grows with its size, and the first megabytes of a
    // big file are read before that.

    /** A frame line met before: the frames it pushes, and the rest of its sample when that is a tail of it. */
    const seenLine = (seen: SeenLine, text: string, to: number, lineNo: number, cursor: LineCursor) => {
      if (seen.damaged && damaged.count++ === 0) damaged.first = lineNo;
      pushIds(seen.ids);
      // this line's `\n` (after a `\r`, if any; a line joined across chunks ends the text)
      const nl = to < text.length && text.charCodeAt(to) === 13 ? to + 1 : to;
      sampleLines.note(seen, text, nl, height);
      const tail = sampleLines.take(seen, text, nl, height);
      if (tail === undefined) return;
      const ids = tail.ids;
      for (let i = tail.from; i < ids.length; i++) put(ids[i]!);
      if (tail.damaged > 0) {
        if (damaged.count === 0) damaged.first = lineNo + tail.firstDamaged;
        damaged.count += tail.damaged;
      }
      cursor.lines = tail.lines;
      cursor.next = nl + tail.text.length + 1;
      // The blank line that ends the sample, read here too.
      if (cursor.next < text.length && text.charCodeAt(cursor.next) === 10) {
        flush();
        cursor.lines++;
        cursor.next++;
      }
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
        sampleLines.tailable = false;
        return;
      }
      if (readFrame(line, 0, fl)) {
        if (open) {
          const ids = pushFrame(line, lineNo);
          let seen: SeenLine | undefined;
          if (isSpace(c)) {
            seen = new SeenLine(ids, fl.damaged);
            (java ? javaLineCache : lineCache).set(text, from, to, seen);
          }
          sampleLines.note(seen, text, to < text.length && text.charCodeAt(to) === 13 ? to + 1 : to, height);
        } else if (headers === 0) orphans++;
        return;
      }
      sampleLines.tailable = false;
      if (bad.count++ === 0) {
        bad.first = lineNo;
        bad.text = line.length > 120 ? `${line.slice(0, 120)}…` : line;
      }
    };

    const readLine = (text: string, from: number, to: number, lineNo: number, cursor: LineCursor) => {
      const c = from < to ? text.charCodeAt(from) : NaN;
      if (open && isSpace(c)) {
        const seen = (java ? javaLineCache : lineCache).get(text, from, to);
        if (seen !== undefined) return seenLine(seen, text, to, lineNo, cursor);
      }
      otherLine(text, from, to, lineNo, c);
    };

    /**
     * A run of frame lines from the line scanner (record `i` of `b`, its first line `lineNo`):
     * one met before in a sample of the same kind pushes what it pushed then; any other is read
     * line by line, and remembered when all of its lines were frames.
     */
    // What each frame line the scanner numbered pushes (null: it is no frame line), apart for
    // processes named java.
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
        const w = at + 3 * k;
        const lid = words[w]!;
        let seen = known[lid];
        if (seen === undefined) {
          const line = b.decode(words[w + 1]!, words[w + 2]!, lineNo + k);
          seen = readFrame(line, 0, fl) ? new SeenLine(framesOf(line, false), fl.damaged) : null;
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
      if (runDamaged > 0) {
        if (damaged.count === 0) damaged.first = lineNo + firstDamaged;
        damaged.count += runDamaged;
      }
      const run = new RunFrames(Int32Array.from(stack.slice(below, height)), runDamaged, firstDamaged);
      const table = java ? javaRunFrames : runFrames;
      const id = b.records[i * REC + 3]!;
      while (table.length < id) table.push(undefined);
      table[id] = run;
      if (below === 0) sampleRun = run;
      return true;
    };

    const readRun = (b: ScanBatch, i: number, lineNo: number) => {
      const id = b.records[i * REC + 3]!;
      if (open && id >= 0) {
        const run = (java ? javaRunFrames : runFrames)[id];
        if (run !== undefined) {
          if (height === 0) sampleRun = run;
          const ids = run.ids;
          for (let k = 0; k < ids.length; k++) put(ids[k]!);
          if (run.damaged > 0) {
            if (damaged.count === 0) damaged.first = lineNo + run.firstDamaged;
            damaged.count += run.damaged;
          }
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
      const run = new RunFrames(Int32Array.from(stack.slice(below, height)), runDamaged, runDamaged > 0 ? runFirstDamaged : 0);
      const table = java ? javaRunFrames : runFrames;
      while (table.length < id) table.push(undefined);
      table[id] = run;
      if (below === 0) sampleRun = run;
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
      java = t.java;
      rootFrame = t.root;
      time = at;
      weight = t.period > 0 ? t.period : 1;
      if (t.period > 0) {
        withPeriod++;
        periodSum[0]! += t.period;
      }
      if (h.pid !== undefined) nameThread(h, t);
      tree.addSample(run.node, weight, time);
      if (time < start) start = time;
      if (time > end) end = time;
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
          cursor.lines = 0;
          readLine(text, 0, text.length, lineNo, cursor);
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
    return finishProfile({ name: file, format: 'perf-script', kind: 'sampled', unit, frames, tree, meta });
  },
};
