/** What the trace-events importer gathers while the events stream by (see ./trace-events). */
import { MAX_TIME, isTime } from '../../../model/types';
import { HermesSamples } from './trace-hermes';
import { ChromeSamples } from './trace-samples';
import { AsyncSpans } from './trace-async-spans';
import { BEGIN, COMPLETE, END, SpanFrames, SyncSpans } from './trace-spans';
import { StatTable } from './trace-stats';
import { type Obj, num, str } from './trace-values';

const SAMPLE_EVENTS = new Set(['Profile', 'ProfileChunk', 'CpuProfile']);

/** What the importer accumulates while the events stream by. */
export class TraceReader {
  readonly stats = new StatTable();
  readonly spanFrames = new SpanFrames();
  readonly sync = new SyncSpans(this.spanFrames);
  /** A span's duration, counted in its statistic. */
  readonly addDuration = (stat: number, start: number, duration: number): void => this.stats.span(stat, start, duration);
  readonly async = new AsyncSpans(this.spanFrames, this.addDuration);
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
