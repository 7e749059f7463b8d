import { describe, expect, it } from 'vitest';
import { checkProfile } from '../model/integrity';
import { folded } from '../../test/support/folded';
import { buildViewTree, type ViewNode } from '../view/view-tree';
import { Status, diffProfiles } from './diff';
import { indexDiff } from './diff-query';
import { annotateView } from './annotate-view';
import { mergedProfile } from './merged-profile';

function find(n: ViewNode, name: string): ViewNode | undefined {
  if (n.name === name) return n;
  for (const c of n.children ?? []) {
    const f = find(c, name);
    if (f) return f;
  }
  return undefined;
}

describe('diff on view trees', () => {
  it('marks wider, narrower and new boxes of a run', async () => {
    const base = await folded('main;a 5\nmain;b 5');
    const run = await folded('main;a 8\nmain;b 2\nmain;agent 10');
    const d = diffProfiles(base, run, { normalize: 'absolute' });
    const view = buildViewTree(run, { focus: [] });
    annotateView(view.root, d, indexDiff(d), 'total');
    expect(find(view.root, 'a')!.delta).toBe(3);
    expect(find(view.root, 'b')!.delta).toBe(-3);
    expect(find(view.root, 'agent')!.status).toBe(Status.New);
    expect(find(view.root, 'main')!.delta).toBe(10);
  });

  it('finds the figures of a deep focus through its folded ancestors row', async () => {
    const base = await folded('main;serve;route;a 5\nmain;serve;route;b 5');
    const run = await folded('main;serve;route;a 8\nmain;serve;route;b 2\nmain;serve;route;agent 10');
    const d = diffProfiles(base, run, { normalize: 'absolute' });
    const view = buildViewTree(run, { focus: ['main', 'serve', 'route'] });
    expect(view.root.children![0]!.ancestors).toHaveLength(2);
    annotateView(view.root, d, indexDiff(d), 'total');
    expect(find(view.root, 'route')!.delta).toBe(10);
    expect(find(view.root, 'a')!.delta).toBe(3);
    expect(find(view.root, 'b')!.delta).toBe(-3);
    expect(find(view.root, 'agent')!.status).toBe(Status.New);
  });

  it('shows what disappeared on the baseline tree', async () => {
    const base = await folded('main;a 5\nmain;gone 5');
    const run = await folded('main;a 5');
    const d = diffProfiles(base, run, { normalize: 'absolute' });
    const view = buildViewTree(base, { focus: [] });
    annotateView(view.root, d, indexDiff(d), 'total');
    expect(find(view.root, 'gone')!.status).toBe(Status.Removed);
    expect(find(view.root, 'a')!.status).toBe(Status.Unchanged);
  });

  it('merges both trees, each box as wide as the wider side', async () => {
    const base = await folded('main;a 5\nmain;gone 4');
    const run = await folded('main;a 2\nmain;new 6');
    const d = diffProfiles(base, run, { normalize: 'absolute' });
    const m = mergedProfile(d, base, run);
    expect(checkProfile(m)).toEqual([]);
    const view = buildViewTree(m, { focus: [] });
    expect(['a', 'gone', 'new'].map((n) => find(view.root, n)!.value)).toEqual([5, 4, 6]);
  });
});
