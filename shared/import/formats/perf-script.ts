/**
 * Linux `perf script` text: one block per sample, a header line (`comm pid[/tid] [cpu] time:
 * period event:`) followed by the call chain leaf first, one `address symbol (dso)` line per
 * frame, and a blank line. Reference: Brendan Gregg's FlameGraph `stackcollapse-perf.pl` with
 * default options (https://github.com/brendangregg/FlameGraph), whose output `collapse()`
 * reproduces. This file reads the lines: headers, frame line layout, samples, event types and
 * weights; what each frame is called (its reference label, V8 function, script and tier, dso
 * naming) is worked out in perf-frames.ts. Where we part ways with the script, on purpose:
 * - the last sample is kept when the file does not end with a blank line (the script drops it);
 * - a header met before the blank line that should close the previous sample closes it (the
 *   script would glue both stacks together), which also reads `perf script` without `-g`;
 * - a header without a timestamp still yields its period and event (the script only looks for
 *   them after a `time:` column).
 */
import { CallTreeBuilder, FrameTableBuilder, detached, finishProfile } from '../../model/builders';
import { Category, MAX_WEIGHT, Tier, isTime } from '../../model/types';
import type { RunMeta, Unit } from '../../model/types';
import { ImportError } from '../errors';
import type { Importer } from '../importer';
import { type LineCursor, TextTable, forEachLineIn } from '../lines';
import { perfFrameInputs } from './perf-frames';

// ---------------------------------------------------------------------------------------------
// Characters. Perl's \s and \w (ASCII) are what the reference output depends on.

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isWord(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
function skipSpace(s: string, i: number): number {
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i;
}

// ---------------------------------------------------------------------------------------------
// Sample header lines.

interface Header {
  /** process name as printed, spaces included (`V8 WorkerThread`) */
  comm: string;
  pid?: string;
  tid: string;
  /** microseconds; NaN without a timestamp column */
  time: number;
  event?: string;
  period?: string;
  /** where a frame printed on the header line itself starts (`perf script` without `-g`) */
  inlineFrame?: number;
}

interface Ids {
  comm: string;
  first: string;
  second?: string;
  /** index of the blank after the ids */
  end: number;
}

/** The ids when the comm is `line.slice(0, e)` and `line[e]` is a blank; else undefined. */
function idsAfter(line: string, e: number): Ids | undefined {
  const n = line.length;
  let j = skipSpace(line, e);
  const d0 = j;
  while (j < n && isDigit(line.charCodeAt(j))) j++;
  if (j === d0) return undefined;
  const first = line.slice(d0, j);
  while (j < n && line.charCodeAt(j) === 47 /* / */) j++;
  const t0 = j;
  while (j < n && isDigit(line.charCodeAt(j))) j++;
  if (j >= n || !isSpace(line.charCodeAt(j))) return undefined;
  const ids: Ids = { comm: line.slice(0, e), first, end: j };
  if (j > t0) ids.second = line.slice(t0, j);
  return ids;
}

/**
 * comm, pid and tid, read as the reference reads them: the shortest name of two or more
 * characters followed by blanks and a number (`swapper     0 [001] …`), the number optionally
 * `pid/tid` (`iperf 27409/28744 [000] …`), then a blank. A name may contain spaces
 * (`V8 WorkerThread 24636/25607 [000] …`) but a name followed by a number is cut there. A
 * one-character name is only a fallback (the reference skips such lines; `x 12 1.0: cycles:`).
 */
function readIds(line: string): Ids | undefined {
  for (let e = 2; e < line.length; e++) {
    if (!isSpace(line.charCodeAt(e))) continue;
    const ids = idsAfter(line, e);
    if (ids) return ids;
    // Any longer name ending inside the same run of blanks meets the same text after it.
    e = skipSpace(line, e) - 1;
  }
  return line.length > 1 && isSpace(line.charCodeAt(1)) ? idsAfter(line, 1) : undefined;
}

/**
 * The event and period as the reference finds them: the line ends in `EVENT:` (the event may
 * carry modifiers, `cpu-clock:pppH:`), preceded by an optional period right after a colon —
 * `dd 29776 666709.771979:   10101010 cpu-clock: `.
 */
function eventAtEnd(line: string): { event: string; period?: string } | undefined {
  let e = line.length;
  while (e > 0 && isSpace(line.charCodeAt(e - 1))) e--;
  if (e < 2 || line.charCodeAt(e - 1) !== 58 /* : */) return undefined;
  let s = e - 1;
  while (s > 0 && !isSpace(line.charCodeAt(s - 1))) s--;
  if (s === e - 1 || s === 0) return undefined;
  const event = line.slice(s, e - 1);
  let w = s;
  while (w > 0 && isSpace(line.charCodeAt(w - 1))) w--;
  let d = w;
  while (d > 0 && isDigit(line.charCodeAt(d - 1))) d--;
  if (d < w) {
    let c = d;
    while (c > 0 && isSpace(line.charCodeAt(c - 1))) c--;
    return c > 0 && line.charCodeAt(c - 1) === 58 ? { event, period: line.slice(d, w) } : undefined;
  }
  if (w > 0 && line.charCodeAt(w - 1) === 58) return { event };
  return undefined;
}

const TIME = /^(\d+)(?:\.(\d+))?:$/;

function readHeader(line: string): Header | undefined {
  const ids = readIds(line);
  if (!ids) return undefined;
  const h: Header = { comm: ids.comm, tid: ids.second ?? ids.first, time: NaN };
  if (ids.second !== undefined) h.pid = ids.first;
  // The columns after the ids: [cpu] time: period event: — each may be missing.
  const tok = /\S+/g;
  tok.lastIndex = ids.end;
  let m = tok.exec(line);
  if (m && /^\[\d+\]$/.test(m[0])) m = tok.exec(line);
  const t = m ? TIME.exec(m[0]) : null;
  if (t) {
    const frac = t[2] ?? '';
    h.time = Number(t[1]) * 1e6 + (frac === '' ? 0 : Number(frac) * 10 ** (6 - frac.length));
    // `99999999999999999999999.5:` is not a time (and 400 digits would make it Infinity).
    if (!isTime(h.time)) h.time = NaN;
    m = tok.exec(line);
  }
  const atEnd = eventAtEnd(line);
  if (atEnd) {
    h.event = atEnd.event;
    if (atEnd.period !== undefined) h.period = atEnd.period;
    return h;
  }
  if (m && /^\d+$/.test(m[0])) {
    h.period = m[0];
    m = tok.exec(line);
  }
  if (m && m[0].length > 1 && m[0].endsWith(':')) {
    h.event = m[0].slice(0, -1);
    const rest = skipSpace(line, tok.lastIndex);
    if (rest < line.length) h.inlineFrame = rest;
  } else {
    delete h.period;
  }
  return h;
}

// ---------------------------------------------------------------------------------------------
// Frame lines.

/** Where the parts of a frame line are: `line.slice(sym, dso - 2)` is the symbol, `line.slice(dso, close)` the dso. */
interface FrameLine {
  sym: number;
  dso: number;
  close: number;
  /** text after the dso column, or a `)` inside it: a damaged line */
  damaged: boolean;
}

/**
 * `\t    7f4d74061181 JS:^EventEmitter.init node:events:347:29+0x481 (/tmp/perf-6394.map)`:
 * an address, the symbol, and the last ` (dso)` whose parentheses hold no blank. Symbols may
 * contain ` (` themselves (`arrayOopDesc::base(BasicType) const (/…/libjvm.so)`), and a missing
 * symbol leaves two blanks (`7f1e2215d058  (/lib/x86_64-linux-gnu/libc-2.15.so)`), which the
 * reference turns into a frame named " ". Fills `out` (one object reused for every line).
 */
function readFrame(line: string, from: number, out: FrameLine): boolean {
  const i = skipSpace(line, from);
  let j = i;
  while (j < line.length && isWord(line.charCodeAt(j))) j++;
  if (j === i) return false;
  const k = skipSpace(line, j);
  for (let p = line.lastIndexOf(' (', line.length - 2); p >= j; p = line.lastIndexOf(' (', p - 1)) {
    let e = p + 2;
    while (e < line.length && !isSpace(line.charCodeAt(e))) e++;
    // The last `)` of this candidate's own text, looked for there only: a search of the whole
    // line for every ` (` made a line of 100,000 ` (` take seconds.
    let close = e - 1;
    while (close >= p + 2 && line.charCodeAt(close) !== 41 /* ) */) close--;
    if (close < p + 2) continue;
    out.sym = k < p ? k : p - 1;
    if (out.sym < j) return false;
    out.dso = p + 2;
    out.close = close;
    out.damaged = skipSpace(line, close + 1) < line.length || line.indexOf(')', p + 2) < close;
    return true;
  }
  return false;
}

/** Tails a line may drop for missing before it stops noting new ones. */
const TAIL_DROPS = 3;
/** Bytes (about) all remembered tails may take together. */
const TAIL_BUDGET = 64 * 1024 * 1024;

/** A frame line met before: the frames it pushed and whether it was damaged. */
interface SeenLine {
  ids: number | number[];
  damaged: boolean;
  /**
   * The rest of the sample after this line the last time (its callers down to the root: from
   * this line's `\n` to the last frame line's end), what those lines pushed, how many lines they
   * were and which were damaged. When the text after this line is the same again, all of it is
   * taken at once: stacks share their lower frames (`uv_run`, `main`…) from sample to sample.
   */
  tail?: SeenTail;
  /** how often the tail was there again, and not: a line whose callers vary keeps the tail it has */
  tailHits: number;
  tailMisses: number;
  /** times the tail was dropped for missing; after a few, none is noted any more */
  tailDrops: number;
}

interface SeenTail {
  text: string;
  ids: number[];
  lines: number;
  damaged: number;
  /** the first damaged line, counted from this one (1: the next line) */
  firstDamaged: number;
  /** the call-tree node these frames lead to from the root frame `root` (-1: not known yet) */
  node: number;
  root: number;
}

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

    // The sample being read: its root frame, weight, time and frames leaf first.
    let open = false;
    let rootFrame = 0;
    let weight = 1;
    let time = NaN;
    let java = false;
    const stack: number[] = [];
    let withPeriod = 0;
    let periodSum = 0;
    let start = Infinity;
    let end = -Infinity;
    let headers = 0;

    const rootCache = new Map<string, number>();
    const bad = { count: 0, first: 0, text: '' };
    const damaged = { count: 0, first: 0 };
    let orphans = 0;
    const hugePeriods = { count: 0, first: 0 };
    let reportLike = false;

    const flush = () => {
      noteTails();
      // The stack's root end is the tail taken at once, when it ends the sample: the node its
      // frames lead to is known from the last time.
      const taken = takenEnd === stack.length ? takenTail : undefined;
      let node: number;
      let i = stack.length - 1;
      if (taken !== undefined && taken.root === rootFrame) {
        node = taken.node;
        i = stack.length - taken.ids.length - 1;
      } else node = tree.child(tree.root, rootFrame);
      for (; i >= 0; i--) {
        node = tree.child(node, stack[i]!);
        if (taken !== undefined && i === stack.length - taken.ids.length) {
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
    // Frames by their text `symbol (dso)`, apart for processes named java (labels differ there).
    const frameCache = new Map<string, number | number[]>();
    const javaFrameCache = new Map<string, number | number[]>();
    const pushIds = (ids: number | number[]) => {
      if (typeof ids === 'number') stack.push(ids);
      else for (let i = ids.length - 1; i >= 0; i--) stack.push(ids[i]!);
    };
    /** Pushes the frames of the frame line `readFrame` just read; returns them. */
    const pushFrame = (line: string, lineNo: number): number | number[] => {
      if (fl.damaged && damaged.count++ === 0) damaged.first = lineNo;
      const cache = java ? javaFrameCache : frameCache;
      const key = line.slice(fl.sym, fl.close);
      let ids = cache.get(key);
      if (ids === undefined) {
        const inputs = perfFrameInputs(line.slice(fl.sym, fl.dso - 2), line.slice(fl.dso, fl.close), fl.damaged, java);
        const interned = inputs.map((f) => frames.intern(f));
        ids = interned.length === 1 ? interned[0]! : interned;
        cache.set(detached(key), ids);
      }
      pushIds(ids);
      return ids;
    };
    // Whole frame lines, address included, with what they pushed: a long capture repeats the
    // same few thousand lines, so all but the first of each skip parsing (`readFrame`).
    const lineCache = new TextTable<SeenLine>();
    const javaLineCache = new TextTable<SeenLine>();

    // The frame lines of the sample being read, to note each one's tail when it ends: their
    // entries, where each line's `\n` is, the stack height after it and whether it was damaged.
    // `tailable` stays true while all of them are remembered lines of one text.
    let sampleText = '';
    let tailable = false;
    const lineSeen: SeenLine[] = [];
    const lineNl: number[] = [];
    const lineHeight: number[] = [];
    const lineDamaged: boolean[] = [];
    /** a tail taken at once ends the sample's lines: the tail, and the stack height after it */
    let takenTail: SeenTail | undefined;
    let takenEnd = -1;
    const resetLines = () => {
      tailable = true;
      sampleText = '';
      lineSeen.length = 0;
      lineNl.length = 0;
      lineHeight.length = 0;
      lineDamaged.length = 0;
      takenTail = undefined;
      takenEnd = -1;
    };
    const noteLine = (seen: SeenLine | undefined, text: string, nl: number) => {
      if (!tailable) return;
      if (seen === undefined || (lineSeen.length > 0 && text !== sampleText) || takenTail !== undefined) {
        tailable = false;
        return;
      }
      sampleText = text;
      lineSeen.push(seen);
      lineNl.push(nl);
      lineHeight.push(stack.length);
      lineDamaged.push(seen.damaged);
    };
    /** Notes the tail of every line of the finished sample that has none. */
    let tailBudget = TAIL_BUDGET;
    const noteTails = () => {
      const n = lineSeen.length;
      if (!tailable || n === 0) return;
      // The last part, when it was taken at once (by the last line noted).
      const taken = takenTail;
      const stop = lineNl[n - 1]! + (taken ? taken.text.length : 0);
      for (let i = 0; i < n - 1; i++) {
        const seen = lineSeen[i]!;
        if (seen.tail !== undefined || seen.tailDrops >= TAIL_DROPS) continue;
        let count = 0;
        let first = 0;
        for (let j = i + 1; j < n; j++) if (lineDamaged[j] && count++ === 0) first = j - i;
        let lines = n - 1 - i;
        if (taken) {
          if (taken.damaged > 0 && count === 0) first = lines + taken.firstDamaged;
          count += taken.damaged;
          lines += taken.lines;
        }
        // Tails are a cache: within a budget, so that a capture with ever new lines (JIT code
        // moving) does not grow by a stack's text for each of them.
        const size = stop - lineNl[i]! + 8 * (stack.length - lineHeight[i]!);
        if (size > tailBudget) return;
        tailBudget -= size;
        seen.tail = {
          text: detached(sampleText.slice(lineNl[i]!, stop)),
          ids: stack.slice(lineHeight[i]!),
          lines,
          damaged: count,
          firstDamaged: first,
          node: -1,
          root: -1,
        };
      }
    };

    const startSample = (h: Header, line: string, lineNo: number) => {
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
      stack.length = 0;
      resetLines();
      time = h.time;
      weight = period > 0 ? period : 1;
      if (period > 0) {
        withPeriod++;
        periodSum += period;
      }
      // The reference's root is the comm with blanks made `_` (`V8 WorkerThread` → `V8_WorkerThread`).
      const label = h.comm.replaceAll(' ', '_');
      const name = h.comm.trimEnd();
      java = label === 'java';
      let root = rootCache.get(h.comm);
      if (root === undefined) {
        // swapper is the kernel's idle task: its samples are idle CPU time.
        const category = name === 'swapper' ? Category.Idle : Category.Other;
        root = frames.intern({ name, tier: Tier.Unknown, category, label });
        rootCache.set(detached(h.comm), root);
      }
      rootFrame = root;
      if (h.pid !== undefined) {
        // A process is named after its main thread (tid = pid), else after its first thread seen.
        // (copied when they change: a name cut from a line would keep its whole chunk alive)
        if ((h.tid === h.pid || processNames[h.pid] === undefined) && processNames[h.pid] !== name) processNames[h.pid] = detached(name);
        const thread = `${h.pid}:${h.tid}`;
        if (threadNames[thread] !== name) threadNames[thread] = detached(name);
        hasIds = true;
      }
      if (h.inlineFrame !== undefined && readFrame(line, h.inlineFrame, fl)) pushFrame(line, lineNo);
    };

    const lines = await forEachLineIn(source.chunks(), file, (text, from, to, lineNo, cursor: LineCursor) => {
      const c = from < to ? text.charCodeAt(from) : NaN;
      if (open && isSpace(c)) {
        const seen = (java ? javaLineCache : lineCache).get(text, from, to);
        if (seen !== undefined) {
          if (seen.damaged && damaged.count++ === 0) damaged.first = lineNo;
          pushIds(seen.ids);
          // this line's `\n` (after a `\r`, if any)
          const nl = text.charCodeAt(to) === 13 ? to + 1 : to;
          noteLine(seen, text, nl);
          const tail = seen.tail;
          if (tail !== undefined) {
            const stop = nl + tail.text.length;
            if (text.charCodeAt(stop) === 10 && text.slice(nl, stop) === tail.text) {
              for (let i = 0; i < tail.ids.length; i++) stack.push(tail.ids[i]!);
              if (tail.damaged > 0) {
                if (damaged.count === 0) damaged.first = lineNo + tail.firstDamaged;
                damaged.count += tail.damaged;
              }
              seen.tailHits++;
              takenTail = tail;
              takenEnd = stack.length;
              cursor.lines = tail.lines;
              cursor.next = stop + 1;
              return;
            }
            // The sample went on differently this time. A tail that misses more than it hits is
            // noted afresh when this sample ends.
            if (++seen.tailMisses > 2 * seen.tailHits + 2) {
              seen.tail = undefined;
              seen.tailMisses = seen.tailHits = 0;
              seen.tailDrops++;
            }
          }
          return;
        }
      }
      const line = text.slice(from, to);
      if (line.length === 0 || (isSpace(c) && skipSpace(line, 0) === line.length)) {
        if (open) flush();
        return;
      }
      if (c === 35 /* # */) {
        if (!reportLike && /^# (Overhead|Samples: )/.test(line)) reportLike = true;
        tailable = false;
        return;
      }
      if (!isSpace(c)) {
        const h = readHeader(line);
        if (h) {
          if (open) flush();
          startSample(h, line, lineNo);
          return;
        }
      }
      if (readFrame(line, 0, fl)) {
        if (open) {
          const ids = pushFrame(line, lineNo);
          let seen: SeenLine | undefined;
          if (isSpace(c)) {
            seen = { ids, damaged: fl.damaged, tailHits: 0, tailMisses: 0, tailDrops: 0 };
            (java ? javaLineCache : lineCache).set(text, from, to, seen);
          }
          noteLine(seen, text, text.charCodeAt(to) === 13 ? to + 1 : to);
        } else if (headers === 0) orphans++;
        return;
      }
      tailable = false;
      if (bad.count++ === 0) {
        bad.first = lineNo;
        bad.text = line.length > 120 ? `${line.slice(0, 120)}…` : line;
      }
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
    if (unit === 'nanoseconds') meta.sampleInterval = periodSum / withPeriod / 1000;
    if (kept !== undefined) meta.eventType = kept;
    if (skippedEvents.size > 0) meta.otherEventTypes = [...skippedEvents.keys()];
    if (hasIds) {
      meta.processNames = processNames;
      meta.threadNames = threadNames;
    }
    return finishProfile({ name: file, format: 'perf-script', kind: 'sampled', unit, frames, tree, meta });
  },
};
