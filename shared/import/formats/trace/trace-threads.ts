/**
 * The threads of a trace with CPU samples: which one a profile shows, and every one listed.
 *
 * A Chrome Performance-panel trace holds the page's main thread, its workers and other renderer
 * processes (DevTools' own fixture `wrong-main-frame-bug.json.gz`: five threads in four
 * processes, two of which reuse profile id `0x1`); a Node.js trace holds the main thread and its
 * workers. Profiles are keyed by process and profile id (as DevTools' `SamplesHandler` keys
 * them), then grouped by thread. The default shown is the busiest main thread (`CrRendererMain`,
 * `JavaScriptMainThread`); `ImportOptions.thread` picks another, or all of them, each under a
 * root frame `CrRendererMain 16227/259`.
 */
import type { CallTreeBuilder, FrameTableBuilder } from '../../../model/builders';
import { type ThreadInfo, Tier } from '../../../model/types';
import { ImportError } from '../../errors';
import type { SampledThread } from './trace-samples';

/** Threads whose samples are shown when several threads have some (Chrome renderer, Node). */
const MAIN_THREAD_NAMES = new Set(['CrRendererMain', 'JavaScriptMainThread']);

type Names = Record<string, string>;

/** The main thread when it did some work, else the busiest. */
function busiest(threads: SampledThread[], names: Names): SampledThread {
  const main = threads.filter((t) => t.busy > 0 && MAIN_THREAD_NAMES.has(names[`${t.pid}:${t.tid}`] ?? ''));
  const pool = main.length > 0 ? main : threads;
  return pool.reduce((best, t) => (t.busy > best.busy || (t.busy === best.busy && t.samples > best.samples) ? t : best));
}

/** `CrRendererMain 16227/259`: the thread's name (or its process's) and ids. */
export function threadRootName(t: { pid: string; tid: string }, threadNames: Names, processNames: Names): string {
  return `${threadNames[`${t.pid}:${t.tid}`] ?? processNames[t.pid] ?? 'thread'} ${t.pid}/${t.tid}`;
}

export interface ThreadChoice {
  /** the threads to build, in `threads` order */
  shown: SampledThread[];
  /** every thread with samples: the shown one(s) first, then the others by sample count */
  threads: SampledThread[];
  /** whether all threads are shown, each under a root frame of its own */
  all: boolean;
  /** the thread shown without a choice */
  fallback: SampledThread;
}

/**
 * The threads `choice` names: `all`, `PID:TID`, or a thread name (the busiest thread of that
 * name); the busiest main thread when there is no choice. A choice that names no thread with
 * samples is an `ImportError` listing the threads there are.
 */
export function chooseThreads(file: string, sampled: SampledThread[], names: Names, choice?: string): ThreadChoice {
  const bySamples = [...sampled].sort((a, b) => b.samples - a.samples);
  const fallback = busiest(sampled, names);
  if (choice === 'all') return { shown: bySamples, threads: bySamples, all: true, fallback };
  let chosen: SampledThread | undefined;
  if (choice === undefined || choice === '') chosen = fallback;
  else {
    chosen = sampled.find((t) => `${t.pid}:${t.tid}` === choice);
    const named = sampled.filter((t) => names[`${t.pid}:${t.tid}`] === choice);
    if (!chosen && named.length > 0) chosen = busiest(named, names);
  }
  if (!chosen) {
    const list = bySamples.map((t) => `${names[`${t.pid}:${t.tid}`] ?? 'thread'} ${t.pid}:${t.tid} (${t.samples} samples)`).join(', ');
    throw new ImportError({ file, message: `no thread "${choice}" has samples in this file; its threads: ${list}, or all` });
  }
  return { shown: [chosen], threads: [chosen, ...bySamples.filter((t) => t !== chosen)], all: false, fallback };
}

/** What `flamelens info` and `RunMeta.threads` say of a thread. */
export function threadInfo(t: SampledThread, names: Names): ThreadInfo {
  return { pid: t.pid, tid: t.tid, name: names[`${t.pid}:${t.tid}`] ?? '', samples: t.samples, seconds: t.span / 1e6 };
}

/**
 * Adds the chosen threads' samples to the tree: one thread's at the root, all threads' each
 * under a root frame of its own, with the thread's index in `choice.threads` on its samples.
 */
export function buildThreads(
  choice: ThreadChoice,
  frames: FrameTableBuilder,
  tree: CallTreeBuilder,
  rootName: (t: SampledThread) => string,
): { start: number; end: number; recordedEnd: number; warnings: string[] } {
  const out = { start: Infinity, end: -Infinity, recordedEnd: -Infinity, warnings: [] as string[] };
  for (const t of choice.shown) {
    let root = tree.root;
    if (choice.all) {
      root = tree.child(tree.root, frames.intern({ name: rootName(t), tier: Tier.Unknown }));
      tree.thread = choice.threads.indexOf(t);
    }
    const built = t.build(frames, tree, root);
    out.start = Math.min(out.start, built.start);
    out.end = Math.max(out.end, built.end);
    out.recordedEnd = Math.max(out.recordedEnd, built.recordedEnd);
    out.warnings.push(...(choice.all ? built.warnings.map((w) => `${rootName(t)}: ${w}`) : built.warnings));
  }
  tree.thread = 0;
  return out;
}
