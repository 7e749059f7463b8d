/**
 * The tree a flamegraph pane draws: the focused call path's subtree plus its ancestor chain
 * (folded into one row: a deep focus must not push the focused frame off the pane), siblings with the same normalized frame key merged (a function's tiers and line variants are
 * one box), and boxes narrower than the pane can show dropped. Its size depends on the pane's
 * width, not on the profile's size — what keeps rendering cost flat.
 */
import type { Profile } from '../model/types';
import { keyIndex } from './function-stats';

export interface ViewNode {
  name: string;
  /** normalized frame key (matches across runs); '' for the synthetic root */
  key: string;
  /** total weight in the view (after any search filter) */
  value: number;
  self: number;
  category: number;
  tier: number;
  file: string;
  line: number;
  /** a frame of the focus path or above it, drawn full width for context */
  context?: boolean;
  /**
   * Set on the one row that stands for the focused frame's ancestors (below the root, above the
   * focused frame): those frames from the outermost down, each name and key. Its own `key` is ''.
   */
  ancestors?: { name: string; key: string }[];
  /** the focused frame (set only when something is focused) */
  focused?: boolean;
  /** its frame matches the active search */
  match?: boolean;
  /** set by a diff against the baseline (shared/diff/annotate-view.ts): run minus baseline, and the status code */
  delta?: number;
  status?: number;
  children?: ViewNode[];
}

export interface ViewOptions {
  /** frame keys from the root down to the focused frame ([] = whole profile) */
  focus: readonly string[];
  /** boxes whose total is below this weight are left out */
  minValue?: number;
  /** boxes narrower than this fraction of the focused frame are left out (one pixel: 1 / width) */
  minFraction?: number;
  /** child order: by name (like sits above like in every pane) or heaviest first */
  sort?: 'name' | 'weight';
  /** per-node totals to draw (a time range's or a search filter's), default the profile's own */
  totals?: Float64Array;
  /** per-node self weights matching `totals` (for the figures a box reports), default the profile's own */
  self?: Float64Array;
  /** per-frame search match flags */
  matches?: Uint8Array;
  /** label of the root box */
  rootName?: string;
  /** cap on boxes, a guard for pathological inputs */
  maxNodes?: number;
}

export interface ViewTree {
  root: ViewNode;
  /** how many keys of the focus path exist in this run (less than focus.length: deepest ancestor shown) */
  focusDepth: number;
  /** weight of the focused frame (the whole run when focus is []) */
  focusTotal: number;
  nodeCount: number;
}

/** Children of tree node `v`: the pre-order layout makes this a skip-list walk. */
function forEachChild(p: Profile, v: number, fn: (c: number) => void): void {
  const end = p.tree.end;
  for (let c = v + 1; c < end[v]!; c = end[c]!) fn(c);
}

function makeNode(p: Profile, nodes: number[], totals: Float64Array, selfWeights: Float64Array, matches?: Uint8Array): ViewNode {
  const t = p.tree;
  const f = p.frames;
  let value = 0;
  let self = 0;
  let heaviest = nodes[0]!;
  for (const v of nodes) {
    value += totals[v]!;
    self += selfWeights[v]!;
    if (totals[v]! > totals[heaviest]!) heaviest = v;
  }
  const fr = t.frame[heaviest]!;
  const node: ViewNode = {
    name: f.name[fr]!,
    key: f.key[fr]!,
    value,
    self,
    category: f.category[fr]!,
    tier: f.tier[fr]!,
    file: f.file[fr]!,
    line: f.line[fr]!,
  };
  if (matches && nodes.some((v) => matches[t.frame[v]!])) node.match = true;
  return node;
}

/** Key id per frame and the number of keys, computed once per profile (numbers hash faster than key strings). */
const keyIds = new WeakMap<Profile, { ofFrame: Int32Array; count: number }>();
function keyIdsOf(p: Profile): { ofFrame: Int32Array; count: number } {
  let ids = keyIds.get(p);
  if (!ids) {
    const k = keyIndex(p);
    keyIds.set(p, (ids = { ofFrame: k.ofFrame, count: k.keys.length }));
  }
  return ids;
}

/** Per-key scratch columns for `childGroups`, one set per profile, all zero / -1 between calls. */
interface Scratch {
  sum: Float64Array;
  slot: Int32Array;
  seen: Uint8Array;
}
const scratches = new WeakMap<Profile, Scratch>();
function scratchOf(p: Profile, keyCount: number): Scratch {
  let s = scratches.get(p);
  if (!s || s.sum.length < keyCount)
    scratches.set(p, (s = { sum: new Float64Array(keyCount), slot: new Int32Array(keyCount).fill(-1), seen: new Uint8Array(keyCount) }));
  return s;
}

/**
 * Groups the children of a set of tree nodes by frame key, in first-seen order, keeping only
 * groups at least `minValue` wide. Keys are summed in typed columns first and only the groups
 * wide enough are built: a node of a big profile has thousands of children too narrow to draw,
 * and a `Map` entry and an array for each of them were most of a view tree's cost.
 */
function childGroups(p: Profile, nodes: number[], totals: Float64Array, minValue: number): number[][] {
  const { ofFrame: keyOf, count } = keyIdsOf(p);
  const frame = p.tree.frame;
  const end = p.tree.end;
  const { sum, slot, seen } = scratchOf(p, count);
  const touched: number[] = [];
  for (const v of nodes) {
    for (let c = v + 1; c < end[v]!; c = end[c]!) {
      const w = totals[c]!;
      if (w === 0) continue;
      const k = keyOf[frame[c]!]!;
      if (seen[k] === 0) {
        seen[k] = 1;
        touched.push(k);
      }
      sum[k]! += w;
    }
  }
  const out: number[][] = [];
  if (touched.length > 0) {
    for (const v of nodes) {
      for (let c = v + 1; c < end[v]!; c = end[c]!) {
        if (totals[c]! === 0) continue;
        const k = keyOf[frame[c]!]!;
        if (!(sum[k]! >= minValue)) continue;
        const g = slot[k]!;
        if (g < 0) {
          slot[k] = out.length;
          out.push([c]);
        } else out[g]!.push(c);
      }
    }
  }
  for (const k of touched) {
    sum[k] = 0;
    slot[k] = -1;
    seen[k] = 0;
  }
  return out;
}

/** Tree nodes along the focus path, as far as this run has it. */
export function resolveFocus(p: Profile, focus: readonly string[]): { nodes: number[]; depth: number; chain: number[][] } {
  let cur = [0];
  const chain: number[][] = [];
  let depth = 0;
  for (const key of focus) {
    const next: number[] = [];
    for (const v of cur)
      forEachChild(p, v, (c) => {
        if (p.frames.key[p.tree.frame[c]!] === key) next.push(c);
      });
    if (next.length === 0) break;
    chain.push(next);
    cur = next;
    depth++;
  }
  return { nodes: cur, depth, chain };
}

/**
 * The frame keys from the root to a view node, given the nodes on the way down (root first, the
 * node last): the ancestors row stands for all the frames it names.
 */
export function viewKeyPath(nodes: readonly ViewNode[]): string[] {
  const path: string[] = [];
  for (const n of nodes) {
    if (n.ancestors) for (const a of n.ancestors) path.push(a.key);
    else if (n.key !== '') path.push(n.key);
  }
  return path;
}

/**
 * The view node drawn for a key path from the root (undefined where it is not drawn): the
 * ancestors row answers for the whole chain it folds, not for a part of it.
 */
export function findViewNode(root: ViewNode, keyPath: readonly string[]): ViewNode | undefined {
  let node = root;
  let i = 0;
  while (i < keyPath.length) {
    let next: ViewNode | undefined;
    for (const c of node.children ?? []) {
      const keys = c.ancestors ? c.ancestors.map((a) => a.key) : [c.key];
      if (keys.length <= keyPath.length - i && keys.every((k, j) => k === keyPath[i + j])) {
        next = c;
        i += keys.length;
        break;
      }
    }
    if (!next) return undefined;
    node = next;
  }
  return keyPath.length > 0 ? node : undefined;
}

export function buildViewTree(p: Profile, opts: ViewOptions): ViewTree {
  const totals = opts.totals ?? p.tree.total;
  const selfWeights = opts.self ?? p.tree.self;
  const maxNodes = opts.maxNodes ?? 20_000;
  const sortMode = opts.sort ?? 'name';
  const { nodes: focusNodes, depth, chain } = resolveFocus(p, opts.focus);
  const focusTotal = focusNodes.reduce((s, v) => s + totals[v]!, 0);
  const minValue = Math.max(opts.minValue ?? 0, focusTotal * (opts.minFraction ?? 0), Number.MIN_VALUE);

  const root = makeNode(p, [0], totals, selfWeights);
  root.name = opts.rootName ?? 'all';
  root.key = '';
  root.category = 10;
  let count = 1;
  // Context: the root and, in one row, the focused frame's ancestors, as wide as the focused frame.
  let parent = root;
  if (depth > 0) {
    root.context = true;
    root.value = focusTotal;
    if (depth > 1) {
      const above = chain.slice(0, -1).map((nodes) => makeNode(p, nodes, totals, selfWeights, opts.matches));
      const row: ViewNode = {
        name: above.map((a) => a.name).join(' › '),
        key: '',
        value: focusTotal,
        self: 0,
        category: root.category,
        tier: 0,
        file: '',
        line: 0,
        context: true,
        ancestors: above.map((a) => ({ name: a.name, key: a.key })),
      };
      if (above.some((a) => a.match)) row.match = true;
      root.children = [row];
      parent = row;
      count++;
    }
    const n = makeNode(p, chain[depth - 1]!, totals, selfWeights, opts.matches);
    n.value = focusTotal;
    n.focused = true;
    parent.children = [n];
    parent = n;
    count++;
  }
  // Expand the focused frame's subtree, breadth-first so that a node cap cuts the deepest part.
  const queue: [ViewNode, number[]][] = [[parent, focusNodes]];
  for (let q = 0; q < queue.length && count < maxNodes; q++) {
    const [vn, set] = queue[q]!;
    const groups = childGroups(p, set, totals, minValue);
    if (groups.length === 0) continue;
    const kids = groups.map((g) => makeNode(p, g, totals, selfWeights, opts.matches));
    const order = kids.map((_, i) => i);
    if (sortMode === 'name')
      order.sort((a, b) => (kids[a]!.name < kids[b]!.name ? -1 : kids[a]!.name > kids[b]!.name ? 1 : kids[a]!.key < kids[b]!.key ? -1 : 1));
    else order.sort((a, b) => kids[b]!.value - kids[a]!.value);
    vn.children = order.map((i) => kids[i]!);
    for (const i of order) {
      queue.push([kids[i]!, groups[i]!]);
      count++;
    }
  }
  return { root, focusDepth: depth, focusTotal, nodeCount: count };
}

/**
 * Per-node totals when the search filter is "only stacks with matches" (a node keeps the weight
 * of samples whose stack has a matching frame) or "hide matches" (matching frames and everything
 * they called are removed).
 */
export function filteredTotals(p: Profile, matches: Uint8Array, mode: 'only' | 'hide', weights: Float64Array = p.tree.self): Float64Array {
  const t = p.tree;
  const under = new Uint8Array(t.length);
  for (let i = 1; i < t.length; i++) under[i] = matches[t.frame[i]!]! | under[t.parent[i]!]!;
  const self = new Float64Array(t.length);
  for (let i = 0; i < t.length; i++) {
    const keep = mode === 'only' ? under[i] === 1 : under[i] === 0;
    self[i] = keep ? weights[i]! : 0;
  }
  const total = self.slice();
  for (let i = t.length - 1; i >= 1; i--) total[t.parent[i]!]! += total[i]!;
  return total;
}
