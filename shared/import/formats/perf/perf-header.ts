/**
 * The sample header lines of `perf script` text (`comm pid[/tid] [cpu] time: period event:`),
 * read as FlameGraph's `stackcollapse-perf.pl` reads them (see perf-script.ts), and a reader that
 * reads a header like one met before at a fraction of the cost: in a long capture the headers of
 * one thread differ only in their time.
 */
import { detached } from '../../../model/builders';
import { isTime } from '../../../model/types';

// Perl's \s (ASCII) is what the reference output depends on.
export function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
export function skipSpace(s: string, i: number): number {
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i;
}

/** `cycles:u` → `cycles`, `cpu-clock:pppH` → `cpu-clock`; tracepoints (`sched:sched_switch`) stay. */
export function baseEvent(event: string): string {
  const m = /^(.+):([ukhIGHpPSDWe]+)$/.exec(event);
  return m ? m[1]! : event;
}

/** Whether `event` is the event asked for (`cycles` asks for `cycles:u` too). */
export function eventMatches(event: string, wanted: string): boolean {
  if (event === wanted) return true;
  return baseEvent(wanted) === wanted && baseEvent(event) === wanted;
}

export interface Header {
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
 * `byName` says which was found: the fallback depends on the whole line.
 */
function readIds(line: string): (Ids & { byName: boolean }) | undefined {
  for (let e = 2; e < line.length; e++) {
    if (!isSpace(line.charCodeAt(e))) continue;
    const ids = idsAfter(line, e);
    if (ids) return { ...ids, byName: true };
    // Any longer name ending inside the same run of blanks meets the same text after it.
    e = skipSpace(line, e) - 1;
  }
  const ids = line.length > 1 && isSpace(line.charCodeAt(1)) ? idsAfter(line, 1) : undefined;
  return ids && { ...ids, byName: false };
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

/** Seconds and a fraction of them, as printed, in microseconds; NaN when out of range. */
function timeOf(seconds: string, frac: string): number {
  const t = Number(seconds) * 1e6 + (frac === '' ? 0 : Number(frac) * 10 ** (6 - frac.length));
  // `99999999999999999999999.5:` is not a time (and 400 digits would make it Infinity).
  return isTime(t) ? t : NaN;
}

/** A header and, when it has a time column, where that column starts and ends. */
interface Read {
  h: Header;
  /** the line was cut into its ids by their name (not by the one-character fallback) */
  byName: boolean;
  timeAt: number;
  timeEnd: number;
}

function read(line: string): Read | undefined {
  const ids = readIds(line);
  if (!ids) return undefined;
  const h: Header = { comm: ids.comm, tid: ids.second ?? ids.first, time: NaN };
  if (ids.second !== undefined) h.pid = ids.first;
  const r: Read = { h, byName: ids.byName, timeAt: -1, timeEnd: -1 };
  // The columns after the ids: [cpu] time: period event: — each may be missing.
  const tok = /\S+/g;
  tok.lastIndex = ids.end;
  let m = tok.exec(line);
  if (m && /^\[\d+\]$/.test(m[0])) m = tok.exec(line);
  const t = m ? TIME.exec(m[0]) : null;
  if (t) {
    h.time = timeOf(t[1]!, t[2] ?? '');
    r.timeAt = m!.index;
    r.timeEnd = tok.lastIndex;
    m = tok.exec(line);
  }
  const atEnd = eventAtEnd(line);
  if (atEnd) {
    h.event = atEnd.event;
    if (atEnd.period !== undefined) h.period = atEnd.period;
    return r;
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
  return r;
}

export function readHeader(line: string): Header | undefined {
  return read(line)?.h;
}

/**
 * A header read before, cut around its time column: `head` is the line up to the time (comm,
 * ids, cpu and the blanks after them), `tail` the line after it (from the blank that ends the
 * time on: period and event). A line that starts with `head`, goes on with a time and ends with
 * `tail` is the same header at another time.
 */
export interface Shape<T> {
  head: string;
  tail: string;
  h: Header;
  /** what the caller worked out from the header once (its root frame…) */
  extra: T | undefined;
}

/** Shapes remembered: a thread per CPU it ran on, for a few busy threads. */
const SHAPES = 32;

/** Digits past which a number is read by `Number` (below, adding them up is exact). */
const EXACT_DIGITS = 15;

/**
 * The time of `text.slice(at, end)` when it is a time column (`3314.846058:`, as `TIME`
 * matches it), else undefined; the time is NaN when out of range, as `read` makes it.
 */
function timeIn(text: string, at: number, end: number): number | undefined {
  let i = at;
  let seconds = 0;
  while (i < end && isDigit(text.charCodeAt(i))) seconds = seconds * 10 + (text.charCodeAt(i++) - 48);
  const dot = i;
  if (dot === at || dot === end) return undefined;
  let frac = 0;
  if (text.charCodeAt(i) === 46 /* . */) {
    i++;
    while (i < end && isDigit(text.charCodeAt(i))) frac = frac * 10 + (text.charCodeAt(i++) - 48);
    if (i === dot + 1) return undefined;
  }
  if (i !== end - 1 || text.charCodeAt(i) !== 58 /* : */) return undefined;
  const fracDigits = i > dot ? i - dot - 1 : 0;
  if (dot - at > EXACT_DIGITS || fracDigits > EXACT_DIGITS)
    return timeOf(text.slice(at, dot), fracDigits > 0 ? text.slice(dot + 1, i) : '');
  return timeFromDigits(seconds, frac, fracDigits);
}

/**
 * The time of a time column whose seconds and fraction (each of at most 15 digits) read as the
 * integers `seconds` and `frac`, the fraction `fracDigits` digits long; NaN when out of range.
 */
export function timeFromDigits(seconds: number, frac: number, fracDigits: number): number {
  const t = seconds * 1e6 + (fracDigits === 0 ? 0 : frac * 10 ** (6 - fracDigits));
  return isTime(t) ? t : NaN;
}

/**
 * Reads header lines, the ones shaped like a header met before without cutting the line into
 * columns again. That holds when nothing the reference reads depends on the time column: the ids
 * were found by name within `head`, and the event (read from the end) lies within `tail`, whose
 * first character is a blank. The `Header` returned for a known shape is the same object each
 * time with its `time` set: use it before the next line. `shape` is the shape of the header just
 * read, where the caller may keep what it works out from the header once.
 */
export class HeaderReader<T> {
  private readonly shapes: Shape<T>[] = [];
  shape: Shape<T> | undefined;
  /** called with each shape when it is first met */
  onShape: ((s: Shape<T>) => void) | undefined;

  read(text: string, from: number, to: number): Header | undefined {
    const shapes = this.shapes;
    for (let i = 0; i < shapes.length; i++) {
      const s = shapes[i]!;
      const at = from + s.head.length;
      const end = to - s.tail.length;
      if (end <= at || text.slice(from, at) !== s.head) continue;
      const time = timeIn(text, at, end);
      if (time === undefined || text.slice(end, to) !== s.tail) continue;
      if (i > 0) {
        shapes.splice(i, 1);
        shapes.unshift(s);
      }
      s.h.time = time;
      this.shape = s;
      return s.h;
    }
    this.shape = undefined;
    const line = text.slice(from, to);
    const r = read(line);
    if (r === undefined) return undefined;
    if (r.byName && r.timeAt >= 0 && r.h.inlineFrame === undefined && r.timeEnd < line.length && isSpace(line.charCodeAt(r.timeEnd))) {
      let e = line.length;
      while (e > r.timeEnd && isSpace(line.charCodeAt(e - 1))) e--;
      if (e > r.timeEnd) {
        // Copies: a slice of the line would keep its whole chunk alive.
        const h: Header = { comm: detached(r.h.comm), tid: detached(r.h.tid), time: r.h.time };
        if (r.h.pid !== undefined) h.pid = detached(r.h.pid);
        if (r.h.event !== undefined) h.event = detached(r.h.event);
        if (r.h.period !== undefined) h.period = detached(r.h.period);
        const s: Shape<T> = { head: detached(line.slice(0, r.timeAt)), tail: detached(line.slice(r.timeEnd)), h, extra: undefined };
        if (shapes.length >= SHAPES) shapes.pop();
        shapes.unshift(s);
        this.shape = s;
        this.onShape?.(s);
        return h;
      }
    }
    return r.h;
  }
}
