import { describe, expect, it } from 'vitest';
import { importProfile } from '../import/import-profile';
import { bytesSource } from '../import/io/source';
import { checkProfile } from '../model/integrity';
import type { Profile } from '../model/types';
import { type TinyEdge, type TinyNode, tinySnapshot } from '../../test/support/heapsnapshot';
import { heapFields } from './class-tree';

/** Imports a tiny snapshot, in pieces of `chunk` bytes (small: values cut anywhere). */
async function load(nodes: TinyNode[], edges: TinyEdge[], nodeFields?: string[], chunk = 7): Promise<Profile> {
  const p = await importProfile(bytesSource('tiny.heapsnapshot', new TextEncoder().encode(tinySnapshot(nodes, edges, nodeFields)), chunk));
  expect(checkProfile(p)).toEqual([]);
  return p;
}

/** Retained size by node name. */
function retained(p: Profile): Record<string, number> {
  const f = heapFields(p.heap!);
  const out: Record<string, number> = {};
  for (let i = 0; i < p.heap!.nodeCount; i++) out[f.name(i)] = p.heap!.retained[i]!;
  return out;
}

/** Dominator by node name. */
function dominators(p: Profile): Record<string, string> {
  const f = heapFields(p.heap!);
  const out: Record<string, string> = {};
  for (let i = 1; i < p.heap!.nodeCount; i++) out[f.name(i)] = f.name(p.heap!.dominator[i]!);
  return out;
}

const N = (name: string, size: number, type?: string): TinyNode => (type ? { name, size, type } : { name, size });

describe('dominators and retained sizes', () => {
  it('a chain: each object retains everything after it', async () => {
    const p = await load(
      [N('root', 0), N('A', 10), N('B', 20), N('C', 30)],
      [
        [0, 1],
        [1, 2],
        [2, 3],
      ],
    );
    expect(retained(p)).toEqual({ root: 60, A: 60, B: 50, C: 30 });
    expect(dominators(p)).toEqual({ A: 'root', B: 'A', C: 'B' });
  });

  it('a diamond: the join is retained by the fork, not by either side', async () => {
    // root → A; A → B, A → C; B → D, C → D
    const p = await load(
      [N('root', 0), N('A', 1), N('B', 2), N('C', 4), N('D', 8)],
      [
        [0, 1],
        [1, 2],
        [1, 3],
        [2, 4],
        [3, 4],
      ],
    );
    expect(retained(p)).toEqual({ root: 15, A: 15, B: 2, C: 4, D: 8 });
    expect(dominators(p).D).toBe('A');
  });

  it('a weak edge does not retain', async () => {
    // root → A → B, and root → C ⇢(weak) B: B is A's alone
    const nodes = [N('root', 0), N('A', 1), N('B', 2), N('C', 4)];
    const weak = await load(nodes, [
      [0, 1],
      [1, 2],
      [0, 3],
      [3, 2, 'weak'],
    ]);
    expect(retained(weak)).toEqual({ root: 7, A: 3, B: 2, C: 4 });
    // the same edge strong: B is kept alive by either, so only the root retains it
    const strong = await load(nodes, [
      [0, 1],
      [1, 2],
      [0, 3],
      [3, 2, 'property'],
    ]);
    expect(retained(strong)).toEqual({ root: 7, A: 1, B: 2, C: 4 });
  });

  it('an object reached only through weak edges hangs below the root, with what it holds', async () => {
    // root → A ⇢(weak) W → X
    const p = await load(
      [N('root', 0), N('A', 1), N('W', 16), N('X', 32)],
      [
        [0, 1],
        [1, 2, 'weak'],
        [2, 3],
      ],
    );
    expect(retained(p)).toEqual({ root: 49, A: 1, W: 48, X: 32 });
    expect(dominators(p)).toEqual({ A: 'root', W: 'root', X: 'W' });
  });

  it('a shortcut edge retains only from the root', async () => {
    // root → A → B → C, root → D, D ⇢(shortcut) C: C stays B's
    const p = await load(
      [N('root', 0), N('A', 1), N('B', 2), N('C', 4), N('D', 8)],
      [
        [0, 1],
        [1, 2],
        [2, 3],
        [0, 4],
        [4, 3, 'shortcut'],
      ],
    );
    expect(retained(p)).toEqual({ root: 15, A: 7, B: 6, C: 4, D: 8 });
    // from the root a shortcut retains: root ⇢ C makes C the root's
    const fromRoot = await load(
      [N('root', 0), N('A', 1), N('B', 2), N('C', 4)],
      [
        [0, 1],
        [1, 2],
        [2, 3],
        [0, 3, 'shortcut'],
      ],
    );
    expect(retained(fromRoot)).toEqual({ root: 7, A: 3, B: 2, C: 4 });
  });

  it('a cycle: the object the cycle is entered by retains it all', async () => {
    // root → A → B → C → A
    const p = await load(
      [N('root', 0), N('A', 1), N('B', 2), N('C', 4)],
      [
        [0, 1],
        [1, 2],
        [2, 3],
        [3, 1],
      ],
    );
    expect(retained(p)).toEqual({ root: 7, A: 7, B: 6, C: 4 });
  });

  it('a chain 300,000 long, without recursion', async () => {
    const n = 300_000;
    const nodes: TinyNode[] = [N('root', 0)];
    const edges: TinyEdge[] = [];
    for (let i = 1; i < n; i++) {
      nodes.push({ name: 'L', size: 1 });
      edges.push([i - 1, i]);
    }
    const p = await load(nodes, edges, undefined, 1 << 16);
    expect(p.heap!.retained[1]).toBe(n - 1);
    expect(p.heap!.retained[n - 1]).toBe(1);
    expect(p.tree.total[0]).toBe(n - 1);
  });

  it('reads the field layout from the meta', async () => {
    const fields = ['id', 'edge_count', 'self_size', 'name', 'type'];
    const p = await load(
      [N('root', 0), N('A', 10), N('B', 20)],
      [
        [0, 1],
        [1, 2],
      ],
      fields,
    );
    expect(retained(p)).toEqual({ root: 30, A: 30, B: 20 });
  });

  it('the tree is the dominator tree by class: totals are retained sizes', async () => {
    // root → A(Foo) → B(Bar), root → C(Foo) → D(Bar), root → "s" (string)
    const p = await load(
      [
        { name: 'root', size: 0, type: 'synthetic' },
        N('Foo', 1),
        N('Bar', 2),
        N('Foo', 4),
        N('Bar', 8),
        { name: 'text', size: 16, type: 'string' },
      ],
      [
        [0, 1],
        [1, 2],
        [0, 3],
        [3, 4],
        [0, 5],
      ],
    );
    const t = p.tree;
    const rows = [];
    for (let i = 1; i < t.length; i++) rows.push(`${t.depth[i]} ${p.frames.name[t.frame[i]!]} ${t.total[i]}`);
    expect(rows.sort()).toEqual(['1 (string) 16', '1 Foo 15', '2 Bar 10']);
    expect(t.total[0]).toBe(31);
  });
});

describe('integrity of the heap graph', () => {
  it('finds a retained size that is not the sum of what the node dominates, and a dominator out of range', async () => {
    const p = await load(
      [N('root', 0), N('A', 10), N('B', 20)],
      [
        [0, 1],
        [1, 2],
      ],
    );
    p.heap!.retained[1] = 25;
    expect(checkProfile(p)).toContain("heap node 1 retains 25, its own and its dominated nodes' sizes add up to 30");
    p.heap!.dominator[2] = 9;
    expect(checkProfile(p)).toContain('heap node 2 has dominator 9');
  });
});
