import { describe, expect, it } from 'vitest';
import { compileQuery, matchFrames, matchShare } from '../search/matcher';
import { folded } from '../../test/support/folded';
import type { ViewNode } from './view-tree';
import { buildViewTree, filteredTotals, findViewNode, viewKeyPath } from './view-tree';
import { functionStats } from './function-stats';
import { loadRegexEngine } from '../search/matcher';

// (`/…/` queries run once their engine has loaded: matcher-loading.test.ts tests before)
await loadRegexEngine();

/** "name value" lines of a view tree, indented by depth. */
function dump(n: ViewNode, depth = 0, out: string[] = []): string[] {
  out.push(
    `${'  '.repeat(depth)}${n.name} ${n.value}${n.context ? ' (context)' : ''}${n.focused ? ' (focused)' : ''}${n.match ? ' *' : ''}`,
  );
  for (const c of n.children ?? []) dump(c, depth + 1, out);
  return out;
}

describe('buildViewTree', () => {
  it('shows the whole profile, children by name', async () => {
    const p = await folded('main;z 1\nmain;a;b 3\nmain;a 2\nother 4');
    expect(dump(buildViewTree(p, { focus: [] }).root)).toEqual(['all 10', '  main 6', '    a 5', '      b 3', '    z 1', '  other 4']);
  });

  it('orders heaviest first on request', async () => {
    const p = await folded('main;z 1\nmain;a 5');
    expect(dump(buildViewTree(p, { focus: [], sort: 'weight' }).root)).toEqual(['all 6', '  main 6', '    a 5', '    z 1']);
  });

  it('focuses a path: ancestors as full-width context, subtree below', async () => {
    const p = await folded('main;a;b 3\nmain;a;c 1\nmain;x 6');
    const v = buildViewTree(p, { focus: ['main', 'a'] });
    expect(v.focusDepth).toBe(2);
    expect(v.focusTotal).toBe(4);
    expect(dump(v.root)).toEqual(['all 4 (context)', '  main 4 (context)', '    a 4 (focused)', '      b 3', '      c 1']);
    expect(v.root.children![0]!.ancestors).toEqual([{ name: 'main', key: 'main' }]);
    // A frame just below the root has no ancestors row.
    expect(dump(buildViewTree(p, { focus: ['main'] }).root)).toEqual([
      'all 10 (context)',
      '  main 10 (focused)',
      '    a 4',
      '      b 3',
      '      c 1',
      '    x 6',
    ]);
  });

  it('folds the ancestors of a deep focus into one row, whatever the depth', async () => {
    const names = Array.from({ length: 16 }, (_, i) => `f${i}`);
    const p = await folded(`${names.join(';')};leaf 5\n${names.join(';')} 2\n${names.slice(0, 3).join(';')};other 7`);
    const v = buildViewTree(p, { focus: names });
    expect(v.focusDepth).toBe(16);
    expect(dump(v.root)).toEqual([
      'all 7 (context)',
      `  ${names.slice(0, 15).join(' › ')} 7 (context)`,
      '    f15 7 (focused)',
      '      leaf 5',
    ]);
    const row = v.root.children![0]!;
    expect(row.key).toBe('');
    expect(row.ancestors!.map((a) => a.key)).toEqual(names.slice(0, 15));
    // Key paths through the row are the frames' own: what notes, hover and the diff go by.
    const focused = row.children![0]!;
    const leaf = focused.children![0]!;
    expect(viewKeyPath([v.root, row])).toEqual(names.slice(0, 15));
    expect(viewKeyPath([v.root, row, focused, leaf])).toEqual([...names, 'leaf']);
    expect(findViewNode(v.root, [...names, 'leaf'])).toBe(leaf);
    expect(findViewNode(v.root, names)).toBe(focused);
    expect(findViewNode(v.root, names.slice(0, 15))).toBe(row);
    expect(findViewNode(v.root, names.slice(0, 3))).toBeUndefined(); // folded into the row, not drawn alone
    expect(findViewNode(v.root, [])).toBeUndefined();
    // A run with only part of the path: its deepest matching frame is focused, ancestors folded alike.
    const q = await folded(`${names.slice(0, 5).join(';')};elsewhere 4`);
    expect(dump(buildViewTree(q, { focus: names }).root)).toEqual([
      'all 4 (context)',
      `  ${names.slice(0, 4).join(' › ')} 4 (context)`,
      '    f4 4 (focused)',
      '      elsewhere 4',
    ]);
  });

  it('marks the ancestors row as matching when a folded frame matches the search', async () => {
    const p = await folded('main;hook;a;b 3\nmain;x 1');
    const q = compileQuery('hook')!;
    const v = buildViewTree(p, { focus: ['main', 'hook', 'a'], matches: matchFrames(p, q.match) });
    expect(dump(v.root)).toEqual(['all 3 (context)', '  main › hook 3 (context) *', '    a 3 (focused)', '      b 3']);
  });

  it('focuses the deepest matching ancestor when a run lacks the path', async () => {
    const p = await folded('main;a;b 3\nmain;x 6');
    const v = buildViewTree(p, { focus: ['main', 'a', 'nope'] });
    expect(v.focusDepth).toBe(2);
  });

  it('merges siblings with the same key (tiers) and drops boxes below minValue', async () => {
    const p = await folded('main;*h;b 3\nmain;~h;b 1\nmain;tiny 1');
    expect(dump(buildViewTree(p, { focus: [], minValue: 2 }).root)).toEqual(['all 5', '  main 5', '    *h 4', '      b 4']);
  });

  it('keeps deep stacks iterative', async () => {
    const deep = Array.from({ length: 30_000 }, (_, i) => `f${i}`).join(';');
    const p = await folded(`${deep} 1`);
    expect(buildViewTree(p, { focus: [], maxNodes: 100_000 }).nodeCount).toBe(30_001);
  });
});

describe('search', () => {
  it('matches names and file paths, plain or /regex/', async () => {
    const q = compileQuery('dd-trace')!;
    expect(q.match('wrap', '/srv/app/node_modules/dd-trace/src/x.js')).toBe(true);
    expect(q.match('wrap', '/srv/app/server.js')).toBe(false);
    expect(compileQuery('/^wr.p$/')!.match('wrap', '')).toBe(true);
    expect(compileQuery('/(/')!.error).toMatch(/invalid regular expression/);
    expect(compileQuery('  ')).toBeUndefined();
  });

  it('computes inclusive and self shares of matching frames', async () => {
    const p = await folded('main;agent;work 3\nmain;agent 1\nmain;work 4\nidle 2');
    const m = matchFrames(p, compileQuery('agent')!.match);
    const s = matchShare(p, m);
    expect(s.inclusive).toBeCloseTo(0.4);
    expect(s.self).toBeCloseTo(0.1);
  });

  it('filters to stacks with matches, or hides them', async () => {
    const p = await folded('main;agent;work 3\nmain;work 4');
    const m = matchFrames(p, compileQuery('agent')!.match);
    expect(filteredTotals(p, m, 'only')[0]).toBe(3);
    expect(filteredTotals(p, m, 'hide')[0]).toBe(4);
  });
});

describe('functionStats', () => {
  it('counts recursive functions once in their total', async () => {
    const p = await folded('a;b;a;b 2\na 1');
    const s = functionStats(p);
    const a = s.byKey.get('a')!;
    const b = s.byKey.get('b')!;
    expect([s.total[a], s.self[a], s.total[b], s.self[b]]).toEqual([3, 1, 2, 2]);
  });
});

describe('heaviestPath', () => {
  it('finds the widest call path of a function', async () => {
    const { heaviestPath } = await import('./function-path');
    const p = await folded('main;a;f 1\nmain;b;f 5\nmain;b 1');
    expect(heaviestPath(p, 'f')).toEqual(['main', 'b', 'f']);
    expect(heaviestPath(p, 'nope')).toBeUndefined();
  });
});
