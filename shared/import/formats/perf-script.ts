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
import { type LineCursor, TextTable, forEachLineIn } from '../lines';
import { perfFrameInputs, withoutOffset } from './perf-frames';
import { type FrameLine, readFrame } from './perf-frame-line';
import { type Header, HeaderReader, isSpace, readHeader, skipSpace } from './perf-header';
import { SampleLines, SeenLine } from './perf-tails';

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

    const flush = () => {
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
      const cache = java ? javaFrameCache : frameCache;
      const key = line.slice(fl.sym, fl.close);
      let ids = cache.get(key);
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
        cache.set(detached(key), ids);
      }
      pushIds(ids);
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
      return { root, name, java: label === 'java', thread: h.pid === undefined ? undefined : `${h.pid}:${h.tid}` };
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
      if (h.pid !== undefined) {
        // A process is named after its main thread (tid = pid), else after its first thread seen.
        // (copied when they change: a name cut from a line would keep its whole chunk alive)
        const name = t.name;
        if ((h.tid === h.pid || processNames[h.pid] === undefined) && processNames[h.pid] !== name) processNames[h.pid] = detached(name);
        if (threadNames[t.thread!] !== name) threadNames[t.thread!] = detached(name);
        hasIds = true;
      }
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

    const lines = await forEachLineIn(source.chunks(), file, (text, from, to, lineNo, cursor: LineCursor) => {
      const c = from < to ? text.charCodeAt(from) : NaN;
      if (open && isSpace(c)) {
        const seen = (java ? javaLineCache : lineCache).get(text, from, to);
        if (seen !== undefined) return seenLine(seen, text, to, lineNo, cursor);
      }
      otherLine(text, from, to, lineNo, c);
    });
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
