/**
 * Spans of a trace-event file turned into call-tree weights (self duration in microseconds):
 *
 * - synchronous `B`/`E`/`X` spans, nested per thread. The file may list them out of order (Node
 *   writes an `X` when it completes, after the spans nested in it), so each one is kept as a small
 *   record (numbers only, 36 bytes) and the threads are replayed at the end the way speedscope's
 *   trace-event importer does it, which is the reference the tests compare with;
 * - async `b`/`e` spans (and the legacy `S`/`F`): see trace-async-spans.ts.
 */
import type { CallTreeBuilder, FrameInput } from '../../../model/builders';
import { GrowFloat64, GrowInt32 } from '../../../model/grow';
import { Tier } from '../../../model/types';

export const BEGIN = 0;
export const END = 1;
export const COMPLETE = 2;
export type SyncKind = typeof BEGIN | typeof END | typeof COMPLETE;

/** What the replay writes into: the shared tree, frames by span spec, and the event statistics. */
export interface SpanSink {
  tree: CallTreeBuilder;
  /** the call-tree node standing for a thread (its root frame) */
  threadNode(thread: number): number;
  /** the frame id of a span spec (see `SpanFrames`) */
  frame(spec: number): number;
  /** adds a paired span, `duration` µs from `start`, to an event statistic */
  addDuration(stat: number, start: number, duration: number): void;
}

/** Strings to small integers. */
export class Interner {
  private readonly index = new Map<string, number>();
  readonly values: string[] = [];
  id(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.values.length;
      this.index.set(s, i);
      this.values.push(s);
    }
    return i;
  }
}

/** The distinct frames spans are drawn with: the event name, plus file and line when the producer gives them. */
export class SpanFrames {
  private readonly ids = new Interner();
  readonly inputs: FrameInput[] = [];
  spec(name: string, args: unknown): number {
    let file = '';
    let line = 0;
    let column = 0;
    // Hermes writes its call stacks as B/E events with the source position in args:
    // {"ph":"B","name":"beta","args":{"line":54,"column":12,"url":"/Users/…/require.js",…}}
    if (args !== null && typeof args === 'object') {
      const a = args as Record<string, unknown>;
      if (typeof a.url === 'string') {
        file = a.url;
        if (typeof a.line === 'number') line = a.line;
        if (typeof a.column === 'number') column = a.column;
      }
    }
    const key = file === '' ? name : `${name}\u0000${file}\u0000${line}\u0000${column}`;
    const id = this.ids.id(key);
    if (id === this.inputs.length) this.inputs.push({ name, file, line, column, tier: Tier.Unknown });
    return id;
  }
}

/** 32-bit FNV-1a over UTF-16 code units; only compared together with the event name. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h | 1; // never 0, which stands for "no args"
}

/**
 * speedscope tells spans apart by `name + JSON.stringify(args)` when it matches ends to begins;
 * a hash of the args text stands in for that string so that no event text is kept.
 */
function argsKey(args: unknown): number {
  if (!args) return 0;
  let text: string;
  try {
    text = JSON.stringify(args) ?? '';
  } catch {
    // `JSON.stringify` recurses: args nested 100,000 deep overflow the stack. Such args all
    // share one key; no real trace tells spans apart that way.
    text = '\u0000too deep';
  }
  return hash(text);
}

/** How far past the front of the end queue a same-timestamp match is looked for (speedscope: unbounded). */
const SAME_TS_SCAN_LIMIT = 4096;

export class SyncSpans {
  private readonly threadKind = new GrowInt32(); // thread << 2 | kind
  private readonly ts = new GrowFloat64();
  private readonly dur = new GrowFloat64(); // X only; 0 for B/E
  private readonly nameId = new GrowInt32();
  private readonly key = new GrowInt32();
  private readonly spec = new GrowInt32();
  private readonly stat = new GrowInt32();
  private readonly names = new Interner();

  /** `E` events met with nothing open on their thread */
  unmatchedEnds = 0;
  /** `E` events whose name differs from the open span's (ignored, as speedscope does) */
  mismatchedEnds = 0;
  /** spans still open at the end of their thread, closed at its last timestamp */
  stillOpen = 0;

  constructor(private readonly frames: SpanFrames) {}

  add(thread: number, kind: SyncKind, ts: number, dur: number, name: string, args: unknown, stat: number): void {
    this.threadKind.push((thread << 2) | kind);
    this.ts.push(ts);
    this.dur.push(kind === COMPLETE ? dur : 0);
    this.nameId.push(this.names.id(name));
    this.key.push(argsKey(args));
    this.spec.push(kind === END ? -1 : this.frames.spec(name, args));
    this.stat.push(stat);
  }

  /** Threads (indices) that have spans, in first-seen order. */
  threads(): number[] {
    const seen = new Set<number>();
    const tk = this.threadKind.data;
    for (let i = 0; i < this.ts.length; i++) seen.add(tk[i]! >> 2);
    return [...seen];
  }

  /** Replays every thread's spans into `sink`. */
  replay(sink: SpanSink): void {
    const n = this.ts.length;
    const tk = this.threadKind.data;
    // Record indices bucketed by thread, file order kept within each.
    const byThread = new Map<number, number[]>();
    for (let i = 0; i < n; i++) {
      const t = tk[i]! >> 2;
      let list = byThread.get(t);
      if (!list) byThread.set(t, (list = []));
      list.push(i);
    }
    for (const [thread, records] of byThread) this.replayThread(thread, records, sink);
  }

  /**
   * speedscope's algorithm (src/import/trace-event.ts): a queue of begins sorted by ts and a queue
   * of ends sorted by end time, file order breaking ties, an `X` counting as one of each. Equal
   * times: a begin goes first only when it is the same span as the end (a zero-length span). An
   * end is matched to the open span on top of the stack, preferring among ends at the same time
   * one with the same name and args, then one with the same name; an end whose name still
   * differs is ignored, and what is still open at the end closes at the thread's last time.
   */
  private replayThread(thread: number, records: number[], sink: SpanSink): void {
    const s = this.collect(records);
    const { begins, ends } = queues(s);
    const { tree } = sink;
    const open: number[] = []; // the open spans (positions in `records`), outermost first
    const nodes: number[] = [sink.threadNode(thread)]; // tree nodes: the thread, then one per open span
    let last = -Infinity; // time of the last enter or leave; both queues are in time order
    const advance = (t: number) => {
      if (t <= last) return;
      if (open.length > 0) tree.addSelf(nodes[nodes.length - 1]!, t - last);
      last = t;
    };
    let bi = 0;
    let ei = 0;
    while (bi < begins.length || ei < ends.length) {
      if (ei >= ends.length || (bi < begins.length && beginsFirst(s, begins[bi]!, ends[ei]!))) {
        const b = begins[bi++]!;
        advance(s.start[b]!);
        open.push(b);
        nodes.push(tree.child(nodes[nodes.length - 1]!, sink.frame(this.spec.data[records[b]!]!)));
        continue;
      }
      const top = open.length > 0 ? open[open.length - 1]! : -1;
      if (top >= 0) bringForwardMatch(s, ends, ei, top);
      const e = ends[ei++]!;
      if (top < 0) {
        this.unmatchedEnds++;
        continue;
      }
      if (s.nameId[e] !== s.nameId[top]) {
        this.mismatchedEnds++;
        continue;
      }
      const t = s.stop[e]!;
      advance(t);
      open.pop();
      nodes.pop();
      // Its start back on the trace's clock: spans of other threads are put together with it.
      if (s.kind[top] === BEGIN) sink.addDuration(this.stat.data[records[top]!]!, s.start[top]! + s.first, Math.max(0, t - s.start[top]!));
    }
    // Spans never ended close at the thread's last time, which adds nothing more.
    this.stillOpen += open.length;
  }

  /**
   * Local copies of one thread's records, indexed by position in `records`. Times are rebased on
   * the thread's first one before X ends are computed, as speedscope does, so that float
   * rounding agrees with it.
   */
  private collect(records: number[]): ThreadSpans {
    const m = records.length;
    const s = new ThreadSpans(m);
    let first = Infinity;
    for (const r of records) first = Math.min(first, this.ts.data[r]!);
    s.first = first;
    for (let i = 0; i < m; i++) {
      const r = records[i]!;
      s.kind[i] = this.threadKind.data[r]! & 3;
      s.start[i] = this.ts.data[r]! - first;
      s.stop[i] = s.start[i]! + this.dur.data[r]!;
      s.nameId[i] = this.nameId.data[r]!;
      s.key[i] = this.key.data[r]!;
    }
    return s;
  }
}

/** One thread's spans (see `SyncSpans.collect`). */
class ThreadSpans {
  readonly kind: Uint8Array;
  readonly start: Float64Array;
  readonly stop: Float64Array;
  readonly nameId: Int32Array;
  readonly key: Int32Array;
  /** the thread's first time, which `start` and `stop` are counted from */
  first = 0;

  constructor(m: number) {
    this.kind = new Uint8Array(m);
    this.start = new Float64Array(m);
    this.stop = new Float64Array(m);
    this.nameId = new Int32Array(m);
    this.key = new Int32Array(m);
  }
}

/** The begin queue sorted by start and the end queue by stop, file order breaking ties; an X is in both. */
function queues(s: ThreadSpans): { begins: number[]; ends: number[] } {
  const { kind, start, stop } = s;
  const begins: number[] = [];
  const ends: number[] = [];
  const completes: number[] = [];
  for (let i = 0; i < kind.length; i++) {
    if (kind[i] === BEGIN) begins.push(i);
    else if (kind[i] === END) ends.push(i);
    else completes.push(i);
  }
  // Two X at the same ts: the longer one must be the parent.
  completes.sort((a, b) => start[a]! - start[b]! || stop[b]! - start[b]! - (stop[a]! - start[a]!) || a - b);
  for (const i of completes) {
    begins.push(i);
    ends.push(i);
  }
  // Array.prototype.sort is stable, as the ties need.
  begins.sort((a, b) => start[a]! - start[b]!);
  ends.sort((a, b) => stop[a]! - stop[b]!);
  return { begins, ends };
}

/** Whether begin `b` is taken before end `e`: it is earlier, or at the same time the same span (a zero-length one). */
function beginsFirst(s: ThreadSpans, b: number, e: number): boolean {
  const bt = s.start[b]!;
  const et = s.stop[e]!;
  return bt < et || (bt === et && s.nameId[b] === s.nameId[e] && s.key[b] === s.key[e]);
}

/**
 * Brings to `ends[ei]` an end at the same time that matches the open span `top`: by name and args
 * first, then by name (looking at most SAME_TS_SCAN_LIMIT ends ahead).
 */
function bringForwardMatch(s: ThreadSpans, ends: number[], ei: number, top: number): void {
  const { stop, nameId, key } = s;
  const t0 = stop[ends[ei]!]!;
  const limit = Math.min(ends.length, ei + SAME_TS_SCAN_LIMIT);
  let found = -1;
  for (let i = ei + 1; i < limit && stop[ends[i]!] === t0; i++) {
    const e = ends[i]!;
    if (nameId[e] === nameId[top] && key[e] === key[top]) {
      found = i;
      break;
    }
  }
  if (found < 0) {
    for (let i = ei + 1; i < limit && stop[ends[i]!] === t0; i++) {
      if (nameId[ends[i]!] === nameId[top]) {
        found = i;
        break;
      }
    }
  }
  if (found > ei) {
    const tmp = ends[ei]!;
    ends[ei] = ends[found]!;
    ends[found] = tmp;
  }
}
