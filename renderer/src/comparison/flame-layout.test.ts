import { describe, expect, it } from 'vitest';
import type { ViewNode } from '../../../shared/view/view-tree';
import { layoutFlame } from './flame-layout';

function node(name: string, value: number, children?: ViewNode[]): ViewNode {
  const n: ViewNode = { name, key: name, value, self: 0, category: 0, tier: 0, file: '', line: 0 };
  if (children) n.children = children;
  return n;
}

describe('layoutFlame', () => {
  it('makes each box as wide as its share of the root, children side by side from the left of their parent', () => {
    const tree = node('root', 10, [node('a', 6, [node('a1', 2), node('a2', 3)]), node('b', 4, [node('b1', 4)])]);
    const { nodes, maxDepth } = layoutFlame(tree);
    const at = (name: string) => nodes.find((n) => n.data.name === name)!;
    const place = (name: string) => [at(name).depth, Number(at(name).x0.toFixed(9)), Number(at(name).x1.toFixed(9))];
    expect(maxDepth).toBe(2);
    expect(place('root')).toEqual([0, 0, 1]);
    expect(place('a')).toEqual([1, 0, 0.6]);
    expect(place('b')).toEqual([1, 0.6, 1]);
    expect(place('a1')).toEqual([2, 0, 0.2]);
    expect(place('a2')).toEqual([2, 0.2, 0.5]);
    expect(place('b1')).toEqual([2, 0.6, 1]);
    expect(at('a2').value).toBe(3);
    expect(at('root').parent).toBeNull();
    expect(at('b1').parent).toBe(at('b'));
  });

  it('lists the boxes row by row, the root first', () => {
    const tree = node('root', 3, [node('a', 2, [node('a1', 1)]), node('b', 1, [node('b1', 1)])]);
    expect(layoutFlame(tree).nodes.map((n) => n.data.name)).toEqual(['root', 'a', 'b', 'a1', 'b1']);
  });

  it('draws an empty run as its root box alone', () => {
    const { nodes, maxDepth } = layoutFlame(node('root', 0, []));
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({ x0: 0, x1: 1 });
    expect(maxDepth).toBe(0);
  });
});
