/**
 * How heap objects are named and grouped, and the profile tree of a heap snapshot: its dominator
 * tree with nodes merged by class path (see `HeapGraph` in ../model/types).
 */
import { CallTreeBuilder, FrameTableBuilder } from '../model/builders';
import { Category, type CallTree, type FrameTable, type HeapGraph, Tier } from '../model/types';
import { dominatorChildren } from './dominators';

/** Node types whose name is their class (a constructor name, a function name, a native class). */
const NAMED_TYPES = new Set(['object', 'closure', 'regexp', 'native', 'synthetic']);

/** Accessors of one node's fields by the meta's field positions. */
export interface HeapFields {
  type(i: number): string;
  name(i: number): string;
  id(i: number): number;
  selfSize(i: number): number;
  /** the class objects are grouped by in the dominator tree: the name of objects, `(type)` else */
  className(i: number): string;
}

export function heapFields(g: HeapGraph): HeapFields {
  const NF = g.nodeFields.length;
  const t = g.nodeFields.indexOf('type');
  const n = g.nodeFields.indexOf('name');
  const d = g.nodeFields.indexOf('id');
  const s = g.nodeFields.indexOf('self_size');
  const type = (i: number) => g.nodeTypes[g.nodes[i * NF + t]!]!;
  const name = (i: number) => g.strings[g.nodes[i * NF + n]!]!;
  return {
    type,
    name,
    id: (i) => g.nodes[i * NF + d]!,
    selfSize: (i) => g.nodes[i * NF + s]!,
    className: (i) => {
      const ty = type(i);
      return NAMED_TYPES.has(ty) ? name(i) || '(anonymous)' : `(${ty})`;
    },
  };
}

/** Where each node's edges start, counted in edges: node i's are `first[i]` to `first[i + 1] - 1`. */
export function firstEdges(g: HeapGraph): Uint32Array {
  const NF = g.nodeFields.length;
  const ec = g.nodeFields.indexOf('edge_count');
  const first = new Uint32Array(g.nodeCount + 1);
  for (let i = 0; i < g.nodeCount; i++) first[i + 1] = first[i]! + g.nodes[i * NF + ec]!;
  return first;
}

/**
 * The dominator tree merged by class path: walking the dominator tree from the root (a loop, not
 * recursion), each object adds its self size to the tree node of its dominator's tree node and its
 * own class. A tree node's total is then the bytes its objects retain.
 */
export function dominatorClassTree(g: HeapGraph): { frames: FrameTable; tree: CallTree } {
  const f = heapFields(g);
  const frames = new FrameTableBuilder();
  const tree = new CallTreeBuilder();
  const frameOf = new Map<string, number>();
  const { start, child } = dominatorChildren(g.dominator);
  const at = new Int32Array(g.nodeCount);
  tree.addSelf(tree.root, f.selfSize(0));
  const stack: number[] = [0];
  while (stack.length > 0) {
    const v = stack.pop()!;
    for (let c = start[v]!; c < start[v + 1]!; c++) {
      const w = child[c]!;
      const cls = f.className(w);
      let frame = frameOf.get(cls);
      if (frame === undefined) {
        frame = frames.intern({ name: cls, tier: Tier.Unknown, category: f.type(w) === 'closure' ? Category.App : Category.Other });
        frameOf.set(cls, frame);
      }
      at[w] = tree.child(at[v]!, frame);
      tree.addSelf(at[w]!, f.selfSize(w));
      stack.push(w);
    }
  }
  return { frames: frames.finish(), tree: tree.finish().tree };
}
