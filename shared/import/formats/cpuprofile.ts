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
import { CallTreeBuilder, FrameTableBuilder, finishProfile } from '../../model/builders';
import { MAX_WEIGHT, type Profile, type RunMeta, isTime } from '../../model/types';
import { ImportError } from '../errors';
import type { Importer } from '../importer';
import { streamJson } from '../json-stream';
import { IdMap } from './id-map';
import { type V8CallFrame, internV8Frame, producerFromUrls, v8Shape } from './v8-frames';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The profile as read, before the call tree is built. */
interface Raw {
  /** modern form: one entry per node, in file order */
  ids: number[];
  index: IdMap;
  frame: number[];
  /** the node's `parent` id, NaN when the node gives none */
  parentId: number[];
  hitCount: number[];
  /** `children` links: node index → child id */
  edgeParent: number[];
  edgeChild: number[];
  duplicateIds: number;
  /** legacy form */
  head?: unknown;
  samples: number[];
  timeDeltas: number[];
  timestamps: number[];
  startTime?: number;
  endTime?: number;
  urls: Set<string>;
}

const MICROSECONDS_PER_SECOND = 1e6;

/**
 * A value as a message shows it: short, and never by walking a container (a 200,000-character
 * string went whole into a message, and `JSON.stringify` recurses on 100,000 nested arrays).
 */
function preview(v: unknown): string {
  if (Array.isArray(v)) return v.length === 0 ? '[]' : 'an array';
  if (v !== null && typeof v === 'object') return 'an object';
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

function note(warnings: string[], count: number, text: string): void {
  if (count > 0) warnings.push(text);
}

/** Reads the whole file into `Raw`, streaming the big arrays. */
async function read(file: string, chunks: AsyncIterable<Uint8Array>, frames: FrameTableBuilder): Promise<Raw> {
  const raw: Raw = {
    ids: [],
    index: new IdMap(),
    frame: [],
    parentId: [],
    hitCount: [],
    edgeParent: [],
    edgeChild: [],
    duplicateIds: 0,
    samples: [],
    timeDeltas: [],
    timestamps: [],
    urls: new Set(),
  };
  const number = (key: string, v: unknown, offset: number): number => {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    throw new ImportError({ file, offset, message: `"${key}" holds ${preview(v)}, expected a number` });
  };
  // Frames by script id and position, then url and name: a profile names a few thousand frames
  // in each of its nodes, and interning builds a key string each time (a fifth of a big
  // profile's import). The script id (`"scriptId":"65"`, short) and the position are cheap keys;
  // url and name, fresh strings of every parsed node, are only compared, never hashed. The
  // script id only narrows the search: equal url, name and position make the same frame.
  const frameCache = new Map<unknown, Map<number, { url: string; name: string; id: number }[]>>();
  const frameOf = (cf: V8CallFrame & { scriptId?: unknown }): number => {
    const line = cf.lineNumber;
    const column = cf.columnNumber;
    const small = (p: unknown): p is number => typeof p === 'number' && Number.isInteger(p) && p >= -1 && p < 2 ** 21;
    if (!small(line) || !small(column)) {
      if (typeof cf.url === 'string' && cf.url !== '') raw.urls.add(cf.url);
      return internV8Frame(frames, cf, 0);
    }
    const url = typeof cf.url === 'string' ? cf.url : '';
    const name = typeof cf.functionName === 'string' ? cf.functionName : '';
    const script = typeof cf.scriptId === 'string' || typeof cf.scriptId === 'number' ? cf.scriptId : '';
    let byPosition = frameCache.get(script);
    if (byPosition === undefined) frameCache.set(script, (byPosition = new Map()));
    const at = (line + 1) * 2 ** 22 + column + 1;
    let list = byPosition.get(at);
    if (list === undefined) byPosition.set(at, (list = []));
    for (let i = 0; i < list.length; i++) {
      const f = list[i]!;
      if (f.url === url && f.name === name) return f.id;
    }
    if (url !== '') raw.urls.add(url);
    const id = internV8Frame(frames, cf, 0);
    list.push({ url, name, id });
    return id;
  };
  const readNode = (v: unknown, offset: number) => {
    if (!isObject(v)) throw new ImportError({ file, offset, message: 'a node in "nodes" has no numeric "id"' });
    const id = v.id;
    if (typeof id !== 'number') throw new ImportError({ file, offset, message: 'a node in "nodes" has no numeric "id"' });
    const cf = v.callFrame;
    if (!isObject(cf)) throw new ImportError({ file, offset, message: `node ${id} has no "callFrame" object` });
    if (raw.index.has(id)) {
      raw.duplicateIds++;
      return;
    }
    const at = raw.ids.length;
    raw.index.set(id, at);
    raw.ids.push(id);
    raw.frame.push(frameOf(cf as V8CallFrame));
    const parent = v.parent;
    raw.parentId.push(typeof parent === 'number' ? parent : NaN);
    const hits = v.hitCount;
    raw.hitCount.push(typeof hits === 'number' && hits > 0 && hits <= MAX_WEIGHT ? hits : 0);
    const children = v.children;
    if (Array.isArray(children)) {
      for (let i = 0; i < children.length; i++) {
        const c: unknown = children[i];
        if (typeof c !== 'number') continue;
        raw.edgeParent.push(at);
        raw.edgeChild.push(c);
      }
    }
  };

  const result = await streamJson(
    chunks,
    {
      element(key, v, offset) {
        switch (key) {
          case 'nodes':
            return readNode(v, offset);
          case 'samples':
            return void raw.samples.push(number(key, v, offset));
          case 'timeDeltas':
            return void raw.timeDeltas.push(number(key, v, offset));
          case 'timestamps':
            return void raw.timestamps.push(number(key, v, offset));
          case '':
            throw new ImportError({
              file,
              offset,
              message: 'not a V8 CPU profile: the file is a JSON array (a trace?), expected an object with "nodes"',
            });
          case 'traceEvents':
            throw new ImportError({ file, offset, message: 'not a V8 CPU profile: this is a trace-event file ("traceEvents")' });
        }
      },
      // Offsets serve only error messages, which get them from the stream (see `places`).
      places: false,
      value(key, v) {
        if (key === 'head') raw.head = v;
        else if (key === 'startTime' && isTime(v)) raw.startTime = v;
        else if (key === 'endTime' && isTime(v)) raw.endTime = v;
      },
    },
    file,
  );
  if (result.truncated) {
    throw new ImportError({
      file,
      offset: result.bytes,
      message:
        'the file ends before the profile is complete (cut off while copying?). V8 writes a .cpuprofile whole, ' +
        'and the end holds the samples and their times, so a cut-off profile would silently lose samples',
    });
  }
  if (result.root !== 'object')
    throw new ImportError({ file, offset: 0, message: 'not a V8 CPU profile: expected a JSON object with "nodes"' });
  return raw;
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
    const pid = raw.parentId[i]!;
    if (Number.isNaN(pid)) continue;
    const p = raw.index.get(pid);
    if (p === undefined) {
      if (missingParents++ === 0) example = `node ${raw.ids[i]} names parent ${pid}`;
    } else parent[i] = p;
  }
  for (let e = 0; e < raw.edgeParent.length; e++) {
    const p = raw.edgeParent[e]!;
    const c = raw.index.get(raw.edgeChild[e]!);
    if (c === undefined) {
      if (missingChildren++ === 0 && example === '') example = `node ${raw.ids[p]} names child ${raw.edgeChild[e]}`;
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
      if (cycles++ === 0) cycleExample = raw.ids[cut]!;
      v = -1;
    }
    let at = v === -1 ? tree.root : ct[v]!;
    while (path.length > 0) {
      const u = path.pop()!;
      const f = raw.frame[u]!;
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
 */
function addSamples(
  raw: Raw,
  nodeOf: (id: number) => number | undefined,
  tree: CallTreeBuilder,
  legacy: boolean,
  warnings: string[],
): void {
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
  for (let j = 0; j < n; j++) {
    let time = NaN;
    if (j < times.length) {
      t = legacy ? times[j]! : t + times[j]!;
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
    const node = nodeOf(raw.samples[j]!);
    if (node === undefined) {
      if (unknown++ === 0) firstUnknown = raw.samples[j]!;
      continue;
    }
    tree.addSample(node, 1, time);
  }
  note(warnings, outOfOrder, `${outOfOrder} sample(s) were recorded out of time order (negative timeDeltas); they were put in time order`);
  note(warnings, outOfRange, `${outOfRange} sample time(s) are past 2^53 microseconds; those samples have no time`);
  note(warnings, unknown, `${unknown} sample(s) name node ids that are not in the file (first: ${firstUnknown}); they were left out`);
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
  async parse({ file, source }): Promise<Profile> {
    const frames = new FrameTableBuilder();
    const tree = new CallTreeBuilder();
    const warnings: string[] = [];
    const raw = await read(file, source.chunks(), frames);
    const legacy = raw.head !== undefined && raw.ids.length === 0;
    if (!legacy && raw.ids.length === 0)
      throw new ImportError({ file, message: 'not a V8 CPU profile: no "nodes" (and no legacy "head")' });
    note(warnings, raw.duplicateIds, `${raw.duplicateIds} node(s) repeat an earlier node's id; the first was kept`);

    let nodeOf: (id: number) => number | undefined;
    if (legacy) {
      const byId = buildLegacyTree(file, raw.head, frames, tree, raw, warnings);
      nodeOf = (id) => byId.get(id);
    } else {
      const ct = buildModernTree(raw, tree, warnings);
      nodeOf = (id) => {
        const i = raw.index.get(id);
        return i === undefined ? undefined : ct[i];
      };
      if (raw.samples.length === 0) for (let i = 0; i < ct.length; i++) if (raw.hitCount[i]! > 0) tree.addSelf(ct[i]!, raw.hitCount[i]!);
    }
    if (raw.samples.length > 0) addSamples(raw, nodeOf, tree, legacy, warnings);
    else warnings.push('the profile has no "samples": weights are V8\'s per-node hitCount and there are no sample times');

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
    const s = p.samples;
    if (s && s.length > 0) {
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = 0; i < s.length; i++) {
        const t = s.time[i]!;
        if (t < lo) lo = t;
        if (t > hi) hi = t;
      }
      if (lo <= hi) {
        if (legacy) {
          first = first === undefined ? lo : Math.min(first, lo);
          last = last === undefined ? hi : Math.max(last, hi);
        }
        if (s.length > 1 && hi > lo) meta.sampleInterval = (hi - lo) / (s.length - 1);
      }
    }
    if (first !== undefined) meta.startTime = first;
    if (last !== undefined) meta.endTime = last;
    return p;
  },
};
