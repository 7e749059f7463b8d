/**
 * Where each box of a view tree goes: an icicle partition of the unit width, each box as wide as
 * its total's share of the root's, children side by side from their parent's left edge in the
 * view tree's order. The boxes come in breadth-first order (row by row), the order the chart
 * draws them in.
 */
import type { ViewNode } from '../../../shared/view/view-tree';

/** A laid-out box: its view node, its parent's box, its row and its horizontal extent in [0, 1]. */
export interface FlameNode<T = ViewNode> {
  data: T;
  parent: FlameNode<T> | null;
  depth: number;
  /** the box's weight (its view node's total) */
  value: number;
  /** left and right edge, as fractions of the chart's width */
  x0: number;
  x1: number;
}

export interface FlameLayout {
  /** every box, breadth first (the root first) */
  nodes: FlameNode[];
  /** the deepest row's depth (0: the root alone) */
  maxDepth: number;
}

export function layoutFlame(root: ViewNode): FlameLayout {
  const nodes: FlameNode[] = [{ data: root, parent: null, depth: 0, value: root.value, x0: 0, x1: 1 }];
  const scale = root.value > 0 ? 1 / root.value : 0;
  let maxDepth = 0;
  for (let i = 0; i < nodes.length; i++) {
    const parent = nodes[i]!;
    const children = parent.data.children;
    if (!children) continue;
    let x = parent.x0;
    for (const c of children) {
      const x1 = x + c.value * scale;
      nodes.push({ data: c, parent, depth: parent.depth + 1, value: c.value, x0: x, x1 });
      x = x1;
    }
    if (children.length > 0) maxDepth = Math.max(maxDepth, parent.depth + 1);
  }
  return { nodes, maxDepth };
}
