/**
 * Spans of a trace-event file turned into call-tree weights (self duration in microseconds):
 *
 * - synchronous `B`/`E`/`X` spans, nested per thread. The file may list them out of order (Node
 *   writes an `X` when it completes, after the spans nested in it), so each one is kept as a small
 *   record (numbers only, 36 bytes) and the threads are replayed at the end the way speedscope's
 *   trace-event importer does it, which is the reference the tests compare with;
 * - async `b`/`e` spans (and the legacy `S`/`F`), paired as they stream by on category + id (+
 *   scope, id2) and nested per id as the format specifies: Node writes `PROMISE` at init and
 *   `PROMISE_CALLBACK` around each callback under the same id, so callbacks nest under the
 *   resource. Only the open ones are kept; finished ones only add to a small path trie.
 */
import type { CallTreeBuilder, FrameInput } from '../../model/builders';
import { GrowFloat64, GrowInt32 } from '../../model/grow';
import { Tier } from '../../model/types';

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
    // Local copies, indexed by position in `records`. Times are rebased on the thread's first
    // one before X ends are computed, as speedscope does, so that float rounding agrees with it.
    const m = records.length;
    const kind = new Uint8Array(m);
    const start = new Float64Array(m);
    const stop = new Float64Array(m);
    const nameId = new Int32Array(m);
    const key = new Int32Array(m);
    let first = Infinity;
    for (const r of records) first = Math.min(first, this.ts.data[r]!);
    for (let i = 0; i < m; i++) {
      const r = records[i]!;
      kind[i] = this.threadKind.data[r]! & 3;
      start[i] = this.ts.data[r]! - first;
      stop[i] = start[i]! + this.dur.data[r]!;
      nameId[i] = this.nameId.data[r]!;
      key[i] = this.key.data[r]!;
    }
    const begins: number[] = [];
    const ends: number[] = [];
    const completes: number[] = [];
    for (let i = 0; i < m; i++) {
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
      let takeBegin: boolean;
      if (ei >= ends.length) takeBegin = true;
      else if (bi >= begins.length) takeBegin = false;
      else {
        const b = begins[bi]!;
        const e = ends[ei]!;
        const bt = start[b]!;
        const et = stop[e]!;
        takeBegin = bt < et || (bt === et && nameId[b] === nameId[e] && key[b] === key[e]);
      }
      if (takeBegin) {
        const b = begins[bi++]!;
        advance(start[b]!);
        open.push(b);
        nodes.push(tree.child(nodes[nodes.length - 1]!, sink.frame(this.spec.data[records[b]!]!)));
        continue;
      }
      const top = open.length > 0 ? open[open.length - 1]! : -1;
      if (top >= 0) {
        // Bring forward an end at the same time that matches the top of the stack: by name and
        // args first, then by name.
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
      const e = ends[ei++]!;
      if (top < 0) {
        this.unmatchedEnds++;
        continue;
      }
      if (nameId[e] !== nameId[top]) {
        this.mismatchedEnds++;
        continue;
      }
      const t = stop[e]!;
      advance(t);
      open.pop();
      nodes.pop();
      // Its start back on the trace's clock: spans of other threads are put together with it.
      if (kind[top] === BEGIN) sink.addDuration(this.stat.data[records[top]!]!, start[top]! + first, Math.max(0, t - start[top]!));
    }
    // Spans never ended close at the thread's last time, which adds nothing more.
    this.stillOpen += open.length;
  }
}

interface OpenAsync {
  name: string;
  /** its path in the trie: the names of the open spans of its id, outermost first */
  path: number;
  ts: number;
  stat: number;
  /** time of the spans nested in this one that have ended */
  childTime: number;
}

/** Path trie key: parent path * SPEC_SPACE + spec (exact while paths stay below 2^27). */
const SPEC_SPACE = 2 ** 26;

export class AsyncSpans {
  /** open spans by group (process, category, scope) and then id: two short lookups, no key built per event */
  private readonly open = new Map<string, Map<string, OpenAsync[]>>();
  // Path trie: path 0 is the `async` root; a path's parent always has a smaller index.
  private readonly pathIndex = new Map<number, number>();
  private readonly pathParent: number[] = [-1];
  private readonly pathSpec: number[] = [-1];
  private readonly pathSelf: number[] = [0];
  /** self time of outermost spans (a resource's lifetime), kept apart: see `materialize` */
  private readonly pathLifetime: number[] = [0];
  private readonly pathEnded: number[] = [0];
  /** a span ended inside another of the same id (Node's `*_CALLBACK` inside its resource) */
  private nested = false;

  /** ends met with no open span of that id */
  unmatchedEnds = 0;
  /** spans closed because an enclosing span of the same id ended first */
  closedByParent = 0;
  /** spans that ended before they began (clamped to zero) */
  negative = 0;

  constructor(
    private readonly frames: SpanFrames,
    private readonly addDuration: (stat: number, start: number, duration: number) => void,
  ) {}

  get hasSpans(): boolean {
    for (let p = 1; p < this.pathEnded.length; p++) if (this.pathEnded[p]! > 0) return true;
    return false;
  }

  begin(group: string, id: string, name: string, ts: number, stat: number): void {
    let ids = this.open.get(group);
    if (!ids) this.open.set(group, (ids = new Map()));
    let stack = ids.get(id);
    if (!stack) ids.set(id, (stack = []));
    const parent = stack.length > 0 ? stack[stack.length - 1]!.path : 0;
    stack.push({ name, path: this.pathChild(parent, this.frames.spec(name, undefined)), ts, stat, childTime: 0 });
  }

  end(group: string, id: string, name: string, ts: number): void {
    const ids = this.open.get(group);
    const stack = ids?.get(id);
    if (!ids || !stack) {
      this.unmatchedEnds++;
      return;
    }
    // An end names the span it ends; one without a name ends the innermost.
    let at = stack.length - 1;
    if (name !== '') while (at >= 0 && stack[at]!.name !== name) at--;
    if (at < 0) {
      this.unmatchedEnds++;
      return;
    }
    while (stack.length - 1 > at) {
      this.close(stack, ts);
      this.closedByParent++;
    }
    this.close(stack, ts);
    if (stack.length === 0) ids.delete(id);
  }

  private close(stack: OpenAsync[], ts: number): void {
    const span = stack.pop()!;
    let dur = ts - span.ts;
    if (!(dur >= 0)) {
      this.negative++;
      dur = 0;
    }
    const parent = stack[stack.length - 1];
    const self = Math.max(0, dur - span.childTime);
    if (parent) {
      this.pathSelf[span.path]! += self;
      parent.childTime += dur;
      this.nested = true;
    } else this.pathLifetime[span.path]! += self;
    this.pathEnded[span.path]!++;
    this.addDuration(span.stat, span.ts, dur);
  }

  private pathChild(parent: number, spec: number): number {
    const k = parent * SPEC_SPACE + spec;
    let p = this.pathIndex.get(k);
    if (p === undefined) {
      p = this.pathParent.length;
      this.pathIndex.set(k, p);
      this.pathParent.push(parent);
      this.pathSpec.push(spec);
      this.pathSelf.push(0);
      this.pathLifetime.push(0);
      this.pathEnded.push(0);
    }
    return p;
  }

  /** Names and counts of the spans never ended, most frequent first. */
  unfinished(): { total: number; byName: [string, number][] } {
    const counts = new Map<string, number>();
    let total = 0;
    for (const ids of this.open.values()) {
      for (const stack of ids.values()) {
        for (const s of stack) {
          counts.set(s.name, (counts.get(s.name) ?? 0) + 1);
          total++;
        }
      }
    }
    return { total, byName: [...counts].sort((a, b) => b[1] - a[1]) };
  }

  /**
   * Adds the finished spans under `root` (the `async` node). Paths of spans that never ended
   * (and hold no finished ones) are left out.
   *
   * Weights: where callbacks nest inside their resource's span (Node writes `PROMISE` from init
   * to destroy and `PROMISE_CALLBACK` around each run of its callback), a resource's own width is
   * only the time its callbacks ran: lifetimes — 1,500 s of mostly idle promises in a 3 s run —
   * would dwarf everything the threads did and are not time spent. Lifetimes stay in the event
   * statistics (duration). Traces without such nesting keep each span's duration.
   */
  materialize(tree: CallTreeBuilder, root: number, frame: (spec: number) => number): void {
    const n = this.pathParent.length;
    const used = new Uint8Array(n);
    for (let p = n - 1; p > 0; p--) if (used[p] || this.pathEnded[p]! > 0) used[this.pathParent[p]!] = used[p] = 1;
    const node = new Int32Array(n);
    node[0] = root;
    for (let p = 1; p < n; p++) {
      if (!used[p]) continue;
      node[p] = tree.child(node[this.pathParent[p]!]!, frame(this.pathSpec[p]!));
      tree.addSelf(node[p]!, this.pathSelf[p]! + (this.nested ? 0 : this.pathLifetime[p]!));
    }
  }
}
