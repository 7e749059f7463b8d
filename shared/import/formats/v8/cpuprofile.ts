/**
 * V8 CPU profiles (`.cpuprofile`), as `node --cpu-prof` and Chrome DevTools write them — the
 * DevTools protocol's `Profiler.Profile`
 * (https://chromedevtools.github.io/devtools-protocol/tot/Profiler/#type-Profile):
 *
 *   {"nodes":[{"id":1,"callFrame":{…},"hitCount":0,"children":[2,3]},…],
 *    "startTime":…,"endTime":…,"samples":[2,5,5,…],"timeDeltas":[11575,1060,…]}
 *
 * and the legacy form of protocol 1.1 and the `v8-profiler` addons, one nested tree plus
 * absolute timestamps (`startTime`/`endTime` in seconds there):
 *
 *   {"head":{"functionName":"(root)","url":"","lineNumber":0,"hitCount":0,"children":[…]},
 *    "startTime":163140,"endTime":163140,"samples":[2,5,…],"timestamps":[163140599286,…]}
 *
 * Weights come from `samples`, one per sample (unit 'samples'), never from `hitCount`: the two
 * V8 counters disagree (0x's `samples-cpu-prof.cpuprofile`: 19,464 samples, hitCounts summing to
 * 19,439). Every sample keeps its timestamp, so time weights are derived from the sample table
 * (`model/sample-time.ts`, the rule Chrome DevTools uses). Only a profile without any
 * `samples` falls back to `hitCount`, with a warning. `positionTicks` are ignored.
 *
 * The arrays are streamed element by element (`streamJson`); the legacy `head` tree arrives as
 * one value. Ancestor chains are resolved with loops, never recursion (stacks can be 50,000
 * frames deep), and parent cycles or ids that point nowhere become warnings, not hangs.
 */
import { CallTreeBuilder, FrameTableBuilder, finishProfile } from '../../../model/builders';
import { MAX_WEIGHT, type Profile, type RunMeta, isTime } from '../../../model/types';
import { MICROSECONDS_PER_SECOND, type Raw, isObject, readRaw } from './cpuprofile-raw';
import { type SampleFaults, type Span, StreamedSamples } from './cpuprofile-samples';
import { IdLookup } from './id-map';
import { ImportError } from '../../errors';
import type { Importer } from '../../importer';
import { type V8CallFrame, internV8Frame, producerFromUrls, v8Shape } from './v8-frames';

function note(warnings: string[], count: number, text: string): void {
  if (count > 0) warnings.push(text);
}

/**
 * Resolves the modern form's parent links and maps every V8 node to a call-tree node, walking
 * each ancestor chain once with an explicit path. Returns call-tree node by V8 node index.
 *
 * A node names its children (`node --cpu-prof`), its parent (Chrome's trace `ProfileChunk` nodes:
 * `{"callFrame":{"codeType":"other","functionName":"(program)","scriptId":0},"id":2,"parent":1,…}`)
 * or both; nodes may come in any order, so links are resolved only once every node is read.
 */
function buildModernTree(raw: Raw, tree: CallTreeBuilder, warnings: string[]): Int32Array {
  const n = raw.ids.length;
  const parent = new Int32Array(n).fill(-1);
  let missingParents = 0;
  let missingChildren = 0;
  let conflicts = 0;
  let example = '';
  for (let i = 0; i < n; i++) {
    const pid = raw.parentId.data[i]!;
    if (Number.isNaN(pid)) continue;
    const p = raw.index.get(pid);
    if (p === undefined) {
      if (missingParents++ === 0) example = `node ${raw.ids.at(i)} names parent ${pid}`;
    } else parent[i] = p;
  }
  for (let e = 0; e < raw.edgeParent.length; e++) {
    const p = raw.edgeParent.data[e]!;
    const c = raw.index.get(raw.edgeChild.at(e));
    if (c === undefined) {
      if (missingChildren++ === 0 && example === '') example = `node ${raw.ids.at(p)} names child ${raw.edgeChild.at(e)}`;
    } else if (parent[c] === -1) parent[c] = p;
    else if (parent[c] !== p) conflicts++;
  }
  note(
    warnings,
    missingParents + missingChildren,
    `${missingParents + missingChildren} parent or child link(s) name node ids that are not in the file (first: ${example}); nodes without a parent were put under the root`,
  );
  note(warnings, conflicts, `${conflicts} node(s) are listed as the child of two nodes; the first link was kept`);

  const UNSEEN = -2;
  const ON_PATH = -3;
  const ct = new Int32Array(n).fill(UNSEEN);
  const path: number[] = [];
  let cycles = 0;
  let cycleExample = 0;
  for (let i = 0; i < n; i++) {
    if (ct[i] !== UNSEEN) continue;
    let v = i;
    while (v !== -1 && ct[v] === UNSEEN) {
      ct[v] = ON_PATH;
      path.push(v);
      v = parent[v]!;
    }
    if (v !== -1 && ct[v] === ON_PATH) {
      // The chain came back to itself: cut the link that closed the loop and hang the rest under
      // the root, so that every node still gets a stack.
      const cut = path[path.length - 1]!;
      parent[cut] = -1;
      if (cycles++ === 0) cycleExample = raw.ids.at(cut);
      v = -1;
    }
    let at = v === -1 ? tree.root : ct[v]!;
    while (path.length > 0) {
      const u = path.pop()!;
      const f = raw.frame.data[u]!;
      if (f >= 0) at = tree.child(at, f);
      ct[u] = at;
    }
  }
  note(
    warnings,
    cycles,
    `${cycles} cycle(s) in the parent links (first through node ${cycleExample}); each was cut and put under the root`,
  );
  return ct;
}

/** Walks the legacy nested `head` tree with an explicit stack. Returns call-tree node by V8 id. */
function buildLegacyTree(
  file: string,
  head: unknown,
  frames: FrameTableBuilder,
  tree: CallTreeBuilder,
  raw: Raw,
  warnings: string[],
): Map<number, number> {
  if (!isObject(head)) throw new ImportError({ file, message: 'not a V8 CPU profile: "head" is not a node object' });
  const byId = new Map<number, number>();
  const hits: number[] = [];
  let duplicates = 0;
  const stack: { node: unknown; at: number }[] = [{ node: head, at: tree.root }];
  while (stack.length > 0) {
    const { node, at } = stack.pop()!;
    if (!isObject(node)) continue;
    // Legacy nodes carry the call frame's fields themselves, counted from 1.
    const f = internV8Frame(frames, node as V8CallFrame, 1);
    if (typeof node.url === 'string' && node.url !== '') raw.urls.add(node.url);
    const here = f >= 0 ? tree.child(at, f) : at;
    if (typeof node.id === 'number') {
      const known = byId.get(node.id);
      if (known === undefined) byId.set(node.id, here);
      else if (known !== here) duplicates++;
    }
    if (typeof node.hitCount === 'number' && node.hitCount > 0 && node.hitCount <= MAX_WEIGHT) hits.push(here, node.hitCount);
    const children = node.children;
    if (Array.isArray(children)) for (let c = children.length - 1; c >= 0; c--) stack.push({ node: children[c], at: here });
  }
  if (raw.samples.length === 0) {
    for (let i = 0; i < hits.length; i += 2) tree.addSelf(hits[i]!, hits[i + 1]!);
  } else {
    // 0x's own example repeats ids (`"id":2` on three different nodes of exampleProfile).
    note(warnings, duplicates, `${duplicates} node(s) reuse another node's id; samples naming such an id were counted at its first node`);
  }
  return byId;
}

/**
 * Adds every sample, weight 1, at its absolute time in microseconds: `startTime` plus the running
 * sum of `timeDeltas` (the first delta counts from `startTime`), or the legacy `timestamps`.
 * `keep` false: only their weight goes into the tree, no sample table is kept.
 */
function addSamples(
  raw: Raw,
  nodeOf: (id: number) => number | undefined,
  tree: CallTreeBuilder,
  legacy: boolean,
  warnings: string[],
  keep: boolean,
): Span {
  const span: Span = { count: 0, lo: Infinity, hi: -Infinity };
  const n = raw.samples.length;
  const times = legacy ? raw.timestamps : raw.timeDeltas;
  const timesName = legacy ? 'timestamps' : 'timeDeltas';
  if (times.length < n) warnings.push(`"${timesName}" has ${times.length} entries for ${n} samples; the samples without one have no time`);
  let t = legacy ? 0 : (raw.startTime ?? 0);
  let latest = -Infinity;
  let outOfOrder = 0;
  let unknown = 0;
  let firstUnknown = 0;
  let outOfRange = 0;
  if (keep) tree.reserveSamples(n);
  for (let j = 0; j < n; j++) {
    let time = NaN;
    if (j < times.length) {
      t = legacy ? times.at(j) : t + times.at(j);
      // Deltas can be negative: 0x's samples-cpu-prof.cpuprofile has `…,329,227,-6,231,…` in
      // its timeDeltas, V8 having recorded that sample out of order. Each sample keeps its own
      // time; the model puts samples in time order (model/sample-time.ts).
      if (!isTime(t)) outOfRange++;
      else {
        if (t < latest) outOfOrder++;
        else latest = t;
        time = t;
      }
    }
    const id = raw.samples.at(j);
    const node = nodeOf(id);
    if (node === undefined) {
      if (unknown++ === 0) firstUnknown = id;
      continue;
    }
    if (keep) tree.addSample(node, 1, time);
    else tree.addSelf(node, 1);
    span.count++;
    if (time < span.lo) span.lo = time;
    if (time > span.hi) span.hi = time;
  }
  // The tree holds them now: the file's own columns are let go before the profile is finished.
  raw.samples.clear();
  raw.timeDeltas.clear();
  raw.timestamps.clear();
  noteFaults(warnings, { outOfOrder, outOfRange, unknown, firstUnknown, times: times.length });
  return span;
}

function noteFaults(warnings: string[], f: SampleFaults): void {
  note(
    warnings,
    f.outOfOrder,
    `${f.outOfOrder} sample(s) were recorded out of time order (negative timeDeltas); they were put in time order`,
  );
  note(warnings, f.outOfRange, `${f.outOfRange} sample time(s) are past 2^53 microseconds; those samples have no time`);
  note(warnings, f.unknown, `${f.unknown} sample(s) name node ids that are not in the file (first: ${f.firstUnknown}); they were left out`);
}

function noteDuplicates(warnings: string[], raw: Raw): void {
  note(warnings, raw.duplicateIds, `${raw.duplicateIds} node(s) repeat an earlier node's id; the first was kept`);
}

/** The samples read as they arrived, handed to the tree, with the same warnings as `addSamples`. */
function finishStreamed(s: StreamedSamples, warnings: string[]): Span {
  s.finish();
  const n = s.length;
  if (s.faults.times < n)
    warnings.push(`"timeDeltas" has ${s.faults.times} entries for ${n} samples; the samples without one have no time`);
  noteFaults(warnings, s.faults);
  return s.span;
}

export const cpuprofileImporter: Importer = {
  id: 'cpuprofile',
  label: 'V8 CPU profile (.cpuprofile: node --cpu-prof, Chrome DevTools)',
  extensions: ['.cpuprofile'],
  sniff(head, fileName) {
    const shape = v8Shape(head);
    if (shape === 'cpuprofile' || shape === 'cpuprofile-legacy') return true;
    return shape === 'undecided' && /\.cpuprofile(\.gz)?$/i.test(fileName);
  },
  async parse({ file, source, options, budget }): Promise<Profile> {
    const frames = new FrameTableBuilder(budget);
    const tree = new CallTreeBuilder(budget);
    const warnings: string[] = [];
    const keep = options.samples !== false;
    let ct: Int32Array | undefined;
    const modernNode = (raw: Raw) => (id: number) => {
      const i = raw.index.get(id);
      return i === undefined ? undefined : ct![i];
    };
    // The nodes come first in the files V8 writes: the tree is built at the first sample, and the
    // samples go into it as they arrive (see cpuprofile-samples.ts).
    const openSamples = (raw: Raw): StreamedSamples | undefined => {
      if (raw.ids.length === 0) return undefined;
      noteDuplicates(warnings, raw);
      ct = buildModernTree(raw, tree, warnings);
      return new StreamedSamples(file, tree, new IdLookup(raw.index, ct), raw.startTime, keep);
    };
    const raw = await readRaw(file, source.chunks(), frames, openSamples, (chunk) => source.recycle(chunk));
    const legacy = raw.head !== undefined && raw.ids.length === 0;
    if (!legacy && raw.ids.length === 0)
      throw new ImportError({ file, message: 'not a V8 CPU profile: no "nodes" (and no legacy "head")' });
    let span: Span = { count: 0, lo: Infinity, hi: -Infinity };
    if (raw.streamed) span = finishStreamed(raw.streamed, warnings);
    else {
      noteDuplicates(warnings, raw);
      let nodeOf: (id: number) => number | undefined;
      if (legacy) {
        const byId = buildLegacyTree(file, raw.head, frames, tree, raw, warnings);
        nodeOf = (id) => byId.get(id);
      } else {
        ct = buildModernTree(raw, tree, warnings);
        nodeOf = modernNode(raw);
        if (raw.samples.length === 0)
          for (let i = 0; i < ct.length; i++) if (raw.hitCount.at(i) > 0) tree.addSelf(ct[i]!, raw.hitCount.at(i));
      }
      if (raw.samples.length > 0) span = addSamples(raw, nodeOf, tree, legacy, warnings, keep);
      else warnings.push('the profile has no "samples": weights are V8\'s per-node hitCount and there are no sample times');
    }

    const meta: RunMeta = {
      producer: legacy
        ? 'legacy V8 CPU profile (v8-profiler, old DevTools)'
        : producerFromUrls(raw.urls, 'node --cpu-prof', 'Chrome DevTools', 'node --cpu-prof or Chrome DevTools'),
      warnings,
    };
    // Legacy files give start and end in seconds (truncated to whole seconds in speedscope's
    // node/10.11.0/example.cpuprofile: `"startTime":163140,"endTime":163140`), so the sample
    // times widen them.
    const scale = legacy ? MICROSECONDS_PER_SECOND : 1;
    let first = raw.startTime !== undefined ? raw.startTime * scale : undefined;
    let last = raw.endTime !== undefined ? raw.endTime * scale : undefined;
    const p = finishProfile({ name: file, format: 'cpuprofile', kind: 'sampled', unit: 'samples', frames, tree, meta });
    const { count, lo, hi } = span;
    if (count > 0 && lo <= hi) {
      if (legacy) {
        first = first === undefined ? lo : Math.min(first, lo);
        last = last === undefined ? hi : Math.max(last, hi);
      }
      if (count > 1 && hi > lo) meta.sampleInterval = (hi - lo) / (count - 1);
    }
    if (first !== undefined) meta.startTime = first;
    if (last !== undefined) meta.endTime = last;
    return p;
  },
};
