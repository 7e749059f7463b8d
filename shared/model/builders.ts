/**
 * The two ways importers build a Profile: intern frames with `FrameTableBuilder`, then either
 * add whole stacks (`CallTreeBuilder.addStack`, for sampled and aggregated formats) or walk the
 * tree with `child` / `addSelf` (for enter/leave spans and formats that are already trees).
 * `finishProfile` assembles the plain-data model.
 */
import { GrowFloat64, GrowInt32, giveBack, reserveFloat64, reserveInt32, takeFloat64, takeInt32 } from './grow';
import { type BuildBudget, allocate } from './budget';
import type { FrameTableBuilder } from './frame-table-builder';
import { inTimeOrder, timeOrder } from './sample-time';
import { type TimeColumns, compactTimes, timeColumn, timeColumnsProblem } from './sample-times';
import type { CallTree, FormatId, Profile, ProfileKind, RunMeta, SampleTable, TraceEventStat, Unit } from './types';

export { FrameTableBuilder, detached, splitTier, type FrameInput } from './frame-table-builder';

/** What `finish` allocates per node: five Int32 columns (the ordering's and the tree's) and two Float64. */
const FINISH_BYTES_PER_NODE = 5 * 4 + 2 * 8;

/** Frame ids at or above this are refused: no profile has 67 million distinct frames, a bug might. */
const FRAME_LIMIT = 2 ** 26;

/**
 * Where each of `n` nodes goes in pre-order (children in the order they were made), from their
 * parents alone: a node is made after its parent, so subtree sizes add up backwards, and a
 * node's place follows from its parent's and the sizes of the siblings made before it. No lists
 * of children and no walk: two passes in the order nodes were made. `size`: room for n numbers
 * to work in (left holding nothing of use).
 */
function preorderPositions(parentOf: Int32Array, n: number, size: Int32Array): Int32Array {
  size.fill(1, 0, n);
  for (let i = n - 1; i > 0; i--) size[parentOf[i]!]! += size[i]!;
  // `size` becomes, node by node, where the next child of the node goes
  const pos = new Int32Array(n);
  size[0] = 1;
  for (let i = 1; i < n; i++) {
    const p = parentOf[i]!;
    const at = size[p]!;
    pos[i] = at;
    size[p] = at + size[i]!;
    size[i] = at + 1;
  }
  return pos;
}

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
  /** Nodes before this one are in `slots`; those from it on were made by `newChild`, and are indexed when `child` is next called. */
  private indexed = 1;
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

  /** `budget`: what the tree and its samples are charged to as they grow (see ./budget) */
  constructor(readonly budget?: BuildBudget) {
    // (the columns are private, and no method holds one's array across a push)
    for (const g of [this.parent, this.frame, this.self, this.sampleNode, this.sampleTime]) {
      g.budget = budget;
      g.givesBack = true;
    }
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
    if (this.indexed !== this.parent.length) this.indexNew();
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
    this.indexed = n + 1;
    // Kept at most half full, so that probe runs stay short.
    if (n * 2 >= slots.length) this.rehash(slots.length * 2);
    return n;
  }

  /**
   * A child of `node` for `frame` that the caller knows the tree does not have yet (an importer
   * whose own index of the tree says so): made without looking for it. `child` finds it later.
   */
  newChild(node: number, frame: number): number {
    if (frame < 0 || frame >= FRAME_LIMIT) throw new RangeError(`frame id ${frame} out of range`);
    const n = this.parent.push(node);
    this.frame.push(frame);
    this.self.push(0);
    return n;
  }

  /** Puts the nodes made by `newChild` into the child index. */
  private indexNew(): void {
    const n = this.parent.length;
    let size = this.slots.length;
    while ((n - 1) * 2 >= size) size *= 2;
    if (size !== this.slots.length) this.rehash(size);
    else {
      const slots = this.slots;
      const mask = size - 1;
      const parents = this.parent.data;
      const frames = this.frame.data;
      for (let c = this.indexed; c < n; c++) {
        let s = slotOf(parents[c]!, frames[c]!, mask);
        while (slots[s] !== 0) s = (s + 1) & mask;
        slots[s] = c;
      }
    }
    this.indexed = n;
  }

  private rehash(size: number): void {
    const slots = allocate(this.budget, (size - this.slots.length) * 4, () => new Int32Array(size));
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

  frameOf(node: number): number {
    return this.frame.data[node]!;
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
    g.budget = this.budget;
    g.givesBack = true;
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

  /**
   * Takes whole columns of samples, each weighing 1 (an importer that reads nodes and times
   * as separate arrays of the file: no copy of either). Only for a builder with no samples yet.
   */
  adoptSamples(node: Int32Array<ArrayBuffer>, times: TimeColumns): void {
    const problem = timeColumnsProblem({ length: node.length, ...times });
    if (this.sampleNode.length > 0 || problem) throw new Error(`adoptSamples: the builder has samples, or ${problem}`);
    const self = this.self.data;
    for (let i = 0; i < node.length; i++) self[node[i]!]! += 1;
    this.sampleNode.data = node;
    this.sampleNode.length = node.length;
    this.adoptedTimes = times;
    this.uniformWeight = 1;
  }

  /** the times of adopted samples, in the form they came in (model/sample-times) */
  private adoptedTimes: TimeColumns | undefined;

  /** The samples' times: adopted in whatever form they came, or those pushed, as Float64. */
  private takeTimes(): TimeColumns {
    const adopted = this.adoptedTimes;
    this.adoptedTimes = undefined;
    return adopted ?? { time: takeFloat64(this.sampleTime) };
  }

  get sampleCount(): number {
    return this.sampleNode.length;
  }

  /**
   * Reorders nodes into pre-order and computes depth, subtree ends and totals. `unitWeights`: the
   * profile counts samples, so a table whose every sample weighs 1 stores no weights (see
   * `SampleTable.weight`). The builder is spent after it.
   */
  finish(unitWeights = false): { tree: CallTree; samples?: SampleTable } {
    const n = this.parent.length;
    // the pre-order tree and the work arrays that make it
    this.budget?.charge(n * FINISH_BYTES_PER_NODE);
    // (the subtree ends' column is where the places are worked out, then made ready for the ends)
    const end = new Int32Array(n);
    const newIndex = preorderPositions(this.parent.data, n, end);
    end.fill(0);
    const parentIn = this.parent.data;
    const frameIn = this.frame.data;
    const selfIn = this.self.data;
    const parent = new Int32Array(n);
    const frame = new Int32Array(n);
    const depth = new Int32Array(n);
    const self = new Float64Array(n);
    const total = new Float64Array(n);
    // In the order nodes were made, a parent before its children: each written at its place.
    parent[0] = -1;
    frame[0] = frameIn[0]!;
    self[0] = selfIn[0]!;
    for (let i = 1; i < n; i++) {
      const at = newIndex[i]!;
      const p = newIndex[parentIn[i]!]!;
      parent[at] = p;
      frame[at] = frameIn[i]!;
      self[at] = selfIn[i]!;
      depth[at] = depth[p]! + 1;
    }
    // The builder's tree is spent: its memory goes back now, not at the next full collection
    // (for 1.5 M nodes, 34 MB while the caller goes on).
    for (const g of [this.parent, this.frame, this.self]) {
      giveBack(g.data);
      g.length = 0;
    }
    giveBack(this.slots);
    this.slots = new Int32Array(2);
    this.indexed = 1;
    // Backwards in pre-order: a node's children (after it) are summed, last first, before it.
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
    let times = this.takeTimes();
    let weight: Float64Array | undefined;
    if (this.sampleWeight) weight = takeFloat64(this.sampleWeight);
    else if (!unitWeights || this.uniformWeight !== 1) weight = new Float64Array(node.length).fill(this.uniformWeight);
    this.sampleWeight = undefined;
    let thread = this.sampleThread ? takeInt32(this.sampleThread) : undefined;
    this.sampleThread = undefined;
    // Samples in time order, whatever order they were recorded in (see ./sample-time).
    // (small times already in order, as V8 writes them, are only looked at)
    const table = { length: node.length, node, ...times };
    const time = times.time ?? (inTimeOrder(table) ? undefined : timeColumn(table));
    const byTime = time && timeOrder(time);
    if (time && byTime) {
      node = node.map((_, i) => node[byTime[i]!]!);
      const sorted = time.map((_, i) => time[byTime[i]!]!);
      times = times.time ? { time: sorted } : compactTimes(sorted);
      if (weight) weight = weight.map((_, i) => weight![byTime[i]!]!);
      if (thread) thread = thread.map((_, i) => thread![byTime[i]!]!);
    }
    const samples: SampleTable = { length: node.length, node, ...times };
    if (weight) samples.weight = weight;
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
  const { tree, samples } = p.tree.finish(p.unit === 'samples');
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
