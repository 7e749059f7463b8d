/**
 * A `.cpuprofile` read straight from its JSON, without Flamelens' importer, for tests that check
 * a figure the app shows against the file: each sample's stack from the root to the leaf. Node-only.
 */
import { readFileSync } from 'node:fs';

export interface RawFrame {
  name: string;
  url: string;
}

/** Each sample's stack (root first), in sample order; V8's `(root)` node left out. */
export function rawStacks(path: string): RawFrame[][] {
  const prof = JSON.parse(readFileSync(path, 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
    samples: number[];
  };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  return prof.samples.map((id) => {
    const stack: RawFrame[] = [];
    for (let v: number | undefined = id; v !== undefined; v = parent.get(v)) {
      const f = byId.get(v)!.callFrame;
      if (f.functionName !== '(root)') stack.push({ name: f.functionName, url: f.url });
    }
    return stack.reverse();
  });
}
