/**
 * Alignment of two call trees by normalized frame-key paths: the union ("merged") tree that
 * `diffProfiles` computes deltas on. One pass per profile over its pre-order call tree, with a
 * hash map keyed by (merged parent id, key id) (./pair-map) — linear, and without recursion because stacks can
 * be 50,000 frames deep.
 */
import { GrowInt32 } from '../model/grow';
import type { FrameTable, Profile } from '../model/types';
import type { DiffTree } from './diff';
import type { PairMap } from './pair-map';

/** Subtree totals from self weights (a pre-order tree: children after their parent). */
export function subtreeTotals(parent: Int32Array, self: Float64Array): Float64Array {
  const total = Float64Array.from(self);
  for (let i = total.length - 1; i >= 1; i--) total[parent[i]!]! += total[i]!;
  return total;
}

/** Key id of every frame, interning new keys into the shared key space. */
export function frameKeyIds(frames: FrameTable, ids: Map<string, number>, keys: string[]): Int32Array {
  const out = new Int32Array(frames.length);
  for (let f = 0; f < frames.length; f++) {
    const k = frames.key[f]!;
    let id = ids.get(k);
    if (id === undefined) {
      id = keys.length;
      ids.set(k, id);
      keys.push(k);
    }
    out[f] = id;
  }
  return out;
}

/**
 * The union tree in creation order (node 0 the root), before it is laid out in pre-order. Each
 * node also lists its children (`firstChild` / `nextSibling`, newest first), which is how a child
 * by key is found while a node has few; see `align`.
 */
export interface Union {
  parent: GrowInt32;
  key: GrowInt32;
  firstChild: GrowInt32;
  nextSibling: GrowInt32;
  childCount: GrowInt32;
}

export function newUnion(): Union {
  const u = {
    parent: new GrowInt32(),
    key: new GrowInt32(),
    firstChild: new GrowInt32(),
    nextSibling: new GrowInt32(),
    childCount: new GrowInt32(),
  };
  u.parent.push(-1);
  u.key.push(-1);
  u.firstChild.push(-1);
  u.nextSibling.push(-1);
  u.childCount.push(0);
  return u;
}

/** Children a node may have before they are looked up in the hash map instead of its list. */
const LIST_LIMIT = 8;

/** The child of union node `parent` with `key`, or -1. */
function childOf(u: Union, index: PairMap, parent: number, key: number): number {
  if (u.childCount.data[parent]! > LIST_LIMIT) return index.get(parent, key);
  const keys = u.key.data;
  const next = u.nextSibling.data;
  for (let c = u.firstChild.data[parent]!; c >= 0; c = next[c]!) if (keys[c] === key) return c;
  return -1;
}

function addChild(u: Union, index: PairMap, parent: number, key: number): number {
  const m = u.parent.push(parent);
  u.key.push(key);
  u.firstChild.push(-1);
  u.nextSibling.push(u.firstChild.data[parent]!);
  u.childCount.push(0);
  u.firstChild.data[parent] = m;
  const count = ++u.childCount.data[parent]!;
  if (count === LIST_LIMIT + 1) {
    // A wide node from now on: its children go into the hash map, the ones it has too.
    for (let c = u.firstChild.data[parent]!; c >= 0; c = u.nextSibling.data[c]!) index.set(parent, u.key.data[c]!, c);
  } else if (count > LIST_LIMIT) index.set(parent, key, m);
  return m;
}

/**
 * Maps every weighted node of one profile onto the union tree, creating union nodes as needed;
 * returns the union node of each call-tree node (-1 for nodes without weight). The profile's
 * pre-order guarantees a node's parent is mapped before the node.
 *
 * A child by key is found in its parent's short list of children, and only for nodes with many
 * children in the hash map (`index`): most call-tree nodes have one to three children, and a
 * list walk stays in memory just written, where hash probes all over a table of tens of MB
 * made aligning two 1,000,000-node trees take half a second.
 */
export function align(p: Profile, keyOfFrame: Int32Array, total: Float64Array, u: Union, index: PairMap): Int32Array {
  const t = p.tree;
  const map = new Int32Array(t.length).fill(-1);
  map[0] = 0;
  for (let i = 1; i < t.length; i++) {
    if (!(total[i]! > 0)) continue; // no weight here, nor below: nothing to compare
    const parent = map[t.parent[i]!]!;
    if (parent < 0) continue;
    const key = keyOfFrame[t.frame[i]!]!;
    let m = childOf(u, index, parent, key);
    if (m < 0) m = addChild(u, index, parent, key);
    map[i] = m;
  }
  return map;
}

/** Adds one profile's self and total weights into merged-tree columns through its node map. */
export function accumulate(map: Int32Array, self: Float64Array, total: Float64Array, selfCol: Float64Array, totalCol: Float64Array): void {
  for (let i = 0; i < map.length; i++) {
    const m = map[i]!;
    if (m < 0) continue;
    selfCol[m]! += self[i]!;
    totalCol[m]! += total[i]!;
  }
}

/** Lays the union tree out in pre-order (children in creation order, weights still 0); returns it and old → new ids. */
export function preorder(u: Union): { tree: DiffTree; newIndex: Int32Array } {
  const n = u.parent.length;
  const parentIn = u.parent.data;
  const first = new Int32Array(n + 1);
  for (let i = 1; i < n; i++) first[parentIn[i]! + 1]!++;
  for (let i = 0; i < n; i++) first[i + 1]! += first[i]!;
  const fill = first.slice(0, n);
  const kids = new Int32Array(Math.max(0, n - 1));
  for (let i = 1; i < n; i++) kids[fill[parentIn[i]!]!++] = i;
  const order = new Int32Array(n);
  const newIndex = new Int32Array(n);
  const stack = new Int32Array(Math.max(1, n));
  let sp = 0;
  let k = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const v = stack[--sp]!;
    newIndex[v] = k;
    order[k++] = v;
    for (let c = first[v + 1]! - 1; c >= first[v]!; c--) stack[sp++] = kids[c]!;
  }
  const tree: DiffTree = {
    length: n,
    parent: new Int32Array(n),
    key: new Int32Array(n),
    depth: new Int32Array(n),
    end: new Int32Array(n),
    baseSelf: new Float64Array(n),
    baseTotal: new Float64Array(n),
    runSelf: new Float64Array(n),
    runTotal: new Float64Array(n),
    deltaSelf: new Float64Array(n),
    deltaTotal: new Float64Array(n),
    status: new Uint8Array(n),
  };
  for (let i = 0; i < n; i++) {
    const old = order[i]!;
    const p = parentIn[old]!;
    tree.parent[i] = p < 0 ? -1 : newIndex[p]!;
    tree.key[i] = u.key.data[old]!;
    tree.depth[i] = p < 0 ? 0 : tree.depth[tree.parent[i]!]! + 1;
    tree.end[i] = i + 1;
  }
  for (let i = n - 1; i >= 1; i--) {
    const p = tree.parent[i]!;
    if (tree.end[i]! > tree.end[p]!) tree.end[p] = tree.end[i]!;
  }
  return { tree, newIndex };
}
