/**
 * What `flamelens heap` prints, from a heap graph: totals, the classes (one per distinct node type
 * and name), the objects that retain most, the per-class comparison of two snapshots, and the
 * bytes kept alive by objects a search matches.
 */
import type { FrameMatcher } from '../search/matcher';
import type { HeapGraph } from '../model/types';
import { firstEdges, heapFields } from './class-tree';
import { dominatorChildren } from './dominators';

export interface HeapClass {
  type: string;
  name: string;
  count: number;
  selfSize: number;
  /**
   * bytes the class's objects retain together: the retained sizes of those not dominated by
   * another object of the class (Chrome DevTools' Summary), so nothing is counted twice
   */
  retainedSize: number;
}

export interface HeapObject {
  id: number;
  type: string;
  name: string;
  selfSize: number;
  retainedSize: number;
}

export interface HeapSummary {
  nodes: number;
  edges: number;
  /** sum of every node's self size */
  totalSize: number;
  /** largest retained size first, then by type and name */
  classes: HeapClass[];
  /** the objects of largest retained size, largest first (the synthetic root and GC roots left out) */
  largest: HeapObject[];
}

/**
 * Sums `retained` of the nodes `pick` selects that have no selected node above them in the
 * dominator tree, per group (`groupOf` gives a group number ≥ 0, or -1 for none). A walk of the
 * dominator tree with a counter per group open on the path: a loop, not recursion.
 */
export function outermostSums(g: HeapGraph, groupOf: (i: number) => number, groups: number): Float64Array {
  const sums = new Float64Array(groups);
  const open = new Uint32Array(groups);
  const { start, child } = dominatorChildren(g.dominator);
  const group = new Int32Array(g.nodeCount);
  for (let i = 0; i < g.nodeCount; i++) group[i] = groupOf(i);
  // enter: push ~v; leave after children
  const stack: number[] = [0];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x < 0) {
      const v = ~x;
      if (group[v]! >= 0) open[group[v]!]!--;
      continue;
    }
    const k = group[x]!;
    if (k >= 0) {
      if (open[k] === 0) sums[k]! += g.retained[x]!;
      open[k]!++;
    }
    stack.push(~x);
    for (let c = start[x + 1]! - 1; c >= start[x]!; c--) stack.push(child[c]!);
  }
  return sums;
}

/**
 * How objects are grouped into classes: by node type and name (`flamelens heap`), or by type and
 * class name (`HeapFields.className`: strings, code, arrays… each one class per type, as the
 * app's class table and Chrome DevTools' Summary show them).
 */
export type ClassGrouping = 'type-name' | 'class';

/**
 * Node ordinal → class number, and the classes' type and name. A node's class is looked up by
 * its name's string index first (the class met last with that string and type), and by its text
 * only when that misses: no key string is made for each of millions of nodes.
 */
export function classesOf(g: HeapGraph, grouping: ClassGrouping): { classOf: Int32Array; keys: { type: string; name: string }[] } {
  const f = heapFields(g);
  const NF = g.nodeFields.length;
  const nameField = g.nodeFields.indexOf('name');
  const typeField = g.nodeFields.indexOf('type');
  const index = new Map<string, number>();
  const keys: { type: string; name: string }[] = [];
  const classOf = new Int32Array(g.nodeCount);
  const byString = new Int32Array(g.strings.length).fill(-1);
  const typeOfString = new Int32Array(g.strings.length);
  for (let i = 0; i < g.nodeCount; i++) {
    const s = g.nodes[i * NF + nameField]!;
    const t = g.nodes[i * NF + typeField]!;
    let k = byString[s]!;
    if (k < 0 || typeOfString[s] !== t) {
      const type = f.type(i);
      const name = grouping === 'class' ? f.className(i) : f.name(i);
      const key = `${type}\u0000${name}`;
      k = index.get(key) ?? -1;
      if (k < 0) {
        k = keys.push({ type, name }) - 1;
        index.set(key, k);
      }
      byString[s] = k;
      typeOfString[s] = t;
    }
    classOf[i] = k;
  }
  return { classOf, keys };
}

/**
 * The `count` nodes of largest retained size, largest first (ties: lower id first), leaving out
 * the root and synthetic nodes: a scan keeping the best so far in order, not a sort of them all.
 */
function largestObjects(g: HeapGraph, count: number): number[] {
  const f = heapFields(g);
  const synthetic = g.nodeTypes.indexOf('synthetic');
  const NF = g.nodeFields.length;
  const typeField = g.nodeFields.indexOf('type');
  const before = (a: number, b: number) => g.retained[a]! > g.retained[b]! || (g.retained[a] === g.retained[b] && f.id(a) < f.id(b));
  const top: number[] = [];
  for (let i = 1; i < g.nodeCount; i++) {
    if (g.nodes[i * NF + typeField] === synthetic) continue;
    if (top.length === count && !before(i, top[count - 1]!)) continue;
    let at = top.length === count ? count - 1 : top.length;
    while (at > 0 && before(i, top[at - 1]!)) {
      top[at] = top[at - 1]!;
      at--;
    }
    top[at] = i;
  }
  return top.slice(0, count);
}

export function heapSummary(g: HeapGraph, largestCount = 25, grouping: ClassGrouping = 'type-name'): HeapSummary {
  const f = heapFields(g);
  const { classOf, keys } = classesOf(g, grouping);
  const count = new Float64Array(keys.length);
  const self = new Float64Array(keys.length);
  let totalSize = 0;
  for (let i = 0; i < g.nodeCount; i++) {
    count[classOf[i]!]!++;
    self[classOf[i]!]! += f.selfSize(i);
    totalSize += f.selfSize(i);
  }
  const retained = outermostSums(g, (i) => classOf[i]!, keys.length);
  const classes = keys.map((k, c) => ({ ...k, count: count[c]!, selfSize: self[c]!, retainedSize: retained[c]! }));
  classes.sort((a, b) => b.retainedSize - a.retainedSize || cmp(a.type, b.type) || cmp(a.name, b.name));
  const largest = largestObjects(g, largestCount).map((i) => ({
    id: f.id(i),
    type: f.type(i),
    name: f.name(i),
    selfSize: f.selfSize(i),
    retainedSize: g.retained[i]!,
  }));
  return { nodes: g.nodeCount, edges: g.edgeCount, totalSize, classes, largest };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface ClassCounts {
  count: number;
  selfSize: number;
}
export interface ClassChange {
  type: string;
  name: string;
  base: ClassCounts;
  run: ClassCounts;
  delta: ClassCounts;
}

/** Per-class counts of two snapshots, largest change in self size first (then by type and name). */
export function compareClasses(base: HeapClass[], run: HeapClass[]): ClassChange[] {
  const rows = new Map<string, ClassChange>();
  const row = (c: HeapClass) => {
    const key = `${c.type}\u0000${c.name}`;
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { type: c.type, name: c.name, base: zero(), run: zero(), delta: zero() }));
    return r;
  };
  for (const c of base) row(c).base = { count: c.count, selfSize: c.selfSize };
  for (const c of run) row(c).run = { count: c.count, selfSize: c.selfSize };
  const out = [...rows.values()];
  for (const r of out) r.delta = { count: r.run.count - r.base.count, selfSize: r.run.selfSize - r.base.selfSize };
  out.sort((a, b) => Math.abs(b.delta.selfSize) - Math.abs(a.delta.selfSize) || cmp(a.type, b.type) || cmp(a.name, b.name));
  return out;
}
const zero = (): ClassCounts => ({ count: 0, selfSize: 0 });

/** Types whose name says what code made them: constructor names, function names. */
const CODE_NAMED = new Set(['object', 'closure', 'regexp', 'native']);

/**
 * The script a closure's function comes from: closure → `shared` (its SharedFunctionInfo) →
 * `script_or_debug_info` (`script` in older V8) → the Script, named by its URL or path.
 */
function closureScripts(g: HeapGraph): (i: number) => string {
  const f = heapFields(g);
  const NF = g.nodeFields.length;
  const EF = g.edgeFields.length;
  const en = g.edgeFields.indexOf('name_or_index');
  const et = g.edgeFields.indexOf('type');
  const to = g.edgeFields.indexOf('to_node');
  const numbered = new Set([g.edgeTypes.indexOf('element'), g.edgeTypes.indexOf('hidden')]);
  const first = firstEdges(g);
  const target = (i: number, names: string[]): number => {
    for (let e = first[i]!; e < first[i + 1]!; e++) {
      if (numbered.has(g.edges[e * EF + et]!)) continue;
      if (names.includes(g.strings[g.edges[e * EF + en]!]!)) return g.edges[e * EF + to]! / NF;
    }
    return -1;
  };
  return (i) => {
    const shared = target(i, ['shared']);
    const script = shared < 0 ? -1 : target(shared, ['script_or_debug_info', 'script']);
    return script < 0 ? '' : f.name(script);
  };
}

/**
 * Bytes kept alive by the objects `match` accepts — objects by constructor name, closures by
 * function name or by their script's path (so `dd-trace` finds the agent's closures under
 * `node_modules/dd-trace/`) — each byte counted once: the retained sizes of the matching objects
 * that no other matching object dominates. Also how many objects matched.
 */
export function matchRetained(g: HeapGraph, match: FrameMatcher): { objects: number; retainedSize: number } {
  const f = heapFields(g);
  const scriptOf = closureScripts(g);
  const matched = new Uint8Array(g.nodeCount);
  let objects = 0;
  for (let i = 1; i < g.nodeCount; i++) {
    const type = f.type(i);
    if (!CODE_NAMED.has(type)) continue;
    if (match(f.name(i), type === 'closure' ? scriptOf(i) : '')) {
      matched[i] = 1;
      objects++;
    }
  }
  const sums = outermostSums(g, (i) => (matched[i] ? 0 : -1), 1);
  return { objects, retainedSize: sums[0]! };
}
