/**
 * The sandwich of a function (as speedscope names it): everything that calls it, as a tree
 * inverted at the function (its callers, their callers…), and everything it calls, as one tree
 * merged from every place it runs. Functions are told apart by frame key, so the same function
 * lines up across runs, and `sandwichRows` lays several runs' sandwiches out as one table.
 *
 * Where the function recurses, only its outermost calls count: a sample is counted once in the
 * function's total, once among its callers and once among its callees (the recursive calls show
 * as the function itself among its callees).
 */
import type { Profile } from '../model/types';

/** A node of a caller or callee tree: a function, its weight through this path, its children by key. */
export class SandwichNode {
  weight = 0;
  readonly children = new Map<string, SandwichNode>();

  constructor(
    readonly key: string,
    /** the function's name and file as the first frame met with this key has them */
    readonly name: string,
    readonly file: string,
  ) {}

  /** The child of key `key`, made from frame `frame` of `p` when new. */
  child(p: Profile, frame: number): SandwichNode {
    const key = p.frames.key[frame]!;
    let c = this.children.get(key);
    if (c === undefined) this.children.set(key, (c = new SandwichNode(key, p.frames.name[frame]!, p.frames.file[frame]!)));
    return c;
  }
}

export interface Sandwich {
  key: string;
  name: string;
  file: string;
  /** weight of the samples in which the function is on the stack (each sample once) */
  total: number;
  /** weight of the samples in which it is the leaf */
  self: number;
  /** the function at the root, its callers below it (the caller closest to it first) */
  callers: SandwichNode;
  /** the function at the root, what it calls below it */
  callees: SandwichNode;
}

/** Per-node totals from per-node self weights (a pre-order tree: children follow their parent). */
function totalsOf(p: Profile, self: Float64Array): Float64Array {
  const t = p.tree;
  const total = new Float64Array(t.length);
  for (let i = t.length - 1; i >= 0; i--) {
    total[i]! += self[i]!;
    if (i > 0) total[t.parent[i]!]! += total[i]!;
  }
  return total;
}

/** The frames whose key is `key`, as a mask over the frame table. */
function framesOf(p: Profile, key: string): Uint8Array | undefined {
  const mask = new Uint8Array(p.frames.length);
  let any = false;
  for (let f = 0; f < p.frames.length; f++)
    if (p.frames.key[f] === key) {
      mask[f] = 1;
      any = true;
    }
  return any ? mask : undefined;
}

/**
 * The sandwich of the function with frame key `key` in `p`, weighed by `self` (per call-tree node:
 * the profile's own self weights by default; pass busy or time-range weights to match a pane).
 * Undefined when no frame of `p` has that key.
 */
export function sandwich(p: Profile, key: string, self: Float64Array = p.tree.self): Sandwich | undefined {
  const mask = framesOf(p, key);
  if (!mask) return undefined;
  const t = p.tree;
  const f = p.frames;
  const total = totalsOf(p, self);
  const first = mask.indexOf(1);
  const [name, file] = [f.name[first]!, f.file[first]!];
  const out: Sandwich = {
    key,
    name,
    file,
    total: 0,
    self: 0,
    callers: new SandwichNode(key, name, file),
    callees: new SandwichNode(key, name, file),
  };
  // Pre-order: the calls of the function not inside another call of it are those met while no
  // earlier one's subtree (up to `end`) is open.
  let insideUntil = 0;
  for (let i = 1; i < t.length; i++) {
    if (mask[t.frame[i]!] !== 1) continue;
    out.self += self[i]!;
    if (i < insideUntil) continue;
    insideUntil = t.end[i]!;
    const w = total[i]!;
    if (w === 0) continue;
    out.total += w;
    out.callers.weight += w;
    let at = out.callers;
    for (let v = t.parent[i]!; v > 0; v = t.parent[v]!) {
      at = at.child(p, t.frame[v]!);
      at.weight += w;
    }
    addSubtree(p, i, out.callees, total);
  }
  return out;
}

/** Merges the subtree below node `root` into `into` (which stands for `root`), by frame key. */
function addSubtree(p: Profile, root: number, into: SandwichNode, total: Float64Array): void {
  const t = p.tree;
  into.weight += total[root]!;
  // the merged node of each open ancestor, by depth below `root`
  const path: SandwichNode[] = [into];
  const base = t.depth[root]!;
  for (let i = root + 1; i < t.end[root]!; i++) {
    const w = total[i]!;
    if (w === 0) {
      i = t.end[i]! - 1; // nothing below it weighs anything either
      continue;
    }
    const d = t.depth[i]! - base;
    const node = path[d - 1]!.child(p, t.frame[i]!);
    node.weight += w;
    path[d] = node;
  }
}

/** One row of the table of several runs' sandwiches: a path of the merged tree and its weight in each run. */
export interface SandwichRow {
  /** frame keys from the function (excluded) to this row's function */
  path: string[];
  key: string;
  name: string;
  file: string;
  depth: number;
  /** its weight in each run (0 where the run lacks the path), in the order of the sandwiches */
  weights: number[];
  /** whether it has rows below it */
  hasChildren: boolean;
}

/**
 * The caller or callee trees of several runs' sandwiches as one table, children heaviest first
 * (by their largest weight in any run), down to rows of at least `minShare` of the function's
 * largest total in any run, and only below the paths `expanded` holds (keys joined by "\u0000";
 * undefined: everything).
 */
export function sandwichRows(
  trees: (SandwichNode | undefined)[],
  opts: { minShare?: number; expanded?: ReadonlySet<string>; maxRows?: number } = {},
): SandwichRow[] {
  const maxTotal = Math.max(0, ...trees.map((n) => n?.weight ?? 0));
  const floor = maxTotal * (opts.minShare ?? 0);
  const maxRows = opts.maxRows ?? 2000;
  const rows: SandwichRow[] = [];
  const visit = (nodes: (SandwichNode | undefined)[], path: string[]) => {
    const keys = new Map<string, (SandwichNode | undefined)[]>();
    nodes.forEach((n, r) => {
      if (!n) return;
      for (const [k, c] of n.children) {
        let list = keys.get(k);
        if (!list) keys.set(k, (list = nodes.map(() => undefined)));
        list[r] = c;
      }
    });
    const merged = [...keys].map(([k, list]) => ({ k, list, w: Math.max(...list.map((c) => c?.weight ?? 0)) }));
    merged.sort((a, b) => b.w - a.w || (a.k < b.k ? -1 : 1));
    for (const { k, list, w } of merged) {
      if (w < floor || w === 0 || rows.length >= maxRows) continue;
      const here = [...path, k];
      const { name, file } = list.find((c) => c)!;
      const hasChildren = list.some((c) => c && [...c.children.values()].some((x) => x.weight >= floor && x.weight > 0));
      rows.push({ path: here, key: k, name, file, depth: path.length, weights: list.map((c) => c?.weight ?? 0), hasChildren });
      if (!opts.expanded || opts.expanded.has(here.join('\u0000'))) visit(list, here);
    }
  };
  visit(trees, []);
  return rows;
}
