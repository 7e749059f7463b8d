/**
 * The profile model: plain data only (arrays, typed arrays, strings, numbers), never class
 * instances, so that a Profile crosses a worker boundary (structured clone, typed-array buffers
 * transferred) and the Electron bridge unchanged. Importers never build it by hand: they go
 * through `FrameTableBuilder` and `CallTreeBuilder` (see ./builders).
 */

/** What one unit of weight means. */
export type Unit =
  /** a count of samples (one per sample, or a perf event count when no period is recorded) */
  | 'samples'
  /** wall or CPU time in microseconds (V8 profiles, trace spans) */
  | 'microseconds'
  /** time in nanoseconds (perf `cpu-clock` / `task-clock` periods) */
  | 'nanoseconds'
  /** a hardware or software event count (perf `cycles`, `instructions`, `page-faults` periods) */
  | 'events'
  /** allocated bytes (heap profiles, pprof space profiles) */
  | 'bytes';

/**
 * The largest weight one sample, line, span or allocation may carry (2^53 - 1: in nanoseconds,
 * 104 days). Past it a count has lost its precision, and enough of them would add up to Infinity;
 * importers that read weights from the file leave larger ones out and say so. Every `self` and
 * `total` is finite and ≥ 0.
 */
export const MAX_WEIGHT = Number.MAX_SAFE_INTEGER;

/**
 * The largest magnitude of a timestamp or duration in microseconds (2^53 - 1: 285 years).
 * Importers take a time past it as unknown, so that differences and sums of times stay finite.
 */
export const MAX_TIME = Number.MAX_SAFE_INTEGER;

/** Whether `v` is a usable time in microseconds (see `MAX_TIME`). */
export function isTime(v: unknown): v is number {
  return typeof v === 'number' && v >= -MAX_TIME && v <= MAX_TIME;
}

/** The importer that read a file. */
export type FormatId = 'cpuprofile' | 'trace-events' | 'perf-script' | 'folded' | '0x' | 'heapprofile' | 'heapsnapshot' | 'pprof';

/**
 * How weights were obtained.
 * - `sampled`: periodic stack samples (a width is a share of samples or of sampled time)
 * - `spans`: enter/leave intervals (trace events); a node's self weight is its self duration
 * - `allocations`: sampled allocation sizes
 * - `aggregated`: pre-aggregated stacks with no per-sample information (folded stacks)
 * - `heap`: a heap snapshot (see `HeapGraph`): the tree is the dominator tree by class, weights
 *   are retained bytes
 */
export type ProfileKind = 'sampled' | 'spans' | 'allocations' | 'aggregated' | 'heap';

/** Frame categories a Node.js engineer recognises. Stored as small integers in `FrameTable.category`. */
export const Category = {
  /** the application's own JavaScript */
  App: 0,
  /** code under node_modules (see `FrameTable.pkg` for the package name) */
  Dependency: 1,
  /** Node.js core JavaScript: `node:*`, `internal/*` */
  NodeCore: 2,
  /** native C/C++ code: node, libuv, libc, other shared objects */
  Native: 3,
  /** V8 builtins, runtime functions, bytecode handlers, IC stubs */
  V8: 4,
  /** garbage collection */
  GC: 5,
  /** operating-system kernel */
  Kernel: 6,
  /** regular-expression code */
  RegExp: 7,
  /** WebAssembly */
  Wasm: 8,
  /** `(program)`, `(idle)`, `(root)` and the like: not attributable to a function */
  Idle: 9,
  /** anything the classifier cannot place (e.g. a bare folded-stack label) */
  Other: 10,
} as const;
export type Category = (typeof Category)[keyof typeof Category];
export const CATEGORY_COUNT = 11;
export const CATEGORY_NAMES: readonly string[] = [
  'app',
  'dependency',
  'node core',
  'native',
  'V8',
  'GC',
  'kernel',
  'regexp',
  'wasm',
  'idle/program',
  'other',
];

/** V8 execution tiers, as marked by V8 in function names (`~` `^` `+` `*`). */
export const Tier = {
  Unknown: 0,
  /** `~` Ignition bytecode interpreter */
  Interpreted: 1,
  /** `^` Sparkplug baseline compiler */
  Baseline: 2,
  /** `+` Maglev mid-tier optimizer */
  Maglev: 3,
  /** `*` TurboFan optimizing compiler */
  Optimized: 4,
} as const;
export type Tier = (typeof Tier)[keyof typeof Tier];
export const TIER_NAMES: readonly string[] = ['', 'interpreted', 'baseline (Sparkplug)', 'Maglev', 'optimized (TurboFan)'];

/**
 * Distinct frames of one profile, as parallel columns indexed by frame id (0 … length-1).
 * Two frames are distinct when their name, file, line, column or tier differ.
 */
export interface FrameTable {
  length: number;
  /** function or symbol name as displayed, tier marker and `+0x…` offsets removed; `(anonymous)` for unnamed JS functions */
  name: string[];
  /** script URL or path, or the shared object (DSO) for native frames; '' when unknown */
  file: string[];
  /** 1-based line, 0 when unknown */
  line: Int32Array;
  /** 1-based column, 0 when unknown */
  column: Int32Array;
  /** `Category` value */
  category: Uint8Array;
  /** `Tier` value */
  tier: Uint8Array;
  /** npm package name for `Category.Dependency` frames (`fastify`, `@dynatrace/oneagent`), else '' */
  pkg: string[];
  /**
   * Normalized key used to match "the same function" across runs: name and a comparable file
   * suffix, with tier markers, addresses and absolute path prefixes removed. See `frameKey`.
   */
  key: string[];
  /**
   * for perf script and folded input, the exact frame text that folded output reproduces (perf
   * script: what `stackcollapse-perf.pl` prints; folded: the label as read, possibly ''); for other
   * formats ''
   */
  label: string[];
}

/**
 * The call tree, nodes in depth-first pre-order: node 0 is the synthetic root (frame -1), every
 * node's parent has a smaller index, and a node's descendants are exactly the indices
 * `i+1 … end[i]-1`. This makes subtree walks loops instead of recursion (stacks can be 100,000
 * frames deep). Children of a node appear in the order they were first seen.
 */
export interface CallTree {
  length: number;
  /** parent node index; -1 for the root */
  parent: Int32Array;
  /** frame id in the `FrameTable`; -1 for the root */
  frame: Int32Array;
  /** depth: 0 for the root, 1 for its children… */
  depth: Int32Array;
  /** one past the last descendant's index (pre-order subtree end) */
  end: Int32Array;
  /** weight attributed to this node alone, in the profile's unit */
  self: Float64Array;
  /** self plus all descendants' self, in the profile's unit */
  total: Float64Array;
}

/**
 * Individual samples, in time order (present for sampled formats that have them): V8 records
 * some out of order, and the builder sorts them, stably, as Chrome DevTools does (see
 * `model/sample-time.ts`; a table with an unknown time keeps the recorded order). Used for time
 * weights, heatmaps and time ranges.
 */
export interface SampleTable {
  length: number;
  /** leaf call-tree node of the sample's stack */
  node: Int32Array;
  /**
   * The samples' timestamps in microseconds on the producer's clock (absolute, not rebased; NaN
   * when unknown), kept in one of two forms (model/sample-times.ts): this Float64 column, or, where
   * they are whole microseconds, a Float64 base per block of 65,536 samples (`timeBase`) and each
   * sample's Uint32 offset from it (`timeOffset`; a long capture's 10 M times in 40 MB instead of
   * 80), with the blocks that do not fit so kept in `timeWide`. Read them with `timeReader` or
   * `timeAt`, never from these fields.
   */
  time?: Float64Array;
  /** per block of 65,536 samples, its earliest time; NaN for a block kept in `timeWide` */
  timeBase?: Float64Array;
  /** each sample's time minus its block's base; 0xFFFFFFFF: no time */
  timeOffset?: Uint32Array;
  /** the times of the blocks whose base is NaN, as Float64, block after block */
  timeWide?: Float64Array;
  /**
   * weight of the sample in the profile's unit: 1 when counting samples, its duration in
   * microseconds when weighed by time (`model/weigh.ts`). Absent where the weights follow from
   * the unit, as they do for most tables: unit 'samples', 1 each; unit 'microseconds', each
   * sample's duration (`sampleDurations`, worked out from `time`). A long capture's 10 M weights
   * take 80 MB; `sampleWeights` (model/sample-weights.ts) gives them either way.
   */
  weight?: Float64Array;
  /**
   * when the profile holds the samples of several threads (each under a root frame of its own):
   * the sample's thread, an index into `meta.threads`; absent when all samples are one thread's
   */
  thread?: Int32Array;
}

/** Per event-type statistics of a trace-event file (for the statistics table). */
export interface TraceEventStat {
  /** the event's `cat` string ('' when absent) */
  category: string;
  name: string;
  /** the event's `ph` */
  phase: string;
  /** number of events */
  count: number;
  /** bytes in the file: UTF-8 length of each event's JSON object text, `{` to `}` */
  bytes: number;
  /** summed duration in microseconds for events that have one (`X` dur, paired B/E, paired b/e) */
  duration: number;
  /**
   * wall-clock microseconds covered by at least one of those spans (the union of their
   * intervals; at most the summed duration, less where they overlap); absent when none has a duration
   */
  covered?: number;
  /** that union: `[start0, end0, start1, end1, …]` in µs on the trace's clock, sorted, no overlaps */
  spans?: Float64Array;
}

/** A thread with samples in a file, as `flamelens info` lists it. */
export interface ThreadInfo {
  /** process and thread ids as the file writes them ('' when it has none) */
  pid: string;
  tid: string;
  /** the thread's name (`thread_name` metadata), '' when the file gives none */
  name: string;
  /** samples of the thread, counted as in the file */
  samples: number;
  /** seconds from its earliest sample to its latest */
  seconds: number;
}

export interface RunMeta {
  /** tool that wrote the file, as far as it can be told (`node --cpu-prof`, `perf script`, `0x`…) */
  producer: string;
  /** first and last timestamps in microseconds on the producer's clock, when known */
  startTime?: number;
  endTime?: number;
  /** mean sample interval in microseconds, when known */
  sampleInterval?: number;
  /** the runtime's versions, where the file says (a Node.js trace's `node` metadata event) */
  runtime?: { node?: string; v8?: string };
  /** for perf script: the event type kept (e.g. `cpu-clock`) and the others seen */
  eventType?: string;
  otherEventTypes?: string[];
  /** process names by pid and thread names by `pid:tid`, from metadata events or perf comm */
  processNames?: Record<string, string>;
  threadNames?: Record<string, string>;
  /**
   * when the file has data for several threads and the profile shows one (trace events with CPU
   * samples): that thread, as `name (pid/tid)`
   */
  thread?: string;
  /**
   * every thread with samples in the file (trace events), the one shown (`thread`) first; one
   * entry or none when the file has one thread
   */
  threads?: ThreadInfo[];
  /**
   * where the profile holds every thread of the file (`SampleTable.thread`): the choice of
   * thread (model/threads) that shows what an import without a choice shows — the busiest main
   * thread's `PID:TID` for a trace read with every thread, `together` for a perf capture read
   * as perf script is read by default (this profile itself)
   */
  defaultThread?: string;
  /** things the importer tolerated (skipped lines, unmatched end events…), for the user to see */
  warnings: string[];
}

export interface Profile {
  /** model version, bumped on incompatible change (workspaces store it) */
  version: 1;
  /** display name; the file name unless the user renames the run */
  name: string;
  format: FormatId;
  kind: ProfileKind;
  unit: Unit;
  frames: FrameTable;
  tree: CallTree;
  samples?: SampleTable;
  /** trace-event files only */
  traceStats?: TraceEventStat[];
  /**
   * Samples over the run's time in `DENSITY_BUCKETS` equal buckets, worked out where the profile
   * is imported (a walk over every sample, kept off the window's thread); absent where samples have
   * no times, and in profiles made before it existed (it is then worked out when needed).
   */
  density?: SampleDensity;
  /** heap snapshots only (kind 'heap') */
  heap?: HeapGraph;
  meta: RunMeta;
}

/** Buckets of `Profile.density`: many divisors, so that a pane can draw any of them exactly. */
export const DENSITY_BUCKETS = 1200;

export interface SampleDensity {
  /** seconds on the profile's clock: the earliest and latest sample times */
  start: number;
  end: number;
  /** non-idle samples per bucket */
  counts: number[];
  /** idle samples per bucket */
  idleCounts: number[];
}

/**
 * A V8 heap snapshot's object graph, as the file holds it: flat integer arrays whose field
 * layout `nodeFields`/`edgeFields` give (read from the file's `snapshot.meta`, never assumed),
 * plus what Flamelens computes from it: the dominator of every node and its retained size.
 *
 * A heap snapshot is not a call tree. Its profile's `tree` is the dominator tree with nodes
 * merged by class path: a tree node is the path of class names (constructor name for objects and
 * closures, `(type)` for strings, arrays, code…) from the root down the dominator tree, its `self`
 * the summed self size of the objects on that path, so that its `total` is the bytes those objects
 * retain and a flamegraph of it is "retained size by dominator path". The node-level data stays
 * here, in typed arrays, so that the profile still crosses a worker boundary as plain data.
 *
 * Node `i` (its ordinal) occupies `nodes[i*nodeFields.length …]`; its edges follow those of nodes
 * 0 … i-1 in `edges` (`edge_count` of each). An edge's `to_node` is the target's ordinal times
 * `nodeFields.length`, as V8 writes it.
 */
export interface HeapGraph {
  /** `snapshot.meta.node_fields`: e.g. type, name, id, self_size, edge_count, trace_node_id, detachedness */
  nodeFields: string[];
  /** names of the values of the node field `type` (`snapshot.meta.node_types[typeField]`) */
  nodeTypes: string[];
  /** `snapshot.meta.edge_fields`: type, name_or_index, to_node */
  edgeFields: string[];
  /** names of the values of the edge field `type` */
  edgeTypes: string[];
  nodeCount: number;
  edgeCount: number;
  /** node fields, `nodeFields.length` per node */
  nodes: Uint32Array;
  /** edge fields, `edgeFields.length` per edge */
  edges: Uint32Array;
  /** the snapshot's string table (node names, property names) */
  strings: string[];
  /** `locations` (object → script, line, column), `locationFields` per entry; empty when absent */
  locationFields: string[];
  locations: Uint32Array;
  /** ordinal of each node's immediate dominator (the root, ordinal 0, is its own) */
  dominator: Uint32Array;
  /** bytes each node retains: its self size plus that of every node it dominates */
  retained: Float64Array;
  /** allocation stacks, in a snapshot taken with `--track-heap-objects`; absent otherwise */
  allocations?: HeapAllocations;
}

/**
 * A snapshot's allocation stacks (`trace_function_infos` and `trace_tree`, written when V8 tracks
 * allocations: `node --track-heap-objects`, DevTools' allocation instrumentation). A node's
 * `trace_node_id` names the trace node (the stack) that allocated it.
 */
export interface HeapAllocations {
  /** `snapshot.meta.trace_function_info_fields`: function_id, name, script_name, script_id, line, column */
  functionFields: string[];
  /** `trace_function_infos`, `functionFields.length` per function; names are string indices */
  functions: Uint32Array;
  /** the trace tree in pre-order: each node's id, its parent (index; -1 for the root) and function (index) */
  traceId: Float64Array;
  traceParent: Int32Array;
  traceFunction: Uint32Array;
  /** what V8 counted as allocated at the node over the whole tracking, live or not */
  traceCount: Float64Array;
  traceSize: Float64Array;
}
