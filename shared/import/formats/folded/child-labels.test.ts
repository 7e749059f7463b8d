import { describe, expect, it } from 'vitest';
import { ChildLabels } from './child-labels';

describe('ChildLabels', () => {
  // root 0 → main 1 → (parse 2, write 3, "" 4)
  const made = () => {
    const k = new ChildLabels();
    k.add(0, 1, 'main');
    k.add(1, 2, 'parse');
    k.add(1, 3, 'write');
    k.add(1, 4, '');
    return k;
  };

  it('finds a child by its label where it is written, and where it ends', () => {
    const k = made();
    const text = 'xx main;write;parse';
    expect(k.find(0, text, 3, text.length, 0x3b)).toBe(1);
    expect(k.end).toBe(7);
    expect(k.find(1, text, 8, text.length, 0x3b)).toBe(3);
    expect(k.end).toBe(13);
    expect(k.find(1, text, 14, text.length, 0x3b)).toBe(2);
    expect(k.end).toBe(text.length);
  });

  it('wants the label whole: not a prefix of a longer frame, nor past the limit', () => {
    const k = made();
    expect(k.find(0, 'mainx;a', 0, 7, 0x3b)).toBe(-1);
    expect(k.find(0, 'mai', 0, 3, 0x3b)).toBe(-1);
    expect(k.find(0, 'main;', 0, 3, 0x3b)).toBe(-1);
    expect(k.find(1, 'writ', 0, 4, 0x3b)).toBe(-1);
    // an empty label is an empty frame
    expect(k.find(1, ';x', 0, 2, 0x3b)).toBe(4);
    expect(k.end).toBe(0);
  });

  it('looks on from the child after the one used last, wrapping around, and gives up after a few', () => {
    const k = new ChildLabels();
    for (let i = 1; i <= 20; i++) k.add(0, i, `f${i}`);
    // f20 was made last: the search starts after it, that is from f1 again
    expect(k.find(0, 'f8', 0, 2, 0x3b)).toBe(8);
    expect(k.find(0, 'f9', 0, 2, 0x3b)).toBe(9);
    // f10…f17 are the 8 looked at now
    expect(k.find(0, 'f17', 0, 3, 0x3b)).toBe(17);
    // f18, f19, f20, then f1…f5
    expect(k.find(0, 'f12', 0, 3, 0x3b)).toBe(-1);
    // nothing found moves nothing: after f17 still come f18, f19, f20, f1…
    expect(k.find(0, 'f3', 0, 2, 0x3b)).toBe(3);
    expect(k.end).toBe(2);
    expect(k.find(0, 'f99', 0, 3, 0x3b)).toBe(-1);
    expect(k.end).toBe(-1);
  });

  it('looks at each of a few children once', () => {
    const k = new ChildLabels();
    k.add(0, 1, 'a');
    k.add(0, 2, 'b');
    expect(k.find(0, 'c', 0, 1, 0x3b)).toBe(-1);
    expect(k.find(0, 'a', 0, 1, 0x3b)).toBe(1);
    expect(k.find(0, 'b', 0, 1, 0x3b)).toBe(2);
    expect(k.find(0, 'a', 0, 1, 0x3b)).toBe(1);
  });

  it('refuses nodes recorded out of order', () => {
    const k = new ChildLabels();
    expect(() => k.add(0, 2, 'a')).toThrow(RangeError);
  });
});
