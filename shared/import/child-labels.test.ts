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

  it('tries the most recently used child first and gives up after a few', () => {
    const k = new ChildLabels();
    for (let i = 1; i <= 20; i++) k.add(0, i, `f${i}`);
    // the 8 made last are looked at, the older ones are left to the caller's hashing
    expect(k.find(0, 'f20', 0, 3, 0x3b)).toBe(20);
    expect(k.find(0, 'f13', 0, 3, 0x3b)).toBe(13);
    expect(k.find(0, 'f12', 0, 3, 0x3b)).toBe(-1);
    // f13 moved to the front: f20…f14 and f13 still fit, f12 does not
    expect(k.find(0, 'f14', 0, 3, 0x3b)).toBe(14);
  });

  it('refuses nodes recorded out of order', () => {
    const k = new ChildLabels();
    expect(() => k.add(0, 2, 'a')).toThrow(RangeError);
  });
});
