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

/** An empty union (the root only), with room for `capacity` nodes before its columns grow. */
export function newUnion(capacity = 1024): Union {
  const column = () => new GrowInt32(Math.max(16, Math.ceil(capacity)));
  const u = { parent: column(), key: column(), firstChild: column(), nextSibling: column(), childCount: column() };
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

/**
 * Moves one profile's node map onto the pre-order ids (`newIndex`) and adds its self and total
 * weights into merged-tree columns through it, in one pass.
 */
export function accumulate(
  map: Int32Array,
  newIndex: Int32Array,
  self: Float64Array,
  total: Float64Array,
  selfCol: Float64Array,
  totalCol: Float64Array,
): void {
  for (let i = 0; i < map.length; i++) {
    const old = map[i]!;
    if (old < 0) continue;
    const m = newIndex[old]!;
    map[i] = m;
    selfCol[m]! += self[i]!;
    totalCol[m]! += total[i]!;
  }
}

/**
 * Lays the union tree out in pre-order (children in creation order, weights still 0); returns it
 * and old → new ids. Nodes are created after their parent, so two linear passes do it: subtree
 * sizes from the last node back, then each node's place right after its earlier siblings'
 * subtrees, from the first node on.
 */
export function preorder(u: Union): { tree: DiffTree; newIndex: Int32Array } {
  const n = u.parent.length;
  const parentIn = u.parent.data;
  const keyIn = u.key.data;
  const size = new Int32Array(n).fill(1);
  for (let i = n - 1; i >= 1; i--) size[parentIn[i]!]! += size[i]!;
  const newIndex = new Int32Array(n);
  // where the next child of a node goes
  const next = new Int32Array(n);
  next[0] = 1;
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
  const { parent, key, depth, end } = tree;
  if (n > 0) {
    parent[0] = -1;
    key[0] = keyIn[0]!;
    end[0] = n;
  }
  for (let old = 1; old < n; old++) {
    const p = newIndex[parentIn[old]!]!;
    const i = next[parentIn[old]!]!;
    next[parentIn[old]!] = i + size[old]!;
    newIndex[old] = i;
    next[old] = i + 1;
    parent[i] = p;
    key[i] = keyIn[old]!;
    depth[i] = depth[p]! + 1;
    end[i] = i + size[old]!;
  }
  return { tree, newIndex };
}

/** Per-function (per key id) weights of both sides; a key's total counts each sample once. */
export interface FunctionTotals {
  baseSelf: Float64Array;
  baseTotal: Float64Array;
  runSelf: Float64Array;
  runTotal: Float64Array;
}

/**
 * Per-function weights on the union tree: its paths are both runs' paths, so "an ancestor has the
 * same key" is the same test as in either profile, and a recursive function's total counts each
 * sample once.
 */
export function functionTotals(tree: DiffTree, keyCount: number): FunctionTotals {
  const out: FunctionTotals = {
    baseSelf: new Float64Array(keyCount),
    baseTotal: new Float64Array(keyCount),
    runSelf: new Float64Array(keyCount),
    runTotal: new Float64Array(keyCount),
  };
  const active = new Int32Array(keyCount);
  const open = new Int32Array(Math.max(1, tree.length));
  let sp = 0;
  const { end, key } = tree;
  for (let i = 1; i < tree.length; i++) {
    while (sp > 0 && end[open[sp - 1]!]! <= i) active[key[open[--sp]!]!]!--;
    const k = key[i]!;
    out.baseSelf[k]! += tree.baseSelf[i]!;
    out.runSelf[k]! += tree.runSelf[i]!;
    if (active[k] === 0) {
      out.baseTotal[k]! += tree.baseTotal[i]!;
      out.runTotal[k]! += tree.runTotal[i]!;
    }
    active[k]!++;
    open[sp++] = i;
  }
  return out;
}
