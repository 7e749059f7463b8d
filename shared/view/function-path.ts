/**
 * The call path to show for a function: the path of its heaviest call-tree node, as frame keys
 * from the root. Used when a diff-table row focuses a function in every pane.
 */
import type { Profile } from '../model/types';

export function heaviestPath(p: Profile, key: string): string[] | undefined {
  const t = p.tree;
  const f = p.frames;
  let best = -1;
  for (let i = 1; i < t.length; i++) {
    if (f.key[t.frame[i]!] === key && (best < 0 || t.total[i]! > t.total[best]!)) best = i;
  }
  if (best < 0) return undefined;
  const path: string[] = [];
  for (let v = best; v > 0; v = t.parent[v]!) path.push(f.key[t.frame[v]!]!);
  return path.reverse();
}
