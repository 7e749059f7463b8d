/**
 * Chrome / Node.js trace-event JSON — reference: the Trace Event Format document
 * (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU) and, where it
 * is silent, what speedscope's importer does (src/import/trace-event.ts, chrome.ts), whose totals
 * the tests compare with.
 *
 * Both shapes: an array of events (`[{…},{…}`, the closing `]` is optional and often missing when
 * the process was killed) and `{"traceEvents":[…], "metadata":{…}}` (Node's `node_trace.N.log`).
 *
 * - When the trace holds CPU samples (`Profile` + `ProfileChunk`, the old `CpuProfile`, or Hermes'
 *   `stackFrames` + `samples`), the profile is SAMPLED: one thread's samples (the main thread's,
 *   else the busiest), weight 1 each, with their timestamps. See ./trace-samples.
 * - Otherwise it is a SPAN profile in microseconds: `X` and `B`/`E` spans nested per thread under
 *   a root frame `thread name (pid/tid)`, and async `b`/`e` spans (Node's PROMISE, Timeout,
 *   TickObject, FSREQCALLBACK…) grouped by name under one `async` root. See ./trace-spans.
 *
 * Every event, whatever its phase, also counts in `traceStats`: per (category, name, phase) the
 * number of events, their bytes in the file and their paired duration.
 */
import { CallTreeBuilder, FrameTableBuilder, finishProfile } from '../../../model/builders';
import { Category, MAX_TIME, type RunMeta, Tier, isTime } from '../../../model/types';
import { ImportError } from '../../errors';
import type { Importer } from '../../importer';
import { streamJson } from '../../io/json-stream';
import { HermesSamples } from './trace-hermes';
import { ChromeSamples } from './trace-samples';
import { buildThreads, chooseThreads, threadInfo, threadRootName } from './trace-threads';
import { AsyncSpans } from './trace-async-spans';
import { BEGIN, COMPLETE, END, SpanFrames, SyncSpans } from './trace-spans';
import { StatTable } from './trace-stats';

type Obj = Record<string, unknown>;

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

/** Timestamps are numbers, except in Hermes files: {"ts":"11550183666","tid":"7695",…} */
function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '') return Number(v);
  return NaN;
}

const SAMPLE_EVENTS = new Set(['Profile', 'ProfileChunk', 'CpuProfile']);

/** What the importer accumulates while the events stream by. */
class TraceReader {
  readonly stats = new StatTable();
  readonly spanFrames = new SpanFrames();
  readonly sync = new SyncSpans(this.spanFrames);
  readonly async = new AsyncSpans(this.spanFrames, (stat, start, duration) => this.stats.span(stat, start, duration));
  readonly chrome = new ChromeSamples();
  readonly hermes = new HermesSamples();
  readonly processNames: Record<string, string> = {};
  readonly threadNames: Record<string, string> = {};
  private readonly threadIndex = new Map<string, number>();
  readonly threadList: { pid: string; tid: string }[] = [];
  events = 0;
  notObjects = 0;
  noTimestamp = 0;
  minTs = Infinity;
  maxTs = -Infinity;
  nodeProducer = false;
  sawTraceEvents = false;

  thread(pid: string, tid: string): number {
    const k = `${pid}:${tid}`;
    let i = this.threadIndex.get(k);
    if (i === undefined) {
      i = this.threadList.length;
      this.threadIndex.set(k, i);
      this.threadList.push({ pid, tid });
    }
    return i;
  }

  event(v: unknown, length: number): void {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      this.notObjects++;
      return;
    }
    const e = v as Obj;
    this.events++;
    const ph = str(e.ph);
    const cat = str(e.cat);
    const name = str(e.name);
    const stat = this.stats.id(cat, name, ph);
    this.stats.count[stat]!++;
    this.stats.bytes[stat]! += length;
    // A timestamp past 2^53 µs is taken as missing: differences of such times overflow.
    const tsRead = num(e.ts);
    const ts = isTime(tsRead) ? tsRead : NaN;
    if (ph === 'M') {
      this.metadata(e, name);
      return;
    }
    if (Number.isFinite(ts)) {
      if (ts < this.minTs) this.minTs = ts;
      if (ts > this.maxTs) this.maxTs = ts;
    }
    if (!this.nodeProducer && cat.startsWith('node')) this.nodeProducer = true;
    // {"ph":"P","cat":"disabled-by-default-v8.cpu_profiler","name":"ProfileChunk",…} (Chrome 69+, Node);
    // {"ph":"I","cat":"disabled-by-default-devtools.timeline","name":"CpuProfile",…} (Chrome 65/66)
    if (SAMPLE_EVENTS.has(name) && (ph === 'P' || cat.includes('cpu_profiler') || cat.includes('devtools.timeline')))
      this.chrome.event(name, e, ts);

    switch (ph) {
      case 'X': {
        // speedscope: `dur`, else `tdur`, else 0 ({"ph":"X","ts":7,"tdur":4} in simple.json)
        let dur = num(e.dur);
        if (!Number.isFinite(dur)) dur = num(e.tdur);
        if (!(dur >= 0 && dur <= MAX_TIME)) dur = 0;
        if (!Number.isFinite(ts)) {
          this.noTimestamp++;
          return;
        }
        this.stats.span(stat, ts, dur);
        if (ts + dur > this.maxTs) this.maxTs = ts + dur;
        this.sync.add(this.thread(str(e.pid), str(e.tid)), COMPLETE, ts, dur, name || '(unnamed)', e.args, stat);
        return;
      }
      case 'B':
      case 'E':
        if (!Number.isFinite(ts)) {
          this.noTimestamp++;
          return;
        }
        this.sync.add(this.thread(str(e.pid), str(e.tid)), ph === 'B' ? BEGIN : END, ts, 0, name || '(unnamed)', e.args, stat);
        return;
      // Nestable async spans, and the legacy `S`/`F` ones, share the id's stack.
      case 'b':
      case 'S':
      case 'e':
      case 'F': {
        if (!Number.isFinite(ts)) {
          this.noTimestamp++;
          return;
        }
        const group = this.asyncGroup(e, cat);
        const id = e.id2 === undefined ? str(e.id) : asyncId2(e.id2);
        if (ph === 'b' || ph === 'S') this.async.begin(group, id, name || '(unnamed)', ts, stat);
        else this.async.end(group, id, name, ts);
        return;
      }
      default:
        // Instant (i, I, n), counter (C), flow, sample, object and memory-dump events: statistics only.
        return;
    }
  }

  private metadata(e: Obj, name: string): void {
    if (name === 'node') this.nodeProducer = true;
    const label = (e.args as Obj | undefined)?.name;
    if (typeof label !== 'string' || label === '') return;
    if (name === 'process_name') this.processNames[str(e.pid)] = label;
    else if (name === 'thread_name') this.threadNames[`${str(e.pid)}:${str(e.tid)}`] = label;
  }

  private lastPid: unknown = undefined;
  private lastCat = '';
  private lastScope: unknown = undefined;
  private lastGroup = '';

  /**
   * Async spans pair on category and id, within a process unless the id is declared global:
   * {"ph":"b","cat":"node,node.async_hooks","name":"PROMISE","id":"0x6",…}, or the newer
   * {"ph":"b","id2":{"global":"0x1"},"scope":"…",…}. Consecutive events mostly share the group,
   * so the last one is reused instead of building a string per event.
   */
  private asyncGroup(e: Obj, cat: string): string {
    const global = e.id2 !== undefined && (e.id2 as Obj | null)?.global !== undefined;
    const pid = global ? '*' : e.pid;
    if (pid !== this.lastPid || cat !== this.lastCat || e.scope !== this.lastScope) {
      this.lastPid = pid;
      this.lastCat = cat;
      this.lastScope = e.scope;
      this.lastGroup = `${str(pid)}\u0000${cat}\u0000${str(e.scope)}`;
    }
    return this.lastGroup;
  }

  /** The root frame label of a thread: `JavaScriptMainThread (6164/6164)`. */
  threadLabel(pid: string, tid: string): string {
    const name = this.threadNames[`${pid}:${tid}`] ?? this.processNames[pid] ?? 'thread';
    return `${name} (${pid}/${tid})`;
  }
}

/** The id of {"id2":{"local":"0x1"}} or {"id2":{"global":"0x2"}}. */
function asyncId2(id2: unknown): string {
  const o = (id2 ?? {}) as Obj;
  return str(o.global ?? o.local);
}

function threadOrder(a: { pid: string; tid: string }, b: { pid: string; tid: string }): number {
  const n = (s: string) => (Number.isFinite(Number(s)) ? Number(s) : Infinity);
  return n(a.pid) - n(b.pid) || n(a.tid) - n(b.tid) || (a.pid + a.tid).localeCompare(b.pid + b.tid);
}

/**
 * Whether the text starts like a trace: an object with a top-level `traceEvents` key (not
 * necessarily the first: Chrome 141 writes `{"metadata":{…},"traceEvents":[…]}`), or an array
 * whose first element is an object with a `ph` key. A tiny scanner keeps track of strings and
 * nesting, so keys deeper down (a `"ph"` inside args) do not count.
 */
export function looksLikeTrace(head: string): boolean {
  let i = 0;
  while (i < head.length && /\s/.test(head[i]!)) i++;
  const first = head[i];
  if (first !== '{' && first !== '[') return false;
  const keyDepth = first === '{' ? 1 : 2;
  let depth = 0;
  let sawPh = false;
  let sawTs = false;
  for (; i < head.length; i++) {
    const c = head[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < head.length && head[j] !== '"') j += head[j] === '\\' ? 2 : 1;
      if (j >= head.length) break;
      const s = head.slice(i + 1, j);
      i = j;
      if (depth !== keyDepth) continue;
      let k = j + 1;
      while (k < head.length && /\s/.test(head[k]!)) k++;
      if (head[k] !== ':') continue;
      if (keyDepth === 1 && s === 'traceEvents') return true;
      if (keyDepth === 2 && s === 'ph') sawPh = true;
      if (keyDepth === 2 && s === 'ts') sawTs = true;
    } else if (c === '{' || c === '[') {
      depth++;
      // An array form's first element must be an object.
      if (keyDepth === 2 && depth === 2 && c !== '{') return false;
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth <= 0) return false;
      if (keyDepth === 2 && depth === 1) return sawPh && (sawTs || /"ts"\s*:/.test(head));
    }
  }
  return keyDepth === 2 && sawPh;
}

function mostCommon(byName: [string, number][]): string {
  return byName
    .slice(0, 3)
    .map(([n, c]) => `${n} ×${c}`)
    .join(', ');
}

export const traceEventsImporter: Importer = {
  id: 'trace-events',
  label: 'Chrome / Node.js trace events (.json, node_trace.*.log)',
  extensions: ['.json', '.log', '.trace'],
  sniff(head) {
    return looksLikeTrace(head);
  },
  async parse({ file, source, options }) {
    const r = new TraceReader();
    const read = await streamJson(
      source.chunks(),
      {
        element(key, value, _offset, length) {
          if (key === '' || key === 'traceEvents') r.event(value, length);
          else if (key === 'samples') r.hermes.sample(value);
        },
        value(key, value) {
          if (key === 'stackFrames') r.hermes.setStackFrames(value);
        },
        streams(key) {
          if (key === 'traceEvents') r.sawTraceEvents = true;
          return true;
        },
      },
      file,
    );
    if (r.events === 0 && !r.hermes.seen) {
      const what =
        read.root === 'object' && !r.sawTraceEvents
          ? 'no "traceEvents" array in this JSON object'
          : 'the trace holds no events (the event array is empty)';
      throw new ImportError({ file, message: `${what}; nothing to show` });
    }

    const warnings: string[] = [];
    if (read.truncated) {
      warnings.push(
        `the file ends before the closing "]" (a trace whose process was killed is written this way); read ${r.events} complete event(s)` +
          (read.droppedBytes > 0 ? `, dropped an incomplete last event of ${read.droppedBytes} bytes` : ''),
      );
    }
    if (r.notObjects > 0) warnings.push(`skipped ${r.notObjects} array element(s) that are not event objects`);
    if (r.noTimestamp > 0) warnings.push(`skipped ${r.noTimestamp} span event(s) without a numeric "ts"`);

    const frames = new FrameTableBuilder();
    const tree = new CallTreeBuilder();
    const meta: RunMeta = {
      producer: r.hermes.seen
        ? 'Hermes trace (stackFrames + samples)'
        : r.nodeProducer
          ? 'node --trace-event-categories'
          : r.chrome.seen
            ? 'Chrome DevTools trace'
            : 'trace events',
      processNames: r.processNames,
      threadNames: r.threadNames,
      warnings,
    };

    const addDuration = (stat: number, start: number, duration: number) => r.stats.span(stat, start, duration);
    const sampled = [...r.chrome.threads(), ...r.hermes.threads()];
    if (r.chrome.emptyEvents > 0) warnings.push(`${r.chrome.emptyEvents} CPU profile event(s) without data were skipped`);
    if (r.chrome.undeclared() > 0)
      warnings.push(`${r.chrome.undeclared()} CPU profile(s) had chunks but no "Profile" event naming their thread; left out`);
    if (r.hermes.skipped > 0) warnings.push(`${r.hermes.skipped} sample(s) without "ts" or "sf" were skipped`);

    if (sampled.length > 0) {
      const wanted = options.keepThreads ? (sampled.length > 1 ? 'all' : undefined) : options.thread;
      const choice = chooseThreads(file, sampled, r.threadNames, wanted);
      const chosen = choice.shown[0]!;
      meta.thread = choice.all ? `all ${choice.threads.length} threads` : r.threadLabel(chosen.pid, chosen.tid);
      if (sampled.length > 1 || choice.all) meta.threads = choice.threads.map((t) => threadInfo(t, r.threadNames));
      if (choice.all) meta.defaultThread = `${choice.fallback.pid}:${choice.fallback.tid}`;
      const others = choice.all ? [] : choice.threads.slice(1);
      if (others.length > 0) {
        warnings.push(
          `samples of ${others.length} other thread(s) are not shown: ` +
            others.map((t) => `${r.threadLabel(t.pid, t.tid)} (${t.samples} samples)`).join(', '),
        );
      }
      // The spans are not drawn, but their B/E pairs still give the statistics their durations.
      const scratch = new CallTreeBuilder();
      r.sync.replay({ tree: scratch, threadNode: () => scratch.root, frame: () => 0, addDuration });
      const built = buildThreads(choice, frames, tree, (t) => threadRootName(t, r.threadNames, r.processNames));
      warnings.push(...built.warnings);
      // A profile whose every time is missing or unusable has no time range.
      const end = Math.max(built.end, built.recordedEnd);
      if (Number.isFinite(built.start) && Number.isFinite(end)) {
        meta.startTime = built.start;
        meta.endTime = end;
      }
      const interval = (built.end - built.start) / (chosen.samples - 1);
      if (!choice.all && chosen.samples > 1 && Number.isFinite(interval)) meta.sampleInterval = interval;
      return finishProfile({
        name: file,
        format: 'trace-events',
        kind: 'sampled',
        unit: 'samples',
        frames,
        tree,
        meta,
        traceStats: r.stats.finish(),
      });
    }

    // Spans: one root per thread (sorted like speedscope's profiles), then `async`.
    const threadNodes = new Map<number, number>();
    const threads = r.sync.threads().sort((a, b) => threadOrder(r.threadList[a]!, r.threadList[b]!));
    for (const t of threads) {
      const { pid, tid } = r.threadList[t]!;
      threadNodes.set(
        t,
        tree.child(tree.root, frames.intern({ name: r.threadLabel(pid, tid), category: Category.Other, tier: Tier.Unknown })),
      );
    }
    const spanFrame: number[] = [];
    const frameOfSpec = (spec: number) => (spanFrame[spec] ??= frames.intern(r.spanFrames.inputs[spec]!));
    r.sync.replay({ tree, threadNode: (t) => threadNodes.get(t)!, frame: frameOfSpec, addDuration });
    if (r.async.hasSpans) {
      const root = tree.child(tree.root, frames.intern({ name: 'async', category: Category.Other, tier: Tier.Unknown }));
      r.async.materialize(tree, root, frameOfSpec);
    }

    const s = r.sync;
    if (s.unmatchedEnds > 0) warnings.push(`${s.unmatchedEnds} end ("E") event(s) had no open span on their thread; ignored`);
    if (s.mismatchedEnds > 0)
      warnings.push(`${s.mismatchedEnds} end ("E") event(s) did not match the name of the span open on their thread; ignored`);
    if (s.stillOpen > 0) warnings.push(`${s.stillOpen} span(s) were never ended; they end at their thread's last event`);
    const a = r.async;
    const unfinished = a.unfinished();
    if (unfinished.total > 0)
      warnings.push(`${unfinished.total} async span(s) never ended and are left out of "async" (${mostCommon(unfinished.byName)})`);
    if (a.unmatchedEnds > 0) warnings.push(`${a.unmatchedEnds} async end event(s) had no matching begin; ignored`);
    if (a.closedByParent > 0)
      warnings.push(`${a.closedByParent} async span(s) were ended by the end of an enclosing span with the same id`);
    if (a.negative > 0) warnings.push(`${a.negative} async span(s) ended before they began; counted as 0`);
    if (tree.nodeCount === 1) warnings.push('the trace has no spans and no CPU samples; only its event statistics are meaningful');

    if (r.minTs <= r.maxTs) {
      meta.startTime = r.minTs;
      meta.endTime = r.maxTs;
    }
    return finishProfile({
      name: file,
      format: 'trace-events',
      kind: 'spans',
      unit: 'microseconds',
      frames,
      tree,
      meta,
      traceStats: r.stats.finish(),
    });
  },
};
