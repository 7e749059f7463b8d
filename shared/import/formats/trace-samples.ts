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
 * - Hermes (React Native): top-level `samples` ([{"ts":"11552125241","tid":"7695","sf":1}]) and
 *   `stackFrames` ({"1":{"name":"[root]","category":"root"},"2":{…,"parent":1}}).
 */
import type { CallTreeBuilder, FrameTableBuilder } from '../../model/builders';
import { GrowFloat64, GrowInt32 } from '../../model/grow';
import { Tier, isTime } from '../../model/types';
import { Interner } from './trace-spans';
import { type V8CallFrame, internV8Frame } from './v8-frames';

/** The samples of one thread, ready to be added to a tree. */
export interface SampledThread {
  pid: string;
  tid: string;
  samples: number;
  /** samples not in `(idle)`, `(program)` or `(root)` */
  busy: number;
  /** Adds the samples; returns the time range (µs, producer clock) and what was tolerated. */
  build(frames: FrameTableBuilder, tree: CallTreeBuilder): { start: number; end: number; recordedEnd: number; warnings: string[] };
}

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
}

function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '') return Number(v);
  return NaN;
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
    let base = tree.root;
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
      for (const p of list) {
        const ids = p.sampleIds.data;
        samples += p.sampleIds.length;
        for (let i = 0; i < p.sampleIds.length; i++) if (!p.isIdle(ids[i]!)) busy++;
      }
      out.push({ pid: list[0]!.pid, tid: list[0]!.tid, samples, busy, build: (frames, tree) => buildV8(list, frames, tree) });
    }
    return out;
  }
}

function buildV8(list: V8Profile[], frames: FrameTableBuilder, tree: CallTreeBuilder) {
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
    const resolve = resolver(p, frames, tree, found);
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
          node = prev >= 0 ? prev : tree.root;
        }
        if (node === tree.root) {
          if (rootNode < 0) rootNode = tree.child(tree.root, frames.intern({ name: '(root)', tier: Tier.Unknown }));
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

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Hermes names a frame `function1(http://localhost:8081/index.bundle?platform=android…:1:1)`:
 * name, script, line and column. Split exactly as `/^(.*)\((.*):(\d+):(\d+)\)$/` would, but in
 * one pass: that expression backtracks cubically on a name full of `(` (40,000 of them took
 * 3.5 s). The line and column are the last two `:`-separated digit runs before the final `)`,
 * the script starts after the last `(` before them, and no part may hold a line break.
 */
export function splitHermesName(s: string): { name: string; file: string; line: number; column: number } | undefined {
  const end = s.length - 1;
  if (end < 0 || s.charCodeAt(end) !== 41 /* ) */) return undefined;
  let c = end;
  while (c > 0 && isDigit(s.charCodeAt(c - 1))) c--;
  if (c === end || s.charCodeAt(c - 1) !== 58 /* : */) return undefined;
  let l = c - 1;
  while (l > 0 && isDigit(s.charCodeAt(l - 1))) l--;
  if (l === c - 1 || l < 2 || s.charCodeAt(l - 1) !== 58) return undefined;
  const colon = l - 1;
  const paren = s.lastIndexOf('(', colon - 1);
  if (paren < 0) return undefined;
  for (let i = 0; i < colon; i++) {
    const ch = s.charCodeAt(i);
    if (ch === 10 || ch === 13 || ch === 0x2028 || ch === 0x2029) return undefined;
  }
  return { name: s.slice(0, paren), file: s.slice(paren + 1, colon), line: Number(s.slice(l, c - 1)), column: Number(s.slice(c, end)) };
}

interface HermesThread {
  pid: string;
  tid: string;
  ts: GrowFloat64;
  sf: GrowInt32;
}

export class HermesSamples {
  private stackFrames: Obj | undefined;
  private readonly byThread = new Map<string, HermesThread>();
  private readonly sfIds = new Interner();
  skipped = 0;

  get seen(): boolean {
    return this.byThread.size > 0;
  }

  setStackFrames(v: unknown): void {
    this.stackFrames = obj(v);
  }

  sample(v: unknown): void {
    const s = obj(v);
    const ts = s ? num(s.ts) : NaN;
    if (!s || !isTime(ts) || s.sf === undefined) {
      this.skipped++;
      return;
    }
    const pid = String(s.pid ?? '');
    const tid = String(s.tid ?? '');
    const k = `${pid}:${tid}`;
    let t = this.byThread.get(k);
    if (!t) this.byThread.set(k, (t = { pid, tid, ts: new GrowFloat64(64), sf: new GrowInt32(64) }));
    t.ts.push(ts);
    t.sf.push(this.sfIds.id(String(s.sf)));
  }

  threads(): SampledThread[] {
    return [...this.byThread.values()].map((t) => ({
      pid: t.pid,
      tid: t.tid,
      samples: t.ts.length,
      busy: t.ts.length,
      build: (frames, tree) => this.build(t, frames, tree),
    }));
  }

  private build(t: HermesThread, frames: FrameTableBuilder, tree: CallTreeBuilder) {
    const table = this.stackFrames ?? {};
    const memo = new Map<string, number>();
    let missing = 0;
    let cycles = 0;
    const onChain = new Set<string>();
    const frameOfEntry = (f: Obj): number => {
      const raw = typeof f.name === 'string' ? f.name : '';
      // "function1(http://localhost:8081/index.bundle?platform=android…:1:1)"
      const m = splitHermesName(raw);
      if (m) return frames.intern({ ...m, tier: Tier.Unknown });
      return frames.intern({ name: raw, line: num(f.line) || 0, column: num(f.column) || 0, tier: Tier.Unknown });
    };
    const resolve = (sf: string): number => {
      const known = memo.get(sf);
      if (known !== undefined) return known;
      const chain: string[] = [];
      onChain.clear();
      let base = tree.root;
      for (let cur: string | undefined = sf; cur !== undefined;) {
        const m = memo.get(cur);
        if (m !== undefined) {
          base = m;
          break;
        }
        // (own keys only: a frame id "__proto__" must not find Object.prototype)
        const f: Obj | undefined = Object.hasOwn(table, cur) ? obj(table[cur]) : undefined;
        if (!f) {
          missing++;
          if (chain.length === 0) return tree.child(tree.root, frames.intern({ name: '(unknown)', tier: Tier.Unknown }));
          break;
        }
        if (onChain.has(cur)) {
          // {"1":{"name":"a","parent":1}}: a parent cycle, cut where it closes
          cycles++;
          break;
        }
        chain.push(cur);
        onChain.add(cur);
        if (chain.length > 100_000) break;
        // speedscope stops at a parent of 0 or none
        cur = f.parent === undefined || f.parent === null || f.parent === 0 || f.parent === '0' ? undefined : String(f.parent);
      }
      for (let i = chain.length - 1; i >= 0; i--) {
        base = tree.child(base, frameOfEntry(obj(table[chain[i]!])!));
        memo.set(chain[i]!, base);
      }
      return base;
    };
    const ts = t.ts.data;
    const sf = t.sf.data;
    let start = Infinity;
    let end = -Infinity;
    for (let i = 0; i < t.ts.length; i++) {
      tree.addSample(resolve(this.sfIds.values[sf[i]!]!), 1, ts[i]!);
      start = Math.min(start, ts[i]!);
      end = Math.max(end, ts[i]!);
    }
    const warnings = missing > 0 ? [`${missing} sample stack frame(s) missing from stackFrames`] : [];
    if (cycles > 0) warnings.push(`${cycles} cycle(s) in the parent links of stackFrames; each was cut and put under the root`);
    return { start, end, recordedEnd: -Infinity, warnings };
  }
}
