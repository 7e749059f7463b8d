/**
 * Objects allocated between two snapshots of one process (the leak workflow; Chrome DevTools'
 * "Objects allocated between snapshots"): the objects of the later snapshot whose id the earlier
 * one does not hold. V8 keeps an object's id for its life within a process, so this holds only
 * for snapshots of the same process; of two processes it is nearly everything.
 */
import type { HeapGraph } from '../model/types';
import { heapFields } from './class-tree';
import { type ClassGrouping, type HeapClass, classesOf, outermostSums } from './summary';

export interface Allocated {
  /** the new objects, their self sizes, and the bytes they retain together (each counted once) */
  count: number;
  selfSize: number;
  retainedSize: number;
  /** per class, largest retained size first; `retainedSize` of a class counts the new objects of it not dominated by another */
  classes: HeapClass[];
  /** per node of `after`: 1 when it is new */
  isNew: Uint8Array;
}

/** Whether each node of `after` is new: its id is not among `before`'s. */
function newNodes(before: HeapGraph, after: HeapGraph): Uint8Array {
  const fb = heapFields(before);
  const fa = heapFields(after);
  const ids = new Float64Array(before.nodeCount);
  for (let i = 0; i < before.nodeCount; i++) ids[i] = fb.id(i);
  ids.sort();
  const isNew = new Uint8Array(after.nodeCount);
  for (let i = 0; i < after.nodeCount; i++) {
    const id = fa.id(i);
    let lo = 0;
    let hi = ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ids[mid]! < id) lo = mid + 1;
      else hi = mid;
    }
    if (lo === ids.length || ids[lo] !== id) isNew[i] = 1;
  }
  return isNew;
}

export function allocatedBetween(before: HeapGraph, after: HeapGraph, grouping: ClassGrouping = 'class'): Allocated {
  const isNew = newNodes(before, after);
  const f = heapFields(after);
  const { classOf, keys } = classesOf(after, grouping);
  const count = new Float64Array(keys.length);
  const self = new Float64Array(keys.length);
  let total = 0;
  let totalSelf = 0;
  for (let i = 0; i < after.nodeCount; i++) {
    if (!isNew[i]) continue;
    count[classOf[i]!]!++;
    self[classOf[i]!]! += f.selfSize(i);
    total++;
    totalSelf += f.selfSize(i);
  }
  const retained = outermostSums(after, (i) => (isNew[i] ? classOf[i]! : -1), keys.length);
  // all new objects as one group: what they keep alive together
  const [together] = outermostSums(after, (i) => (isNew[i] ? 0 : -1), 1);
  const classes = keys
    .map((k, c) => ({ ...k, count: count[c]!, selfSize: self[c]!, retainedSize: retained[c]! }))
    .filter((c) => c.count > 0)
    .sort((a, b) => b.retainedSize - a.retainedSize || b.selfSize - a.selfSize || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { count: total, selfSize: totalSelf, retainedSize: together!, classes, isNew };
}
