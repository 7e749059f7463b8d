import { describe, expect, it } from 'vitest';
import { type FocusCache, focusKey, recall } from './focus-cache';

describe('recall', () => {
  it('gives back what was made for a focused path met lately, without making it again', () => {
    const cache: FocusCache<{ path: string }> = new Map();
    let made = 0;
    const make = (path: string) => () => ({ path, n: ++made });
    const root = recall(cache, focusKey([]), make('root'));
    const zoomed = recall(cache, focusKey(['a', 'b']), make('a›b'));
    expect(zoomed).not.toBe(root);
    // Esc: the root's tree, the same object
    expect(recall(cache, focusKey([]), make('root'))).toBe(root);
    expect(recall(cache, focusKey(['a', 'b']), make('a›b'))).toBe(zoomed);
    expect(made).toBe(2);
  });

  it('keeps the last four paths used, forgetting the one used longest ago', () => {
    const cache: FocusCache<string> = new Map();
    for (const p of [['a'], ['b'], ['c'], ['d']]) recall(cache, focusKey(p), () => p.join());
    recall(cache, focusKey(['a']), () => 'again'); // used again: now the most recent
    recall(cache, focusKey(['e']), () => 'e');
    expect([...cache.keys()]).toEqual(['c', 'd', 'a', 'e'].map((k) => focusKey([k])));
    expect(recall(cache, focusKey(['b']), () => 'made again')).toBe('made again');
  });

  it('tells paths apart by every frame key', () => {
    expect(focusKey(['a\tf.js', 'b'])).not.toBe(focusKey(['a', '\tf.js\u0001b']));
    expect(focusKey(['ab'])).not.toBe(focusKey(['a', 'b']));
  });

  it('keeps an undefined result (a pane not laid out yet) as made', () => {
    const cache: FocusCache<undefined | number> = new Map();
    let made = 0;
    recall(cache, '', () => (made++, undefined));
    expect(recall(cache, '', () => (made++, 1))).toBeUndefined();
    expect(made).toBe(1);
  });
});
