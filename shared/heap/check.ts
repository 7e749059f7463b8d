import type { HeapGraph } from '../model/types';

/**
 * The invariants `HeapGraph` promises (see ../model/types), for the model's integrity check:
 * column lengths, every edge pointing at a node, dominators that are nodes, and each retained
 * size the node's self size plus those of the nodes it immediately dominates.
 */
export function checkHeapGraph(g: HeapGraph, say: (problem: string) => void): void {
  const NF = g.nodeFields.length;
  const EF = g.edgeFields.length;
  if (NF === 0 || g.nodes.length !== g.nodeCount * NF)
    return say(`heap.nodes has ${g.nodes.length} values, expected ${g.nodeCount} × ${NF}`);
  if (EF === 0 || g.edges.length !== g.edgeCount * EF)
    return say(`heap.edges has ${g.edges.length} values, expected ${g.edgeCount} × ${EF}`);
  if (g.dominator.length !== g.nodeCount || g.retained.length !== g.nodeCount)
    return say('heap.dominator or heap.retained differ in length from the nodes');
  const toNode = g.edgeFields.indexOf('to_node');
  const selfSize = g.nodeFields.indexOf('self_size');
  const edgeCount = g.nodeFields.indexOf('edge_count');
  if (toNode < 0 || selfSize < 0 || edgeCount < 0) return say('heap fields lack to_node, self_size or edge_count');
  let edges = 0;
  for (let i = 0; i < g.nodeCount; i++) edges += g.nodes[i * NF + edgeCount]!;
  if (edges !== g.edgeCount) say(`heap nodes count ${edges} edges, heap.edges holds ${g.edgeCount}`);
  for (let e = 0; e < g.edgeCount; e++) {
    const to = g.edges[e * EF + toNode]!;
    if (to % NF !== 0 || to / NF >= g.nodeCount) say(`heap edge ${e} points at ${to}, not a node`);
  }
  const sum = new Float64Array(g.nodeCount);
  for (let i = 0; i < g.nodeCount; i++) {
    sum[i]! += g.nodes[i * NF + selfSize]!;
    const d = g.dominator[i]!;
    if (d >= g.nodeCount || (i === 0 ? d !== 0 : d === i)) say(`heap node ${i} has dominator ${d}`);
    else if (i > 0) sum[d]! += g.retained[i]!;
  }
  for (let i = 0; i < g.nodeCount; i++)
    if (sum[i] !== g.retained[i])
      say(`heap node ${i} retains ${g.retained[i]}, its own and its dominated nodes' sizes add up to ${sum[i]}`);
}
