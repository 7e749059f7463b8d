import { describe, expect, it } from 'vitest';
import { random } from '../../test/support/repeats';
import { CallTreeBuilder, FrameTableBuilder, finishProfile } from './builders';
import { collapse, collapsedBytes } from './collapse';
import { Category, type Profile } from './types';

/**
 * Folded output the plain way: every weighted node's whole stack as text, merged by text, sorted
 * by UTF-8 bytes (`Buffer.compare`, as `LC_ALL=C sort` orders lines).
 */
function reference(p: Profile): string[] {
  const t = p.tree;
  const path: string[] = [''];
  const merged = new Map<string, number>();
  for (let i = 1; i < t.length; i++) {
    const label = p.frames.label[t.frame[i]!]!;
    path[i] = t.parent[i] === 0 ? label : `${path[t.parent[i]!]!};${label}`;
    if (t.self[i] !== 0 && path[i] !== '') merged.set(path[i]!, (merged.get(path[i]!) ?? 0) + t.self[i]!);
  }
  return [...merged.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))).map((k) => `${k} ${Math.round(merged.get(k)!)}`);
}

/** The folded-format profile of a tree. */
function profileOf(frames: FrameTableBuilder, tree: CallTreeBuilder): Profile {
  return finishProfile({
    name: 't',
    format: 'folded',
    kind: 'aggregated',
    unit: 'samples',
    frames,
    tree,
    meta: { producer: 'test', warnings: [] },
  });
}

/**
 * A random folded-format tree: labels that are prefixes of each other with characters on both
 * sides of `;` after them (`fn1`, `fn10`, `fn1.x`, `fn1~`), an empty label, non-ASCII ones; the
 * same label as two frames (two categories) under one parent; weights 0 on some nodes.
 */
function randomProfile(seed: number): Profile {
  const r = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r.uniform() * xs.length)]!;
  const LABELS = ['fn1', 'fn10', 'fn1.x', 'fn1~', 'fn1 a', 'fn', 'f', '', 'é', 'e\u0301', '😀', 'fn1!', 'Z', 'fn:1', 'a/b'];
  const frames = new FrameTableBuilder();
  const ids = LABELS.flatMap((label) => [
    frames.intern({ name: label || 'empty', label }),
    frames.intern({ name: label || 'empty', label, category: Category.Other }),
  ]);
  const tree = new CallTreeBuilder();
  for (let s = 0; s < 400; s++) {
    const depth = 1 + Math.floor(r.uniform() * 6);
    let node = tree.root;
    for (let d = 0; d < depth; d++) node = tree.child(node, pick(ids));
    tree.addSelf(node, r.uniform() < 0.15 ? 0 : 1 + Math.floor(r.uniform() * 9));
  }
  return profileOf(frames, tree);
}

describe('collapse', () => {
  it('writes what merging every stack by its text and sorting by bytes writes, labels that prefix each other included', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const p = randomProfile(seed);
      const got = collapse(p);
      expect(got.length).toBeGreaterThan(50);
      expect(got).toEqual(reference(p));
    }
  });

  it('puts a stack after the stacks that extend its last frame with a character before ";"', () => {
    const frames = new FrameTableBuilder();
    const [fn1, fn10, a] = ['fn1', 'fn10', 'a'].map((label) => frames.intern({ name: label, label }));
    const tree = new CallTreeBuilder();
    tree.addSelf(tree.child(tree.root, fn1!), 1);
    tree.addSelf(tree.child(tree.child(tree.root, fn1!), a!), 2);
    tree.addSelf(tree.child(tree.root, fn10!), 3);
    const p = profileOf(frames, tree);
    expect(collapse(p)).toEqual(['fn1 1', 'fn10 3', 'fn1;a 2']);
  });

  it('writes the same lines as UTF-8 pieces that end at a line end, each label passed through the given text', () => {
    const decoder = new TextDecoder();
    for (let seed = 1; seed <= 20; seed++) {
      const p = randomProfile(seed);
      const text = `${collapse(p).join('\n')}\n`;
      for (const size of [1, 64, 1000, 1 << 20]) {
        const pieces = [...collapsedBytes(p, p.tree.self, size)];
        // (no piece is split inside a line: each one decodes alone)
        expect(pieces.map((b) => decoder.decode(b)).join(''), `seed ${seed}, pieces of ${size}`).toBe(text);
        for (const b of pieces) expect(b[b.length - 1]).toBe(0x0a);
        if (size === 64)
          expect(Math.max(...pieces.map((b) => b.length))).toBeLessThanOrEqual(
            64 + Math.max(...text.split('\n').map((l) => Buffer.byteLength(l) + 1)),
          );
      }
      // the labels, upper-cased, merge none of them here: the same lines with their stacks upper-cased, sorted again
      const upper = [...collapsedBytes(p, p.tree.self, 4096, (label) => label.toUpperCase())].map((b) => decoder.decode(b)).join('');
      const expected = collapse(p)
        .map((line) => line.replace(/^(.*)( \d+)$/, (_, stack: string, weight: string) => stack.toUpperCase() + weight))
        .sort((x, y) => Buffer.compare(Buffer.from(x.replace(/ \d+$/, '')), Buffer.from(y.replace(/ \d+$/, ''))));
      expect(upper).toBe(`${expected.join('\n')}\n`);
    }
  });
});
