/**
 * Puts a diff's figures on a pane's view tree: each view node is one key path, which is exactly
 * what the diff aligned, so a walk from the root finds every node's merged-tree entry.
 */
import type { ViewNode } from '../view/view-tree';
import type { ProfileDiff } from './diff';
import type { DiffIndex } from './diff-query';
import { Status } from './diff';

export function annotateView(root: ViewNode, d: ProfileDiff, index: DiffIndex, which: 'total' | 'self'): void {
  const deltas = which === 'total' ? d.tree.deltaTotal : d.tree.deltaSelf;
  const stack: [ViewNode, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, id] = stack.pop()!;
    if (id >= 0) {
      node.delta = deltas[id]!;
      node.status = d.tree.status[id]!;
    } else {
      // Not in the merged tree: a path with no weight on either side (e.g. only idle).
      node.delta = 0;
      node.status = Status.Unchanged;
    }
    for (const c of node.children ?? []) {
      // The ancestors row of a deep focus stands for a chain of frames: follow it key by key.
      let cid = id;
      for (const key of c.ancestors ? c.ancestors.map((a) => a.key) : [c.key]) cid = cid >= 0 ? index.child(cid, key) : -1;
      stack.push([c, cid]);
    }
  }
}
