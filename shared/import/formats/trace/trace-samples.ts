/**
 * CPU samples carried inside trace-event files, collected per thread while the file streams by
 * and turned into samples (weight 1, absolute timestamps) once the importer has chosen a thread:
 *
 * - Chrome 69+ and Node (`disabled-by-default-v8.cpu_profiler`): a `Profile` event on the
 *   profiled thread, then `ProfileChunk` events with the same id — written by the profiler thread,
 *   so their own tid is not the profiled one — each with new nodes (`parent` links), samples and
 *   time deltas: {"name":"ProfileChunk","id":"0xb","args":{"data":{"cpuProfile":{"nodes":[…],
 *   "samples":[…]},"timeDeltas":[…]}}}. The first delta counts from the profile's `startTime`.
 * - Chrome 65/66: one `CpuProfile` event holding a whole profile (nodes with `children` lists).
 * - Hermes (React Native): see ./trace-hermes.
 */
import type { CallTreeBuilder, FrameTableBuilder } from '../../../model/builders';
import { GrowFloat64, GrowInt32 } from '../../../model/grow';
import { Tier, isTime } from '../../../model/types';
import { type V8CallFrame, internV8Frame } from '../v8/v8-frames';
import { type Obj, num, obj } from './trace-values';

/** The samples of one thread, ready to be added to a tree. */
export interface SampledThread {
  pid: string;
  tid: string;
  samples: number;
  /** samples not in `(idle)`, `(program)` or `(root)` */
  busy: number;
  /** microseconds from the earliest sample to the latest (0 when unknown) */
  span: number;
  /**
   * Adds the samples, their stacks under `root` (the tree's root unless given); returns the time
   * range (µs, producer clock) and what was tolerated.
   */
  build(
    frames: FrameTableBuilder,
    tree: CallTreeBuilder,
    root?: number,
  ): { start: number; end: number; recordedEnd: number; warnings: string[] };
}

const IDLE = new Set(['(idle)', '(program)', '(root)']);

interface V8Node {
  parent: number; // NaN when none given
  /** `{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}` */
  callFrame: V8CallFrame;
  frame: number; // frame id once interned (-1 for `(root)`), else -2
}

/** One V8 CPU profile, as assembled from its events. */
class V8Profile {
  readonly nodes = new Map<number, V8Node>();
  /** parents given by `children` lists (old `CpuProfile` events) */
  readonly childParent = new Map<number, number>();
  readonly sampleIds = new GrowInt32(64);
  readonly deltas = new GrowFloat64(64);
  readonly chunks: { ts: number; start: number; end: number }[] = [];
  startTime = NaN;
  endTime = NaN;
  /** set by the `Profile` / `CpuProfile` event; chunks can only say which profile they extend */
  declared = false;
  pid = '';
  tid = '';
  declaredAt = NaN;
  mismatchedDeltas = 0;

  addNodes(list: unknown): void {
    if (!Array.isArray(list)) return;
    for (const raw of list) {
      const n = obj(raw);
      const id = n ? num(n.id) : NaN;
      if (!n || !Number.isFinite(id)) continue;
      this.nodes.set(id, { parent: num(n.parent), callFrame: obj(n.callFrame) ?? {}, frame: -2 });
      if (Array.isArray(n.children)) for (const c of n.children) this.childParent.set(num(c), id);
    }
  }

  addSamples(samples: unknown, deltas: unknown, ts: number): void {
    if (!Array.isArray(samples) || samples.length === 0) return;
    const d = Array.isArray(deltas) ? deltas : [];
    if (d.length !== samples.length) this.mismatchedDeltas++;
    const start = this.sampleIds.length;
    for (let i = 0; i < samples.length; i++) {
      this.sampleIds.push(num(samples[i]));
      const delta = num(d[i]);
      this.deltas.push(isTime(delta) ? delta : 0);
    }
    this.chunks.push({ ts, start, end: this.sampleIds.length });
  }

  parentOf(id: number): number | undefined {
    const p = this.nodes.get(id)!.parent;
    if (Number.isFinite(p)) return p;
    return this.childParent.get(id);
  }

  isIdle(id: number): boolean {
    const cf = this.nodes.get(id)?.callFrame;
    return cf === undefined || IDLE.has(cf.functionName as string) || cf.url === 'native dummy.js';
  }
}

/** The node's frame, in the same numbering as the .cpuprofile importer; -1 for `(root)`. */
function frameOf(n: V8Node, frames: FrameTableBuilder): number {
  if (n.frame === -2) n.frame = internV8Frame(frames, n.callFrame, 0);
  return n.frame;
}

/** Tree node for V8 node `id`, creating its path from the root; undefined for an unknown id. */
function resolver(
  p: V8Profile,
  frames: FrameTableBuilder,
  tree: CallTreeBuilder,
  found: { cycles: number },
  root: number,
): (id: number) => number | undefined {
  const memo = new Map<number, number>();
  const chain: number[] = [];
  const onChain = new Set<number>();
  return (id) => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    if (!p.nodes.has(id)) return undefined;
    chain.length = 0;
    onChain.clear();
    let base = root;
    for (let cur: number | undefined = id; cur !== undefined;) {
      const m = memo.get(cur);
      if (m !== undefined) {
        base = m;
        break;
      }
      if (!p.nodes.has(cur)) break; // a dangling parent: the chain hangs under the root
      if (onChain.has(cur)) {
        // A parent cycle: cut where it closes, the chain hangs under the root.
        found.cycles++;
        break;
      }
      chain.push(cur);
      onChain.add(cur);
      cur = p.parentOf(cur);
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const frame = frameOf(p.nodes.get(chain[i]!)!, frames);
      // The synthetic `(root)` node is the tree's own root, not a frame.
      if (frame >= 0) base = tree.child(base, frame);
      memo.set(chain[i]!, base);
    }
    return base;
  };
}

export class ChromeSamples {
  private readonly profiles = new Map<string, V8Profile>();
  /** `ProfileChunk` / `CpuProfile` events without the data they should carry */
  emptyEvents = 0;

  get seen(): boolean {
    return this.profiles.size > 0;
  }

  private get(key: string): V8Profile {
    let p = this.profiles.get(key);
    if (!p) this.profiles.set(key, (p = new V8Profile()));
    return p;
  }

  event(name: string, ev: Obj, ts: number): void {
    const data = obj(obj(ev.args)?.data);
    const pid = String(ev.pid ?? '');
    const key = `${pid}:${ev.id !== undefined ? String(ev.id) : String(ev.tid ?? '')}`;
    if (!data) {
      // Chrome 141 writes some chunks without data: {"args":{},"name":"ProfileChunk","ph":"P",…}
      this.emptyEvents++;
      return;
    }
    if (name === 'ProfileChunk') {
      const p = this.get(key);
      const cpu = obj(data.cpuProfile);
      if (cpu) p.addNodes(cpu.nodes);
      p.addSamples(cpu?.samples, data.timeDeltas, ts);
      if (isTime(num(data.startTime))) p.startTime = num(data.startTime);
      if (isTime(num(data.endTime))) p.endTime = num(data.endTime);
      return;
    }
    const p = this.get(key);
    p.declared = true;
    p.pid = pid;
    p.tid = String(ev.tid ?? '');
    p.declaredAt = ts;
    const cpu = name === 'CpuProfile' ? obj(data.cpuProfile) : data;
    if (!cpu) {
      this.emptyEvents++;
      return;
    }
    if (isTime(num(cpu.startTime))) p.startTime = num(cpu.startTime);
    if (isTime(num(cpu.endTime))) p.endTime = num(cpu.endTime);
    p.addNodes(cpu.nodes);
    p.addSamples(cpu.samples, cpu.timeDeltas ?? data.timeDeltas, ts);
  }

  /** Profiles whose declaring event never came (their chunks are left out). */
  undeclared(): number {
    let n = 0;
    for (const p of this.profiles.values()) if (!p.declared) n++;
    return n;
  }

  threads(): SampledThread[] {
    const byThread = new Map<string, V8Profile[]>();
    for (const p of this.profiles.values()) {
      if (!p.declared || p.sampleIds.length === 0) continue;
      const k = `${p.pid}:${p.tid}`;
      let list = byThread.get(k);
      if (!list) byThread.set(k, (list = []));
      list.push(p);
    }
    const out: SampledThread[] = [];
    for (const list of byThread.values()) {
      list.sort((a, b) => (a.startTime || a.declaredAt) - (b.startTime || b.declaredAt));
      let samples = 0;
      let busy = 0;
      let lo = Infinity;
      let hi = -Infinity;
      for (const p of list) {
        const ids = p.sampleIds.data;
        const deltas = p.deltas.data;
        samples += p.sampleIds.length;
        let t = Number.isFinite(p.startTime) ? p.startTime : p.declaredAt;
        for (let i = 0; i < p.sampleIds.length; i++) {
          if (!p.isIdle(ids[i]!)) busy++;
          t += deltas[i]!;
          if (t < lo) lo = t;
          if (t > hi) hi = t;
        }
      }
      out.push({
        pid: list[0]!.pid,
        tid: list[0]!.tid,
        samples,
        busy,
        span: hi > lo ? hi - lo : 0,
        build: (frames, tree, root) => buildV8(list, frames, tree, root),
      });
    }
    return out;
  }
}

function buildV8(list: V8Profile[], frames: FrameTableBuilder, tree: CallTreeBuilder, root = tree.root) {
  const warnings: string[] = [];
  let start = Infinity;
  let end = -Infinity;
  let recordedEnd = -Infinity;
  let unknown = 0;
  let negative = 0;
  let mismatched = 0;
  let prev = -1;
  let rootNode = -1;
  const found = { cycles: 0 };
  for (const p of list) {
    const resolve = resolver(p, frames, tree, found, root);
    const t0 = Number.isFinite(p.startTime) ? p.startTime : p.declaredAt;
    start = Math.min(start, t0);
    if (p.endTime > t0) recordedEnd = Math.max(recordedEnd, p.endTime);
    mismatched += p.mismatchedDeltas;
    // speedscope joins chunks in timestamp order; they are written in that order anyway.
    const chunks = [...p.chunks].sort((a, b) => a.ts - b.ts);
    const ids = p.sampleIds.data;
    const deltas = p.deltas.data;
    let t = t0;
    for (const c of chunks) {
      for (let i = c.start; i < c.end; i++) {
        const d = deltas[i]!;
        if (d < 0) negative++;
        t += d;
        let node = resolve(ids[i]!);
        if (node === undefined) {
          // speedscope keeps the previous stack for a sample whose node is missing.
          unknown++;
          node = prev >= 0 ? prev : root;
        }
        if (node === root) {
          if (rootNode < 0) rootNode = tree.child(root, frames.intern({ name: '(root)', tier: Tier.Unknown }));
          node = rootNode;
        }
        tree.addSample(node, 1, t);
        prev = node;
        if (t > end) end = t;
      }
    }
  }
  if (unknown > 0)
    warnings.push(`${unknown} sample(s) refer to a node the profile does not define; counted on the previous sample's stack`);
  if (found.cycles > 0) warnings.push(`${found.cycles} cycle(s) in the profile's parent links; each was cut and put under the root`);
  if (negative > 0)
    warnings.push(`${negative} sample(s) were recorded out of time order (negative timeDeltas); they were put in time order`);
  if (mismatched > 0) warnings.push(`${mismatched} chunk(s) have a different number of samples and time deltas; missing deltas count as 0`);
  return { start, end, recordedEnd, warnings };
}
