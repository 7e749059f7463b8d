/**
 * Why an object is alive: the shortest chain of references from the snapshot's root to it, as a
 * breadth-first walk from the root finds it (Chrome DevTools' "distance"). Weak references keep
 * nothing alive and shortcut edges are not references, so neither is followed. Computed once per
 * snapshot on typed arrays: each object's distance and the edge it was first reached by.
 */
import type { HeapGraph } from '../model/types';
import { firstEdges, heapFields } from './class-tree';

export interface RetainerStep {
  /** node ordinal */
  node: number;
  /** the reference from the previous step to this one, as DevTools writes it (`.name`, `[3]`); '' for the root */
  edge: string;
  edgeType: string;
  type: string;
  name: string;
  id: number;
  selfSize: number;
  retainedSize: number;
}

export interface RetainerTree {
  /** steps from the root to each node (-1: not reachable through strong references) */
  distance: Int32Array;
  /** the edge index each node was first reached by (-1: the root, or not reachable) */
  via: Int32Array;
  /** the node that edge leaves from */
  from: Int32Array;
}

const trees = new WeakMap<HeapGraph, RetainerTree>();

/** Distances and first edges from the root (cached per graph). */
export function retainerTree(g: HeapGraph): RetainerTree {
  const hit = trees.get(g);
  if (hit) return hit;
  const NF = g.nodeFields.length;
  const EF = g.edgeFields.length;
  const et = g.edgeFields.indexOf('type');
  const to = g.edgeFields.indexOf('to_node');
  const weak = g.edgeTypes.indexOf('weak');
  const shortcut = g.edgeTypes.indexOf('shortcut');
  const first = firstEdges(g);
  const distance = new Int32Array(g.nodeCount).fill(-1);
  const via = new Int32Array(g.nodeCount).fill(-1);
  const from = new Int32Array(g.nodeCount).fill(-1);
  const queue = new Uint32Array(g.nodeCount);
  let head = 0;
  let tail = 0;
  distance[0] = 0;
  queue[tail++] = 0;
  while (head < tail) {
    const v = queue[head++]!;
    for (let e = first[v]!; e < first[v + 1]!; e++) {
      const type = g.edges[e * EF + et]!;
      if (type === weak || type === shortcut) continue;
      const w = g.edges[e * EF + to]! / NF;
      if (distance[w] !== -1) continue;
      distance[w] = distance[v]! + 1;
      via[w] = e;
      from[w] = v;
      queue[tail++] = w;
    }
  }
  const tree = { distance, via, from };
  trees.set(g, tree);
  return tree;
}

/** The name of edge `e` as DevTools writes it: `[3]` for elements and hidden slots, else its name. */
function edgeName(g: HeapGraph, e: number): string {
  const EF = g.edgeFields.length;
  const type = g.edgeTypes[g.edges[e * EF + g.edgeFields.indexOf('type')]!]!;
  const n = g.edges[e * EF + g.edgeFields.indexOf('name_or_index')]!;
  return type === 'element' || type === 'hidden' ? `[${n}]` : (g.strings[n] ?? String(n));
}

/** The shortest strong path from the root to node `node`, root first; undefined when none exists. */
export function retainerPath(g: HeapGraph, node: number): RetainerStep[] | undefined {
  const t = retainerTree(g);
  if (t.distance[node] === -1) return undefined;
  const f = heapFields(g);
  const EF = g.edgeFields.length;
  const et = g.edgeFields.indexOf('type');
  const steps: RetainerStep[] = [];
  for (let v = node; v !== -1; v = t.from[v]!) {
    const e = t.via[v]!;
    steps.push({
      node: v,
      edge: e < 0 ? '' : edgeName(g, e),
      edgeType: e < 0 ? '' : g.edgeTypes[g.edges[e * EF + et]!]!,
      type: f.type(v),
      name: f.name(v),
      id: f.id(v),
      selfSize: f.selfSize(v),
      retainedSize: g.retained[v]!,
    });
  }
  return steps.reverse();
}

/**
 * The objects of class (type, name) — its largest retained size first, at most `limit`; `byClass`:
 * `name` is a class name (`HeapFields.className`, as `heapSummary(…, 'class')` groups them);
 * `only`: of the nodes it marks 1 (the new objects of `allocatedBetween`).
 */
export function objectsOfClass(g: HeapGraph, type: string, name: string, limit = 10, byClass = false, only?: Uint8Array): number[] {
  const f = heapFields(g);
  const out: number[] = [];
  for (let i = 1; i < g.nodeCount; i++)
    if ((!only || only[i]) && f.type(i) === type && (byClass ? f.className(i) : f.name(i)) === name) out.push(i);
  out.sort((a, b) => g.retained[b]! - g.retained[a]! || a - b);
  return out.slice(0, limit);
}
