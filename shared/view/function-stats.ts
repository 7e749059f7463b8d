/**
 * Per-function figures (functions identified by normalized frame key, so they line up across
 * runs): self weight, and total weight counting each sample once even when the function recurses.
 */
import { subtreeTotals } from '../model/tree-totals';
import type { Profile } from '../model/types';

export interface KeyIndex {
  /** key id per frame */
  ofFrame: Int32Array;
  /** the distinct keys, by id */
  keys: string[];
}

export function keyIndex(p: Profile): KeyIndex {
  const ids = new Map<string, number>();
  const keys: string[] = [];
  const ofFrame = new Int32Array(p.frames.length);
  for (let i = 0; i < p.frames.length; i++) {
    const k = p.frames.key[i]!;
    let id = ids.get(k);
    if (id === undefined) {
      id = keys.length;
      ids.set(k, id);
      keys.push(k);
    }
    ofFrame[i] = id;
  }
  return { ofFrame, keys };
}

export interface FunctionStats {
  keys: KeyIndex;
  self: Float64Array;
  total: Float64Array;
  /** sum of all weights in the profile */
  grandTotal: number;
  /** key → key id */
  byKey: Map<string, number>;
}

export function functionStats(p: Profile, self: Float64Array = p.tree.self, totals: Float64Array = p.tree.total): FunctionStats {
  const ki = keyIndex(p);
  const t = p.tree;
  const n = ki.keys.length;
  const selfByKey = new Float64Array(n);
  const totalByKey = new Float64Array(n);
  const active = new Int32Array(n);
  // Open nodes along the current root→node path, with their key ids.
  const openNode = new Int32Array(Math.max(1, t.length));
  let sp = 0;
  for (let i = 1; i < t.length; i++) {
    while (sp > 0 && t.end[openNode[sp - 1]!]! <= i) {
      sp--;
      active[ki.ofFrame[t.frame[openNode[sp]!]!]!]!--;
    }
    const k = ki.ofFrame[t.frame[i]!]!;
    selfByKey[k]! += self[i]!;
    if (active[k] === 0) totalByKey[k]! += totals[i]!;
    active[k]!++;
    openNode[sp++] = i;
  }
  const byKey = new Map<string, number>();
  ki.keys.forEach((k, i) => byKey.set(k, i));
  return { keys: ki, self: selfByKey, total: totalByKey, grandTotal: totals[0]!, byKey };
}

/** A function of a run with its share (0 to 1) of the run's weight: where it runs itself, and in all. */
export interface FunctionShare {
  key: string;
  name: string;
  file: string;
  self: number;
  total: number;
}

/**
 * Every function of `p` that has weight in `weights` (per-node self weights: a run's busy CPU, so
 * that idle is not a function), as shares of their sum; with `frames` (a search's matches, per
 * frame), only the functions with a frame marked there.
 */
export function functionShares(p: Profile, weights: Float64Array, frames?: Uint8Array): FunctionShare[] {
  const st = functionStats(p, weights, subtreeTotals(p.tree.parent, weights));
  const n = st.keys.keys.length;
  const first = new Int32Array(n).fill(-1);
  const marked = new Uint8Array(n);
  for (let f = 0; f < p.frames.length; f++) {
    const k = st.keys.ofFrame[f]!;
    if (first[k] === -1) first[k] = f;
    if (frames?.[f]) marked[k] = 1;
  }
  const sum = st.grandTotal;
  const out: FunctionShare[] = [];
  if (!(sum > 0)) return out;
  for (let k = 0; k < n; k++) {
    if (!(st.total[k]! > 0) || (frames && !marked[k])) continue;
    const f = first[k]!;
    out.push({
      key: st.keys.keys[k]!,
      name: p.frames.name[f]!,
      file: p.frames.file[f]!,
      self: st.self[k]! / sum,
      total: st.total[k]! / sum,
    });
  }
  return out;
}
