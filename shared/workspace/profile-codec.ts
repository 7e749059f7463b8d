/**
 * A `Profile` as compact JSON inside a workspace file: string columns as JSON lists, numeric
 * columns as little-endian base64 (a Float64Array as JSON text is ~2.5× larger and loses nothing
 * here only by luck of formatting). The call tree keeps only `parent`, `frame` and `self`:
 * `depth`, `end` and `total` follow from them, so they are rebuilt on reading — smaller files, and
 * a file cannot hold totals that disagree with the tree.
 *
 * Reading trusts nothing: every column is checked for type and length, the tree for being in
 * pre-order, and the finished model goes through `checkProfile`.
 */
import { ImportError } from '../import/errors';
import { heapProfileFromGraph } from '../import/formats/v8/heapsnapshot';
import { checkProfile } from '../model/integrity';
import { TIME_BLOCK, type TimeColumns } from '../model/sample-times';
import type {
  CallTree,
  FormatId,
  FrameTable,
  HeapAllocations,
  HeapGraph,
  Profile,
  ProfileKind,
  RunMeta,
  SampleTable,
  ThreadInfo,
  TraceEventStat,
  Unit,
} from '../model/types';
import { base64ToTyped, bytesToTyped, typedToBase64 } from './base64';
import { type Json, JsonCheck, describe } from './json-check';

// Records keyed by the model's unions: a format, kind or unit added to the model and not here does not compile.
const FORMAT_SET: Record<FormatId, true> = {
  cpuprofile: true,
  'trace-events': true,
  'perf-script': true,
  folded: true,
  '0x': true,
  heapprofile: true,
  heapsnapshot: true,
  pprof: true,
};
const KIND_SET: Record<ProfileKind, true> = { sampled: true, spans: true, allocations: true, aggregated: true, heap: true };
const UNIT_SET: Record<Unit, true> = { samples: true, microseconds: true, nanoseconds: true, events: true, bytes: true };
const FORMATS = Object.keys(FORMAT_SET) as FormatId[];
const KINDS = Object.keys(KIND_SET) as ProfileKind[];
const UNITS = Object.keys(UNIT_SET) as Unit[];
const MAX_TIER = 4;

/** How a numeric column is written: base64 text inside the JSON (version 1), or a reference to bytes beside it (version 2). */
export type PutColumn = (a: Int32Array | Uint32Array | Float64Array | Uint8Array) => unknown;

export function profileToJson(p: Profile, put: PutColumn = typedToBase64): Json {
  const f = p.frames;
  const t = p.tree;
  const out: Json = {
    version: p.version,
    name: p.name,
    format: p.format,
    kind: p.kind,
    unit: p.unit,
    frames: {
      length: f.length,
      name: f.name,
      file: f.file,
      pkg: f.pkg,
      key: f.key,
      label: f.label,
      line: put(f.line),
      column: put(f.column),
      category: put(f.category),
      tier: put(f.tier),
    },
    tree: { length: t.length, parent: put(t.parent), frame: put(t.frame), self: put(t.self) },
    meta: p.meta,
  };
  if (p.samples) {
    const s = p.samples;
    out.samples = { length: s.length, node: put(s.node), ...timesToJson(s, put) };
    // (absent where the weights follow from the unit: see SampleTable.weight)
    if (s.weight) (out.samples as Json).weight = put(s.weight);
    if (s.thread) (out.samples as Json).thread = put(s.thread);
  }
  if (p.heap) out.heap = heapToJson(p.heap, put);
  if (p.traceStats)
    out.traceStats = p.traceStats.map(({ spans, ...row }) => (spans ? { ...row, spans: put(spans), spanCount: spans.length } : row));
  return out;
}

/**
 * The graph as the snapshot held it. Dominators and retained sizes are not written: they follow
 * from the graph and are worked out again on reading, as the tree's totals are.
 */
function heapToJson(g: HeapGraph, put: PutColumn): Json {
  return {
    nodeFields: g.nodeFields,
    nodeTypes: g.nodeTypes,
    edgeFields: g.edgeFields,
    edgeTypes: g.edgeTypes,
    nodeCount: g.nodeCount,
    edgeCount: g.edgeCount,
    nodes: put(g.nodes),
    edges: put(g.edges),
    strings: g.strings,
    locationFields: g.locationFields,
    locationCount: g.locations.length,
    locations: put(g.locations),
    ...(g.allocations ? { allocations: allocationsToJson(g.allocations, put) } : {}),
  };
}

/** Allocation stacks (`--track-heap-objects`): the trace tree's columns and the functions. */
function allocationsToJson(a: HeapAllocations, put: PutColumn): Json {
  return {
    functionFields: a.functionFields,
    functionValues: a.functions.length,
    functions: put(a.functions),
    traceNodes: a.traceId.length,
    traceId: put(a.traceId),
    traceParent: put(a.traceParent),
    traceFunction: put(a.traceFunction),
    traceCount: put(a.traceCount),
    traceSize: put(a.traceSize),
  };
}

function readAllocationsJson(c: JsonCheck, v: unknown, path: string): HeapAllocations {
  const o = c.obj(v, path);
  const n = c.num(o.traceNodes, `${path}.traceNodes`, { min: 0, int: true });
  return {
    functionFields: c.strings(o.functionFields, `${path}.functionFields`),
    functions: column(c, o, 'functions', path, Uint32Array, c.num(o.functionValues, `${path}.functionValues`, { min: 0, int: true })),
    traceId: column(c, o, 'traceId', path, Float64Array, n),
    traceParent: column(c, o, 'traceParent', path, Int32Array, n),
    traceFunction: column(c, o, 'traceFunction', path, Uint32Array, n),
    traceCount: column(c, o, 'traceCount', path, Float64Array, n),
    traceSize: column(c, o, 'traceSize', path, Float64Array, n),
  };
}

type TypedCtor<T> = { new (buffer: ArrayBuffer): T; BYTES_PER_ELEMENT: number };

function column<T extends Int32Array | Uint32Array | Float64Array | Uint8Array>(
  c: JsonCheck,
  o: Json,
  key: string,
  path: string,
  type: TypedCtor<T>,
  length: number,
): T {
  const v = o[key];
  if (v instanceof Uint8Array) {
    // bytes the file holds beside its JSON (version 2; see ./workspace-stream)
    const a = bytesToTyped(v, type, length);
    if (!a)
      c.fail(
        `${path}.${key}`,
        `expected ${length} ${type.BYTES_PER_ELEMENT}-byte values (${length * type.BYTES_PER_ELEMENT} bytes), found ${v.length} bytes`,
      );
    return a;
  }
  const text = c.str(v, `${path}.${key}`);
  const a = base64ToTyped(text, type, length);
  if (!a)
    c.fail(
      `${path}.${key}`,
      `expected base64 text of ${length} ${type.BYTES_PER_ELEMENT}-byte values (${Math.ceil((length * type.BYTES_PER_ELEMENT) / 3) * 4} characters), found ${text.length} characters`,
    );
  return a;
}

function readFrames(c: JsonCheck, v: unknown, path: string): FrameTable {
  const o = c.obj(v, path);
  const length = c.num(o.length, `${path}.length`, { min: 0, int: true });
  const f: FrameTable = {
    length,
    name: c.strings(o.name, `${path}.name`, length),
    file: c.strings(o.file, `${path}.file`, length),
    pkg: c.strings(o.pkg, `${path}.pkg`, length),
    key: c.strings(o.key, `${path}.key`, length),
    label: c.strings(o.label, `${path}.label`, length),
    line: column(c, o, 'line', path, Int32Array, length),
    column: column(c, o, 'column', path, Int32Array, length),
    category: column(c, o, 'category', path, Uint8Array, length),
    tier: column(c, o, 'tier', path, Uint8Array, length),
  };
  for (let i = 0; i < length; i++) if (f.tier[i]! > MAX_TIER) c.fail(`${path}.tier[${i}]`, `unknown V8 tier ${f.tier[i]}`);
  return f;
}

/**
 * Rebuilds depth, end and total from parents. Pre-order means each node's parent is the previous
 * node or one of its ancestors: a stack of the current path checks that in one pass, and a node
 * popped from it has its subtree end at the node that popped it.
 */
function readTree(c: JsonCheck, v: unknown, path: string): CallTree {
  const o = c.obj(v, path);
  const n = c.num(o.length, `${path}.length`, { min: 1, int: true });
  const parent = column(c, o, 'parent', path, Int32Array, n);
  const frame = column(c, o, 'frame', path, Int32Array, n);
  const self = column(c, o, 'self', path, Float64Array, n);
  if (parent[0] !== -1 || frame[0] !== -1) c.fail(path, 'node 0 is not the root (its parent and frame must be -1)');
  const depth = new Int32Array(n);
  const end = new Int32Array(n);
  const stack = new Int32Array(n);
  let top = 0; // stack[0..top] is the path from the root to the previous node
  for (let i = 1; i < n; i++) {
    const p = parent[i]!;
    while (top >= 0 && stack[top] !== p) end[stack[top--]!] = i;
    if (top < 0)
      c.fail(`${path}.parent[${i}]`, `node ${i} has parent ${p}, which is not on the path to node ${i - 1}: the tree is not in pre-order`);
    stack[++top] = i;
    depth[i] = top;
  }
  while (top >= 0) end[stack[top--]!] = n;
  const total = self.slice();
  for (let i = n - 1; i > 0; i--) total[parent[i]!]! += total[i]!;
  return { length: n, parent, frame, depth, end, self, total };
}

/** A table's times in the form it keeps them (model/sample-times.ts); workspaces before that hold `time` only. */
function timesToJson(s: SampleTable, put: PutColumn): Json {
  if (s.time) return { time: put(s.time) };
  const out: Json = { timeBase: put(s.timeBase!), timeOffset: put(s.timeOffset!) };
  if (s.timeWide) out.timeWide = put(s.timeWide);
  return out;
}

function readTimes(c: JsonCheck, o: Json, path: string, length: number): TimeColumns {
  if (o.timeBase === undefined) return { time: column(c, o, 'time', path, Float64Array, length) };
  const timeBase = column(c, o, 'timeBase', path, Float64Array, Math.ceil(length / TIME_BLOCK));
  let wide = 0;
  timeBase.forEach((b, k) => {
    if (Number.isNaN(b)) wide += Math.min(TIME_BLOCK, length - k * TIME_BLOCK);
    else if (!Number.isFinite(b)) c.fail(`${path}.timeBase[${k}]`, `a block's base time must be finite, not ${b}`);
  });
  const out: TimeColumns = { timeBase, timeOffset: column(c, o, 'timeOffset', path, Uint32Array, length) };
  if (wide > 0) out.timeWide = column(c, o, 'timeWide', path, Float64Array, wide);
  return out;
}

function readSamples(c: JsonCheck, v: unknown, path: string): SampleTable {
  const o = c.obj(v, path);
  const length = c.num(o.length, `${path}.length`, { min: 0, int: true });
  const s: SampleTable = {
    length,
    node: column(c, o, 'node', path, Int32Array, length),
    ...readTimes(c, o, path, length),
  };
  if (o.weight !== undefined) s.weight = column(c, o, 'weight', path, Float64Array, length);
  if (o.thread !== undefined) s.thread = column(c, o, 'thread', path, Int32Array, length);
  return s;
}

function readNames(c: JsonCheck, v: unknown, path: string): Record<string, string> {
  const o = c.obj(v, path);
  const out: Record<string, string> = {};
  // defineProperty, not assignment: a key "__proto__" stays a plain entry instead of changing the prototype.
  for (const [k, x] of Object.entries(o))
    Object.defineProperty(out, k, { value: c.str(x, `${path}.${k}`), enumerable: true, writable: true, configurable: true });
  return out;
}

function readMeta(c: JsonCheck, v: unknown, path: string): RunMeta {
  const o = c.obj(v, path);
  const meta: RunMeta = { producer: c.str(o.producer, `${path}.producer`), warnings: c.strings(o.warnings, `${path}.warnings`) };
  const num = (x: unknown, p: string) => c.num(x, p);
  const startTime = c.opt(o, 'startTime', path, num);
  const endTime = c.opt(o, 'endTime', path, num);
  const sampleInterval = c.opt(o, 'sampleInterval', path, num);
  const eventType = c.opt(o, 'eventType', path, (x, p) => c.str(x, p));
  const otherEventTypes = c.opt(o, 'otherEventTypes', path, (x, p) => c.strings(x, p));
  const processNames = c.opt(o, 'processNames', path, (x, p) => readNames(c, x, p));
  const threadNames = c.opt(o, 'threadNames', path, (x, p) => readNames(c, x, p));
  const thread = c.opt(o, 'thread', path, (x, p) => c.str(x, p));
  const defaultThread = c.opt(o, 'defaultThread', path, (x, p) => c.str(x, p));
  const threads = c.opt(o, 'threads', path, (x, p) =>
    c.arr(x, p).map((t, i): ThreadInfo => {
      const q = `${p}[${i}]`;
      const r = c.obj(t, q);
      return {
        pid: c.str(r.pid, `${q}.pid`),
        tid: c.str(r.tid, `${q}.tid`),
        name: c.str(r.name, `${q}.name`),
        samples: c.num(r.samples, `${q}.samples`, { min: 0, int: true }),
        seconds: c.num(r.seconds, `${q}.seconds`, { min: 0 }),
      };
    }),
  );
  if (startTime !== undefined) meta.startTime = startTime;
  if (endTime !== undefined) meta.endTime = endTime;
  if (sampleInterval !== undefined) meta.sampleInterval = sampleInterval;
  if (eventType !== undefined) meta.eventType = eventType;
  if (otherEventTypes !== undefined) meta.otherEventTypes = otherEventTypes;
  if (processNames !== undefined) meta.processNames = processNames;
  if (threadNames !== undefined) meta.threadNames = threadNames;
  if (thread !== undefined) meta.thread = thread;
  if (defaultThread !== undefined) meta.defaultThread = defaultThread;
  if (threads !== undefined) meta.threads = threads;
  const runtime = c.opt(o, 'runtime', path, (x, p) => {
    const r = c.obj(x, p);
    const out: NonNullable<RunMeta['runtime']> = {};
    for (const k of ['node', 'v8'] as const) {
      const version = c.opt(r, k, p, (y, q) => c.str(y, q, 200));
      if (version !== undefined) out[k] = version;
    }
    return out;
  });
  if (runtime !== undefined) meta.runtime = runtime;
  return meta;
}

function readTraceStats(c: JsonCheck, v: unknown, path: string): TraceEventStat[] {
  return c.arr(v, path).map((x, i) => {
    const p = `${path}[${i}]`;
    const o = c.obj(x, p);
    const stat: TraceEventStat = {
      category: c.str(o.category, `${p}.category`),
      name: c.str(o.name, `${p}.name`),
      phase: c.str(o.phase, `${p}.phase`),
      count: c.num(o.count, `${p}.count`, { min: 0 }),
      bytes: c.num(o.bytes, `${p}.bytes`, { min: 0 }),
      duration: c.num(o.duration, `${p}.duration`, { min: 0 }),
    };
    // Written since the wall-covered time was added; older workspaces have neither.
    if (o.covered !== undefined) stat.covered = c.num(o.covered, `${p}.covered`, { min: 0 });
    if (o.spans !== undefined) {
      const n = c.num(o.spanCount, `${p}.spanCount`, { min: 0, int: true });
      if (n % 2 !== 0) c.fail(`${p}.spanCount`, `expected an even number (start and end of each span), found ${n}`);
      const spans = column(c, o, 'spans', p, Float64Array, n);
      for (let k = 1; k < n; k++)
        if (!(spans[k]! > spans[k - 1]!))
          c.fail(`${p}.spans`, `expected sorted, separate spans; value ${k} (${spans[k]}) is not after value ${k - 1} (${spans[k - 1]})`);
      stat.spans = spans;
    }
    return stat;
  });
}

/** A heap snapshot's profile from its graph, checked and worked out as an import of the snapshot is. */
function readHeap(c: JsonCheck, v: unknown, path: string, name: string): Profile {
  const o = c.obj(v, path);
  const count = (k: string) => c.num(o[k], `${path}.${k}`, { min: 0, int: true });
  const nodeFields = c.strings(o.nodeFields, `${path}.nodeFields`);
  const edgeFields = c.strings(o.edgeFields, `${path}.edgeFields`);
  const nodeCount = count('nodeCount');
  const edgeCount = count('edgeCount');
  const graph = {
    nodeFields,
    nodeTypes: c.strings(o.nodeTypes, `${path}.nodeTypes`),
    edgeFields,
    edgeTypes: c.strings(o.edgeTypes, `${path}.edgeTypes`),
    nodeCount,
    edgeCount,
    nodes: column(c, o, 'nodes', path, Uint32Array, nodeCount * nodeFields.length),
    edges: column(c, o, 'edges', path, Uint32Array, edgeCount * edgeFields.length),
    strings: c.strings(o.strings, `${path}.strings`),
    locationFields: c.strings(o.locationFields, `${path}.locationFields`),
    locations: column(c, o, 'locations', path, Uint32Array, count('locationCount')),
    ...(o.allocations === undefined ? {} : { allocations: readAllocationsJson(c, o.allocations, `${path}.allocations`) }),
  };
  try {
    return heapProfileFromGraph(c.file, name, graph);
  } catch (e) {
    if (e instanceof ImportError) c.fail(path, e.detail);
    throw e;
  }
}

/** The profile a workspace holds at `path`; throws `WorkspaceError` naming the file and field. */
export function profileFromJson(c: JsonCheck, v: unknown, path: string): Profile {
  const o = c.obj(v, path);
  if (o.version !== 1) c.fail(`${path}.version`, `profile model version ${describe(o.version)} is not one this Flamelens reads (1)`);
  const p: Profile = {
    version: 1,
    name: c.str(o.name, `${path}.name`),
    format: c.oneOf(o.format, `${path}.format`, FORMATS),
    kind: c.oneOf(o.kind, `${path}.kind`, KINDS),
    unit: c.oneOf(o.unit, `${path}.unit`, UNITS),
    frames: readFrames(c, o.frames, `${path}.frames`),
    tree: readTree(c, o.tree, `${path}.tree`),
    meta: readMeta(c, o.meta, `${path}.meta`),
  };
  if (p.kind === 'heap' || o.heap !== undefined) {
    if (p.kind !== 'heap' || p.format !== 'heapsnapshot')
      c.fail(`${path}.kind`, 'a heap graph belongs to a heap snapshot (format "heapsnapshot", kind "heap") and only there');
    // The frames and tree are the graph's dominator tree by class: rebuilt from it, as an import builds them.
    const { frames, tree, heap } = readHeap(c, o.heap, `${path}.heap`, p.name);
    Object.assign(p, { frames, tree, heap });
  }
  const samples = c.opt(o, 'samples', path, (x, q) => readSamples(c, x, q));
  if (samples) p.samples = samples;
  const traceStats = c.opt(o, 'traceStats', path, (x, q) => readTraceStats(c, x, q));
  if (traceStats) p.traceStats = traceStats;
  const problems = checkProfile(p);
  if (problems.length > 0)
    c.fail(path, `the profile is inconsistent: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? '; …' : ''}`);
  return p;
}
