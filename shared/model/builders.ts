/**
 * The two ways importers build a Profile: intern frames with `FrameTableBuilder`, then either
 * add whole stacks (`CallTreeBuilder.addStack`, for sampled and aggregated formats) or walk the
 * tree with `child` / `addSelf` (for enter/leave spans and formats that are already trees).
 * `finishProfile` assembles the plain-data model.
 */
import { categorize, packageOf } from './categorize';
import { frameKey } from './frame-key';
import { GrowFloat64, GrowInt32, reserveFloat64, reserveInt32, takeFloat64, takeInt32 } from './grow';
import { timeOrder } from './sample-time';
import { Category, Tier } from './types';
import { visibleText } from './visible-text';
import type { CallTree, FormatId, FrameTable, Profile, ProfileKind, RunMeta, SampleTable, TraceEventStat, Unit } from './types';

export interface FrameInput {
  /**
   * function or symbol name, without addresses; a leading V8 tier marker (`*fn`) is read into
   * `tier` unless `tier` is given, in which case the name is kept as it is
   */
  name: string;
  file?: string;
  /** 1-based; 0 or absent when unknown */
  line?: number;
  column?: number;
  tier?: Tier;
  /** overrides the classifier */
  category?: Category;
  /** shared object for native frames, used by the classifier */
  dso?: string;
  /** the producer's exact text for the frame, when the format's output must reproduce it (perf script, folded) */
  label?: string;
}

const TIER_BY_MARKER: Record<string, Tier> = {
  '~': Tier.Interpreted,
  '^': Tier.Baseline,
  '+': Tier.Maglev,
  '*': Tier.Optimized,
};

/** Reads a V8 tier marker off the front of a JS function name: `*handler` → [Optimized, 'handler']. */
export function splitTier(name: string): [Tier, string] {
  const t = TIER_BY_MARKER[name.charAt(0)];
  if (t !== undefined && name.length > 1 && name.charAt(1) !== ' ') return [t, name.slice(1)];
  return [Tier.Unknown, name];
}

/**
 * A copy of `s` that does not keep the text it was cut from alive. V8 makes a slice of a long
 * string a view into it, so a frame name taken from a line would otherwise hold on to the whole
 * piece of text (64 KiB) the line came in, and a profile would grow with its file instead of with its
 * distinct frames. For what is kept (names, cache keys), not for every line.
 */
export function detached(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/** Largest line or column the Int32Array columns hold; past it a position is unknown (0). */
const MAX_POSITION = 2 ** 31 - 1;

/** A 1-based line or column as stored: 0 when unknown, not positive or too large for the column. */
function position(v: number | undefined): number {
  return v !== undefined && v >= 1 && v <= MAX_POSITION ? Math.trunc(v) : 0;
}

export class FrameTableBuilder {
  /**
   * Frames by all their fields, joined into one key: a flat string (a template literal would
   * make a tree of string pieces, kept for every frame, that the collector walks again and again).
   */
  private readonly index = new Map<string, number>();
  private readonly name: string[] = [];
  private readonly file: string[] = [];
  private readonly line = new GrowInt32();
  private readonly column = new GrowInt32();
  /** the category an importer gave, or -1: worked out in `finish` from the name, file and dso */
  private readonly givenCategory: number[] = [];
  private readonly dso: string[] = [];
  private readonly tier: number[] = [];
  private readonly label: string[] = [];

  get length(): number {
    return this.name.length;
  }

  /** The label of frame `id` as kept (a copy that holds on to nothing else). */
  labelOf(id: number): string {
    return this.label[id]!;
  }

  intern(f: FrameInput): number {
    let tier = f.tier;
    let name = f.name;
    if (tier === undefined) [tier, name] = splitTier(name);
    if (name === '') name = '(anonymous)';
    let file = f.file ?? '';
    const line = position(f.line);
    const column = position(f.column);
    let label = f.label ?? '';
    const category = f.category ?? -1;
    const id = [name, file, line, column, tier, category, label].join('\u0000');
    const known = this.index.get(id);
    if (known !== undefined) return known;
    const n = this.name.length;
    this.index.set(id, n);
    // Shown as text that says what it holds (control and bidi characters as escapes): see visible-text.ts.
    const kept = detached(visibleText(name));
    // a label equal to the name (folded stacks) is kept once
    label = label === name ? kept : detached(visibleText(label));
    name = kept;
    file = detached(visibleText(file));
    this.name.push(name);
    this.file.push(file);
    this.line.push(line);
    this.column.push(column);
    this.givenCategory.push(category);
    this.dso.push(f.category === undefined && f.dso ? detached(f.dso) : '');
    this.tier.push(tier);
    this.label.push(label);
    return n;
  }

  /**
   * The table. What is derived from a frame's name and file (category, package, key) is worked
   * out here, in one pass: while a big file is read, the code that reads its lines is what the
   * engine should be compiling, not code that runs once per distinct frame.
   */
  finish(): FrameTable {
    const n = this.name.length;
    const category = new Uint8Array(n);
    const pkg = new Array<string>(n);
    const key = new Array<string>(n);
    const files = new Map<string, string>();
    for (let i = 0; i < n; i++) {
      const name = this.name[i]!;
      const file = this.file[i]!;
      const given = this.givenCategory[i]!;
      const c = given >= 0 ? given : categorize(name, file, this.dso[i]!);
      category[i] = c;
      pkg[i] = c === Category.Dependency ? packageOf(file) : '';
      key[i] = frameKey(name, file, files);
    }
    return {
      length: n,
      name: this.name,
      file: this.file,
      line: this.line.finish(),
      column: this.column.finish(),
      category,
      tier: Uint8Array.from(this.tier),
      pkg,
      key,
      label: this.label,
    };
  }
}

/** Frame ids at or above this are refused: no profile has 67 million distinct frames, a bug might. */
const FRAME_LIMIT = 2 ** 26;

/** Slot of (node, frame) in a power-of-two table: a multiplicative hash of both, mixed. */
function slotOf(node: number, frame: number, mask: number): number {
  let h = Math.imul(node, 0x9e3779b1) ^ Math.imul(frame + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) & mask;
}

export class CallTreeBuilder {
  private readonly parent = new GrowInt32();
  private readonly frame = new GrowInt32();
  private readonly self = new GrowFloat64();
  /**
   * The child index: an open-addressing table of node ids, found by hashing (parent, frame) and
   * confirmed against the node's own parent and frame columns, so it stores no keys. Importers
   * call `child` once per frame of every sample; a `Map` keyed by `parent * 2^26 + frame` (a heap
   * number past 2^31) cost several times more time and about six times the memory. 0 marks an
   * empty slot: the root is nobody's child. It starts tiny so that it grows during the first
   * few samples: code that first runs after V8 has optimized `child` makes V8 compile it again.
   */
  private slots = new Int32Array(2);
  private readonly sampleNode = new GrowInt32(16);
  private readonly sampleTime = new GrowFloat64(16);
  /**
   * Per-sample weights and threads are kept only once they differ: while every sample weighs the
   * same (1, counting samples) and is thread 0, `uniformWeight` says it all and no column is
   * filled (for 10 M samples, 80 MB and 40 MB less while importing).
   */
  private sampleWeight: GrowFloat64 | undefined;
  private uniformWeight = 1;
  private sampleThread: GrowInt32 | undefined;
  /** the thread recorded with the samples added from now on (`SampleTable.thread`); 0 by default */
  thread = 0;

  /** The root node. */
  readonly root = 0;

  constructor() {
    this.parent.push(-1);
    this.frame.push(-1);
    this.self.push(0);
  }

  get nodeCount(): number {
    return this.parent.length;
  }

  /** The child of `node` for `frame`, created when new. */
  child(node: number, frame: number): number {
    if (frame < 0 || frame >= FRAME_LIMIT) throw new RangeError(`frame id ${frame} out of range`);
    const slots = this.slots;
    const mask = slots.length - 1;
    const parents = this.parent.data;
    const frames = this.frame.data;
    let s = slotOf(node, frame, mask);
    for (let c = slots[s]!; c !== 0; c = slots[s]!) {
      if (parents[c] === node && frames[c] === frame) return c;
      s = (s + 1) & mask;
    }
    const n = this.parent.push(node);
    this.frame.push(frame);
    this.self.push(0);
    slots[s] = n;
    // Kept at most half full, so that probe runs stay short.
    if (n * 2 >= slots.length) this.rehash(slots.length * 2);
    return n;
  }

  private rehash(size: number): void {
    const slots = new Int32Array(size);
    const mask = size - 1;
    const parents = this.parent.data;
    const frames = this.frame.data;
    for (let c = 1; c < this.parent.length; c++) {
      let s = slotOf(parents[c]!, frames[c]!, mask);
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = c;
    }
    this.slots = slots;
  }

  parentOf(node: number): number {
    return this.parent.data[node]!;
  }

  addSelf(node: number, weight: number): void {
    this.self.data[node]! += weight;
  }

  /** Adds a stack given root → leaf; returns its leaf node. */
  addStack(frames: ArrayLike<number>, weight: number): number {
    let node = 0;
    for (let i = 0; i < frames.length; i++) node = this.child(node, frames[i]!);
    this.self.data[node]! += weight;
    return node;
  }

  /**
   * Records one sample (its weight is also added to the node). Samples may come in any order of
   * time: `finish` puts them in time order.
   */
  addSample(node: number, weight: number, time: number): void {
    this.self.data[node]! += weight;
    const at = this.sampleNode.push(node);
    this.sampleTime.push(time);
    if (this.sampleWeight !== undefined) this.sampleWeight.push(weight);
    else if (at === 0) this.uniformWeight = weight;
    else if (!Object.is(weight, this.uniformWeight))
      this.sampleWeight = this.grownColumn(new GrowFloat64(this.sampleNode.data.length), at, this.uniformWeight, weight);
    if (this.sampleThread !== undefined) this.sampleThread.push(this.thread);
    else if (this.thread !== 0) this.sampleThread = this.grownColumn(new GrowInt32(this.sampleNode.data.length), at, 0, this.thread);
  }

  /** A column for the `count` samples before, all `before`, and then `next` (weights, or threads). */
  private grownColumn<G extends GrowFloat64 | GrowInt32>(g: G, count: number, before: number, next: number): G {
    for (let i = 0; i < count; i++) g.push(before);
    g.push(next);
    return g;
  }

  /**
   * Room for `more` samples: an importer that knows how many it will add says so, and the
   * columns are made that size at once instead of doubling (and copying) as they fill.
   */
  reserveSamples(more: number): void {
    reserveInt32(this.sampleNode, more);
    reserveFloat64(this.sampleTime, more);
    if (this.sampleWeight) reserveFloat64(this.sampleWeight, more);
    if (this.sampleThread) reserveInt32(this.sampleThread, more);
  }

  get sampleCount(): number {
    return this.sampleNode.length;
  }

  /** Reorders nodes into pre-order and computes depth, subtree ends and totals. */
  finish(): { tree: CallTree; samples?: SampleTable } {
    const n = this.parent.length;
    const parentIn = this.parent.data;
    // Children lists in creation order (compressed sparse rows).
    const firstChild = new Int32Array(n + 1);
    for (let i = 1; i < n; i++) firstChild[parentIn[i]! + 1]!++;
    for (let i = 0; i < n; i++) firstChild[i + 1]! += firstChild[i]!;
    const fill = firstChild.slice(0, n);
    const childList = new Int32Array(Math.max(0, n - 1));
    for (let i = 1; i < n; i++) childList[fill[parentIn[i]!]!++] = i;

    // Iterative depth-first walk: stacks can be far deeper than the JS call stack allows.
    const order = new Int32Array(n);
    const newIndex = new Int32Array(n);
    const stack = new Int32Array(n);
    let sp = 0;
    let k = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const v = stack[--sp]!;
      newIndex[v] = k;
      order[k++] = v;
      for (let c = firstChild[v + 1]! - 1; c >= firstChild[v]!; c--) stack[sp++] = childList[c]!;
    }

    const parent = new Int32Array(n);
    const frame = new Int32Array(n);
    const depth = new Int32Array(n);
    const self = new Float64Array(n);
    const total = new Float64Array(n);
    const end = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const old = order[i]!;
      const p = parentIn[old]!;
      parent[i] = p < 0 ? -1 : newIndex[p]!;
      frame[i] = this.frame.data[old]!;
      self[i] = this.self.data[old]!;
      depth[i] = p < 0 ? 0 : depth[parent[i]!]! + 1;
    }
    for (let i = n - 1; i >= 0; i--) {
      total[i]! += self[i]!;
      if (end[i] === 0) end[i] = i + 1;
      const p = parent[i]!;
      if (p >= 0) {
        total[p]! += total[i]!;
        if (end[i]! > end[p]!) end[p] = end[i]!;
      }
    }
    const tree: CallTree = { length: n, parent, frame, depth, end, self, total };
    if (this.sampleNode.length === 0) return { tree };
    // Each column is taken (not copied when it is exactly full) and let go of in turn.
    let node = takeInt32(this.sampleNode);
    for (let i = 0; i < node.length; i++) node[i] = newIndex[node[i]!]!;
    let time = takeFloat64(this.sampleTime);
    let weight = this.sampleWeight ? takeFloat64(this.sampleWeight) : new Float64Array(node.length).fill(this.uniformWeight);
    this.sampleWeight = undefined;
    let thread = this.sampleThread ? takeInt32(this.sampleThread) : undefined;
    this.sampleThread = undefined;
    // Samples in time order, whatever order they were recorded in (see ./sample-time).
    const byTime = timeOrder(time);
    if (byTime) {
      node = node.map((_, i) => node[byTime[i]!]!);
      time = time.map((_, i) => time[byTime[i]!]!);
      weight = weight.map((_, i) => weight[byTime[i]!]!);
      if (thread) thread = thread.map((_, i) => thread![byTime[i]!]!);
    }
    const samples: SampleTable = { length: node.length, node, time, weight };
    if (thread) samples.thread = thread;
    return { tree, samples };
  }
}

export interface ProfileParts {
  name: string;
  format: FormatId;
  kind: ProfileKind;
  unit: Unit;
  frames: FrameTableBuilder;
  tree: CallTreeBuilder;
  meta: RunMeta;
  traceStats?: TraceEventStat[];
}

export function finishProfile(p: ProfileParts): Profile {
  const { tree, samples } = p.tree.finish();
  const profile: Profile = {
    version: 1,
    name: p.name,
    format: p.format,
    kind: p.kind,
    unit: p.unit,
    frames: p.frames.finish(),
    tree,
    meta: p.meta,
  };
  if (samples) profile.samples = samples;
  if (p.traceStats) profile.traceStats = p.traceStats;
  return profile;
}
