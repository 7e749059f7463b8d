/**
 * Every thread of a run in one profile, and the profile of one of them.
 *
 * A run whose file has samples of several threads keeps all of them: one profile with each thread
 * under a root frame of its own (`CrRendererMain 16227/259`) and the thread of every sample in
 * `SampleTable.thread`, an index into `meta.threads` — what an import with `thread: 'all'` gives.
 * Which thread a pane shows is then a choice over that profile, made without the file:
 * `threadView` cuts one thread's subtree out of it. `mergeThreads` builds such a profile from
 * one profile per thread (`node --cpu-prof` writes one `.cpuprofile` per thread).
 */
import { CallTreeBuilder, FrameTableBuilder, finishProfile } from './builders';
import { sampleWeights, samplesAt } from './sample-weights';
import { timeReader } from './sample-times';
import { type Category, type FrameTable, type Profile, type ThreadInfo, Tier } from './types';

/** The choice that shows every thread, each under a root frame of its own. */
export const ALL_THREADS = 'all';
/**
 * The choice that shows every thread's samples in one tree, each stack under its thread's name
 * alone (`node`, not `node-6794/6802`), as perf script is read by default.
 */
export const THREADS_TOGETHER = 'together';

/** How a thread is chosen: `PID:TID`. */
export function threadKey(t: Pick<ThreadInfo, 'pid' | 'tid'>): string {
  return `${t.pid}:${t.tid}`;
}

/** How a pane names a thread: `CrRendererMain (71044/259)`. */
export function threadLabel(t: ThreadInfo): string {
  return `${t.name || 'thread'} (${t.pid === '' ? t.tid : `${t.pid}/${t.tid}`})`;
}

/** Whether `p` holds several threads' samples, each under a root frame of its own. */
export function hasThreadRoots(p: Profile): boolean {
  return (p.meta.threads?.length ?? 0) > 1 && p.samples?.thread !== undefined;
}

/**
 * The profile that shows `choice` of `all` (a profile with thread roots): `ALL_THREADS` gives
 * `all` itself; `PID:TID` gives that thread alone, its root frame taken away, as if the file had
 * been imported for that thread. The frame table is shared. Undefined when no thread is `choice`.
 * A perf capture's profile may also be perf script read as by default (see `perfThreadView`).
 */
export function threadView(all: Profile, choice: string): Profile | undefined {
  // perf script's comm is part of every stack: a thread alone keeps it as its root
  if (all.format === 'perf-script') return perfThreadView(all, choice);
  if (choice === ALL_THREADS) return all;
  const threads = all.meta.threads ?? [];
  const s = all.samples;
  const index = threads.findIndex((t) => threadKey(t) === choice);
  if (index < 0 || !s?.thread) return undefined;
  // The thread's root frame: the depth-1 ancestor of any of its samples.
  let first = -1;
  for (let i = 0; i < s.length && first < 0; i++) if (s.thread[i] === index) first = i;
  if (first < 0) return undefined;
  const t = all.tree;
  let r = s.node[first]!;
  while (t.depth[r]! > 1) r = t.parent[r]!;
  if (t.depth[r] !== 1) return undefined;
  const end = t.end[r]!;
  const n = end - r;
  const parent = new Int32Array(n);
  const frame = new Int32Array(n);
  const depth = new Int32Array(n);
  const ends = new Int32Array(n);
  parent[0] = -1;
  frame[0] = -1;
  for (let j = 1; j < n; j++) {
    parent[j] = t.parent[r + j]! - r;
    frame[j] = t.frame[r + j]!;
    depth[j] = t.depth[r + j]! - 1;
  }
  for (let j = 0; j < n; j++) ends[j] = t.end[r + j]! - r;
  const keep: number[] = [];
  for (let i = 0; i < s.length; i++) if (s.thread[i] === index) keep.push(i);
  const samples = samplesAt(s, keep, r);
  const chosen = threads[index]!;
  const meta = { ...all.meta, thread: threadLabel(chosen), threads: [chosen, ...threads.filter((_, k) => k !== index)] };
  const time = timeReader(samples);
  if (keep.length > 0) Object.assign(meta, { startTime: time(0), endTime: time(keep.length - 1) });
  return {
    ...all,
    tree: { length: n, parent, frame, depth, end: ends, self: t.self.slice(r, end), total: t.total.slice(r, end) },
    samples,
    meta,
  };
}

/** A function giving a frame of `f` its id in `frames`, interned when first asked for. */
export function reinterned(f: FrameTable, frames: FrameTableBuilder): (id: number) => number {
  const frameMap = new Int32Array(f.length).fill(-1);
  return (id) => {
    if (frameMap[id]! < 0)
      frameMap[id] = frames.intern({
        name: f.name[id]!,
        file: f.file[id]!,
        line: f.line[id]!,
        column: f.column[id]!,
        tier: f.tier[id] as Tier,
        category: f.category[id] as Category,
        ...(f.label[id] ? { label: f.label[id] } : {}),
      });
    return frameMap[id]!;
  };
}

/**
 * A perf capture's profile of every thread shown as `choice`. `p` is perf script read as it is
 * by default (each stack under its comm, `meta.defaultThread` `together`) or read with a root per
 * thread (`comm-pid/tid`, as `stackcollapse-perf.pl --tid` names them); either gives every view.
 */
function perfThreadView(p: Profile, choice: string): Profile | undefined {
  const together = p.meta.defaultThread === THREADS_TOGETHER;
  if (choice === THREADS_TOGETHER) return together ? p : regrouped(p, 'together');
  if (choice === ALL_THREADS) return together ? regrouped(p, 'roots') : p;
  const index = (p.meta.threads ?? []).findIndex((t) => threadKey(t) === choice);
  return index < 0 ? undefined : regrouped(p, 'together', index);
}

/** perf script's root label of a sample's stack: its comm, blanks made `_`, without `-pid/tid`. */
function commLabel(p: Profile, root: number): string {
  const label = p.frames.label[p.tree.frame[root]!] || p.frames.name[p.tree.frame[root]!]!;
  return p.meta.defaultThread === THREADS_TOGETHER ? label : label.replace(/-[^-/]*\/[^/]*$/, '');
}

/**
 * A perf capture's samples (of thread `only`, or of every thread) rebuilt with each stack's root
 * frame named by its comm (`together`: `node`, as perf script is read by default; blanks `_` in
 * the folded label) or by its comm and thread (`roots`: `node-6794/6802`, as `--tid` names it).
 * Nodes are made in the order samples first reach them, as the importer makes them; the frame
 * table is made anew. Samples keep their thread, except with `only`.
 */
function regrouped(all: Profile, roots: 'together' | 'roots', only?: number): Profile | undefined {
  const s = all.samples;
  const threads = all.meta.threads ?? [];
  if (!s) return undefined;
  const t = all.tree;
  const frames = new FrameTableBuilder();
  const frameOf = reinterned(all.frames, frames);
  const tree = new CallTreeBuilder();
  // With a root per thread, one node of a stack under a comm is as many nodes as threads reach it.
  const perThread = roots === 'roots';
  const mapped = new Map<number, number>();
  const slot = (n: number, k: number) => (perThread ? n * threads.length + k : n);
  const rootFrames = new Map<string, number>();
  const rootFrame = (c: number, k: number) => {
    const comm = commLabel(all, c);
    const ids = threads[k] ? `${threads[k].pid || '?'}/${threads[k].tid}` : '';
    const label = perThread ? `${comm}-${ids}` : comm;
    let frame = rootFrames.get(label);
    if (frame === undefined) {
      const name = threads[k]?.name.trimEnd() ?? '';
      const category = all.frames.category[t.frame[c]!] as Category;
      frame = frames.intern({
        name: perThread ? label : name.replaceAll(' ', '_') === comm ? name : comm,
        tier: Tier.Unknown,
        category,
        label,
      });
      rootFrames.set(label, frame);
    }
    return frame;
  };
  const chain: number[] = [];
  const weight = sampleWeights(s, all.unit);
  let start = Infinity;
  let end = -Infinity;
  const time = timeReader(s);
  for (let i = 0; i < s.length; i++) {
    const k = s.thread?.[i] ?? 0;
    if (only !== undefined && k !== only) continue;
    start = Math.min(start, time(i));
    end = Math.max(end, time(i));
    let n = s.node[i]!;
    for (; n !== 0 && !mapped.has(slot(n, k)); n = t.parent[n]!) chain.push(n);
    while (chain.length > 0) {
      const c = chain.pop()!;
      const parent = t.parent[c] === 0 ? tree.root : mapped.get(slot(t.parent[c]!, k))!;
      mapped.set(slot(c, k), tree.child(parent, t.depth[c] === 1 ? rootFrame(c, k) : frameOf(t.frame[c]!)));
    }
    tree.thread = only === undefined ? k : 0;
    tree.addSample(s.node[i] === 0 ? tree.root : mapped.get(slot(s.node[i]!, k))!, weight[i]!, time(i));
  }
  tree.thread = 0;
  const { defaultThread: _, ...meta } = all.meta;
  if (only !== undefined) {
    const others = threads.filter((_, k) => k !== only);
    meta.warnings = [
      ...all.meta.warnings,
      `samples of ${others.length} other thread(s) are not shown: ${others.map((x) => `${threadLabel(x)} (${x.samples} samples)`).join(', ')}`,
    ];
    Object.assign(meta, { thread: threadLabel(threads[only]!), threads: [threads[only]!, ...others] });
    if (start <= end) Object.assign(meta, { startTime: start, endTime: end });
  } else if (threads.length > 1) {
    meta.thread = `all ${threads.length} threads`;
    if (roots === 'together') Object.assign(meta, { defaultThread: THREADS_TOGETHER });
  }
  return finishProfile({ name: all.name, format: all.format, kind: all.kind, unit: all.unit, frames, tree, meta });
}

/** One thread's profile and what is known of the thread, for `mergeThreads`. */
export interface ThreadPart {
  profile: Profile;
  info: ThreadInfo;
}

/**
 * One profile of every part's samples, each part under a root frame named by its thread
 * (`main 6494/0`), in the given order (`meta.threads` lists them so), samples in time order. The
 * parts must be of one format and unit, counted in samples with their times (as importers give
 * them): weigh the result, not the parts, so that each thread's last sample gets its own thread's
 * mean interval.
 */
export function mergeThreads(name: string, parts: ThreadPart[]): Profile {
  const first = parts[0]!.profile;
  const frames = new FrameTableBuilder();
  const tree = new CallTreeBuilder();
  let start = Infinity;
  let end = -Infinity;
  const warnings: string[] = [];
  parts.forEach(({ profile: p, info }, k) => {
    tree.thread = k;
    const rootName = `${info.name || 'thread'} ${info.pid}/${info.tid}`;
    const root = tree.child(tree.root, frames.intern({ name: rootName, tier: Tier.Unknown }));
    const frameOf = reinterned(p.frames, frames);
    const nodeMap = new Int32Array(p.tree.length);
    nodeMap[0] = root;
    for (let j = 1; j < p.tree.length; j++) nodeMap[j] = tree.child(nodeMap[p.tree.parent[j]!]!, frameOf(p.tree.frame[j]!));
    const s = p.samples;
    const weight = s && sampleWeights(s, p.unit);
    const time = s && timeReader(s);
    if (s) for (let i = 0; i < s.length; i++) tree.addSample(nodeMap[s.node[i]!]!, weight![i]!, time!(i));
    if (p.meta.startTime !== undefined) start = Math.min(start, p.meta.startTime);
    if (p.meta.endTime !== undefined) end = Math.max(end, p.meta.endTime);
    warnings.push(...p.meta.warnings.map((w) => `${rootName}: ${w}`));
  });
  tree.thread = 0;
  const meta = {
    ...first.meta,
    thread: `all ${parts.length} threads`,
    threads: parts.map((x) => x.info),
    warnings,
  };
  if (start <= end) Object.assign(meta, { startTime: start, endTime: end });
  return finishProfile({ name, format: first.format, kind: first.kind, unit: first.unit, frames, tree, meta });
}
