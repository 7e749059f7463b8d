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
import type { BuildBudget } from '../../../model/budget';
import { CallTreeBuilder, FrameTableBuilder, finishProfile } from '../../../model/builders';
import { Category, type Profile, type RunMeta, Tier } from '../../../model/types';
import { ImportError } from '../../errors';
import type { ImportOptions, Importer } from '../../importer';
import type { JsonStreamResult } from '../../io/json-stream';
import { streamJson } from '../../io/json-stream';
import { buildThreads, chooseThreads, threadInfo, threadRootName } from './trace-threads';
import { TraceReader } from './trace-reader';

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
  async parse({ file, source, options, budget }) {
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
      // events are parsed into values of their own: the bytes can be read into again
      (chunk) => source.recycle(chunk),
    );
    if (r.events === 0 && !r.hermes.seen) {
      const what =
        read.root === 'object' && !r.sawTraceEvents
          ? 'no "traceEvents" array in this JSON object'
          : 'the trace holds no events (the event array is empty)';
      throw new ImportError({ file, message: `${what}; nothing to show` });
    }
    const meta = traceMeta(r, readWarnings(r, read));
    const sampled = [...r.chrome.threads(), ...r.hermes.threads()];
    return sampled.length > 0 ? sampledProfile(file, r, meta, sampled, options, budget) : spanProfile(file, r, meta, budget);
  },
};

/** What reading the events left out, in words. */
function readWarnings(r: TraceReader, read: JsonStreamResult): string[] {
  const warnings: string[] = [];
  if (read.truncated) {
    warnings.push(
      `the file ends before the closing "]" (a trace whose process was killed is written this way); read ${r.events} complete event(s)` +
        (read.droppedBytes > 0 ? `, dropped an incomplete last event of ${read.droppedBytes} bytes` : ''),
    );
  }
  if (r.notObjects > 0) warnings.push(`skipped ${r.notObjects} array element(s) that are not event objects`);
  if (r.noTimestamp > 0) warnings.push(`skipped ${r.noTimestamp} span event(s) without a numeric "ts"`);
  if (r.chrome.emptyEvents > 0) warnings.push(`${r.chrome.emptyEvents} CPU profile event(s) without data were skipped`);
  if (r.chrome.undeclared() > 0)
    warnings.push(`${r.chrome.undeclared()} CPU profile(s) had chunks but no "Profile" event naming their thread; left out`);
  if (r.hermes.skipped > 0) warnings.push(`${r.hermes.skipped} sample(s) without "ts" or "sf" were skipped`);
  return warnings;
}

function traceMeta(r: TraceReader, warnings: string[]): RunMeta {
  return {
    producer: r.hermes.seen
      ? 'Hermes trace (stackFrames + samples)'
      : r.nodeProducer
        ? 'node --trace-event-categories'
        : r.chrome.seen
          ? 'Chrome DevTools trace'
          : 'trace events',
    processNames: r.processNames,
    threadNames: r.threadNames,
    ...(r.runtime ? { runtime: r.runtime } : {}),
    warnings,
  };
}

/** A trace with CPU samples: the threads chosen, each sample weighing 1. */
function sampledProfile(
  file: string,
  r: TraceReader,
  meta: RunMeta,
  sampled: ReturnType<TraceReader['chrome']['threads']>,
  options: ImportOptions,
  budget?: BuildBudget,
): Profile {
  const warnings = meta.warnings!;
  const frames = new FrameTableBuilder(budget);
  const tree = new CallTreeBuilder(budget);
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
  r.sync.replay({ tree: scratch, threadNode: () => scratch.root, frame: () => 0, addDuration: r.addDuration });
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

/** A trace of spans: one root per thread (sorted like speedscope's profiles), then `async`. */
function spanProfile(file: string, r: TraceReader, meta: RunMeta, budget?: BuildBudget): Profile {
  const frames = new FrameTableBuilder(budget);
  const tree = new CallTreeBuilder(budget);
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
  r.sync.replay({ tree, threadNode: (t) => threadNodes.get(t)!, frame: frameOfSpec, addDuration: r.addDuration });
  if (r.async.hasSpans) {
    const root = tree.child(tree.root, frames.intern({ name: 'async', category: Category.Other, tier: Tier.Unknown }));
    r.async.materialize(tree, root, frameOfSpec);
  }
  meta.warnings!.push(...spanWarnings(r));
  if (tree.nodeCount === 1) meta.warnings!.push('the trace has no spans and no CPU samples; only its event statistics are meaningful');
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
}

/** What pairing the spans could not do, in words. */
function spanWarnings(r: TraceReader): string[] {
  const warnings: string[] = [];
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
  if (a.closedByParent > 0) warnings.push(`${a.closedByParent} async span(s) were ended by the end of an enclosing span with the same id`);
  if (a.negative > 0) warnings.push(`${a.negative} async span(s) ended before they began; counted as 0`);
  return warnings;
}
