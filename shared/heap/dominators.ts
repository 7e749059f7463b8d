/**
 * Dominators and retained sizes of a heap snapshot's object graph, as Chrome DevTools and memlab
 * define them: an object's retained size is its own size plus that of every object reachable only
 * through it from the snapshot's synthetic root (node 0).
 *
 * Which edges retain (memlab's `isEssentialEdge`, after DevTools): not weak edges, not shortcut
 * edges except those from the root (V8 marks user roots with them), and not an edge from a node to
 * itself. Objects the root does not reach are attached below the root, as memlab does: first, in
 * node order, each one with no retaining referrer at all (only weak or shortcut ones) together
 * with what it reaches; then each one still left over, alone.
 *
 * Lengauer–Tarjan with path compression on typed arrays, every walk a loop: snapshots hold
 * million-long chains that would overflow the call stack. Vertices are numbered in depth-first
 * order from 1; 0 means none.
 */

/** Edge type names that never retain, and the one that retains only from the root. */
const WEAK = 'weak';
const SHORTCUT = 'shortcut';

export interface GraphLayout {
  nodeCount: number;
  /** node fields per node and the offsets of `self_size` and `edge_count` */
  nodeFieldCount: number;
  selfSizeField: number;
  edgeCountField: number;
  /** edge fields per edge and the offsets of `type` and `to_node` */
  edgeFieldCount: number;
  edgeTypeField: number;
  toNodeField: number;
  /** edge type values (indices into the meta's edge types) of weak and shortcut edges; -1 when absent */
  weakType: number;
  shortcutType: number;
}

export interface Dominators {
  /** immediate dominator of each node by ordinal (the root's is itself) */
  dominator: Uint32Array;
  /** self size plus the self sizes of all nodes dominated */
  retained: Float64Array;
}

export function edgeTypeIndex(edgeTypes: readonly string[], name: 'weak' | 'shortcut'): number {
  return edgeTypes.indexOf(name === 'weak' ? WEAK : SHORTCUT);
}

export function computeDominators(nodes: Uint32Array, edges: Uint32Array, l: GraphLayout): Dominators {
  const n = l.nodeCount;
  const NF = l.nodeFieldCount;
  const EF = l.edgeFieldCount;
  const dominator = new Uint32Array(n);
  const retained = new Float64Array(n);
  if (n === 0) return { dominator, retained };

  // first edge of each node (edge index, not array offset)
  const firstEdge = new Uint32Array(n + 1);
  for (let i = 0, e = 0; i < n; i++) {
    firstEdge[i] = e;
    e += nodes[i * NF + l.edgeCountField]!;
    firstEdge[i + 1] = e;
  }
  const retains = (from: number, type: number, to: number): boolean =>
    from !== to && type !== l.weakType && (type !== l.shortcutType || from === 0);

  // Retaining referrers of each node, as lists in one array; and which nodes have a referrer
  // that is neither weak nor shortcut (memlab's test for an orphan, self edges included).
  const refStart = new Uint32Array(n + 1); // node i's referrers: refFrom[refStart[i] … refStart[i+1])
  const strongRef = new Uint8Array(n);
  for (let from = 0; from < n; from++) {
    for (let e = firstEdge[from]!; e < firstEdge[from + 1]!; e++) {
      const to = edges[e * EF + l.toNodeField]! / NF;
      const type = edges[e * EF + l.edgeTypeField]!;
      if (type !== l.weakType && type !== l.shortcutType) strongRef[to] = 1;
      if (retains(from, type, to)) refStart[to + 1]!++;
    }
  }
  for (let i = 0; i < n; i++) refStart[i + 1]! += refStart[i]!;
  const refFrom = new Uint32Array(refStart[n]!);
  // Arrays of n + 1 used for one thing and then another, so that no more than eleven are held at
  // once (a 1 GB snapshot has ~7 M nodes: 28 MB each): `fill` while listing the referrers, then
  // the depth-first walk's `cursor`, then the buckets' `bucketNext`; the walk's `stack`, then the
  // path compression's `path`; `firstEdge`, once walked, becomes `ancestor`.
  const fill = new Uint32Array(n + 1);
  for (let from = 0; from < n; from++) {
    for (let e = firstEdge[from]!; e < firstEdge[from + 1]!; e++) {
      const to = edges[e * EF + l.toNodeField]! / NF;
      if (retains(from, edges[e * EF + l.edgeTypeField]!, to)) refFrom[refStart[to]! + fill[to]!++] = from;
    }
  }

  // Depth-first numbering.
  const num = new Uint32Array(n); // ordinal → number
  const vertex = new Uint32Array(n + 1); // number → ordinal
  const parent = new Uint32Array(n + 1); // by number
  const cursor = fill; // next edge to look at, by ordinal
  const stack = new Uint32Array(n + 1);
  let count = 0;
  const visit = (v: number, parentNumber: number) => {
    num[v] = ++count;
    vertex[count] = v;
    parent[count] = parentNumber;
    cursor[v] = firstEdge[v]!;
  };
  const dfs = (start: number, parentNumber: number) => {
    visit(start, parentNumber);
    let top = 0;
    stack[0] = start;
    while (top >= 0) {
      const v = stack[top]!;
      const end = firstEdge[v + 1]!;
      let pushed = false;
      while (cursor[v]! < end) {
        const e = cursor[v]!++;
        const to = edges[e * EF + l.toNodeField]! / NF;
        if (num[to] === 0 && retains(v, edges[e * EF + l.edgeTypeField]!, to)) {
          visit(to, num[v]!);
          stack[++top] = to;
          pushed = true;
          break;
        }
      }
      if (!pushed) top--;
    }
  };
  dfs(0, 0);
  if (count < n) for (let v = 0; v < n; v++) if (num[v] === 0 && strongRef[v] === 0) dfs(v, 1);
  if (count < n) for (let v = 0; v < n; v++) if (num[v] === 0) visit(v, 1);

  // Semidominators and immediate dominators, by number.
  const semi = new Uint32Array(n + 1);
  const label = new Uint32Array(n + 1);
  const ancestor = firstEdge.fill(0);
  const dom = new Uint32Array(n + 1);
  const bucketHead = new Uint32Array(n + 1);
  const bucketNext = fill.fill(0);
  for (let i = 1; i <= n; i++) semi[i] = label[i] = i;
  const path = stack;
  const evaluate = (v: number): number => {
    if (ancestor[v] === 0) return v;
    // compress the path from v up to the last vertex whose ancestor is linked
    let depth = 0;
    let x = v;
    while (ancestor[ancestor[x]!] !== 0) {
      path[depth++] = x;
      x = ancestor[x]!;
    }
    while (depth > 0) {
      const w = path[--depth]!;
      const a = ancestor[w]!;
      if (semi[label[a]!]! < semi[label[w]!]!) label[w] = label[a]!;
      ancestor[w] = ancestor[a]!;
    }
    return label[v]!;
  };
  for (let i = n; i >= 2; i--) {
    const w = vertex[i]!;
    const from = refStart[w]!;
    const to = refStart[w + 1]!;
    if (from === to) semi[i] = 1;
    for (let r = from; r < to; r++) {
      const u = evaluate(num[refFrom[r]!]!);
      if (semi[u]! < semi[i]!) semi[i] = semi[u]!;
    }
    const s = semi[i]!;
    bucketNext[i] = bucketHead[s]!;
    bucketHead[s] = i;
    const p = parent[i]!;
    ancestor[i] = p;
    for (let v = bucketHead[p]!; v !== 0; v = bucketNext[v]!) {
      const u = evaluate(v);
      dom[v] = semi[u]! < semi[v]! ? u : p;
    }
    bucketHead[p] = 0;
  }
  dom[1] = 1;
  for (let i = 2; i <= n; i++) if (dom[i] !== semi[i]) dom[i] = dom[dom[i]!]!;

  for (let v = 0; v < n; v++) {
    dominator[v] = vertex[dom[num[v]!]!]!;
    retained[v] = nodes[v * NF + l.selfSizeField]!;
  }
  // children before their dominator: reverse depth-first order
  for (let i = n; i >= 2; i--) {
    const v = vertex[i]!;
    retained[dominator[v]!]! += retained[v]!;
  }
  return { dominator, retained };
}

/** Dominator-tree children of each node, as lists in one array (`start[i]` … `start[i+1]`). */
export function dominatorChildren(dominator: Uint32Array): { start: Uint32Array; child: Uint32Array } {
  const n = dominator.length;
  const start = new Uint32Array(n + 1);
  for (let v = 1; v < n; v++) start[dominator[v]! + 1]!++;
  for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
  const child = new Uint32Array(Math.max(0, n - 1));
  const fill = new Uint32Array(n);
  for (let v = 1; v < n; v++) {
    const d = dominator[v]!;
    child[start[d]! + fill[d]!++] = v;
  }
  return { start, child };
}
