import { describe, expect, it } from 'vitest';
import { fitLabel } from './label-fit';

/** Every character 10 px wide, the ellipsis too. */
const mono = (s: string) => Array.from(s).length * 10;

describe('fitLabel', () => {
  it('keeps a name that fits', () => {
    expect(fitLabel('handler', 70, mono)).toBe('handler');
  });

  it('cuts the longest prefix that fits with an ellipsis', () => {
    expect(fitLabel('processTicksAndRejections', 60, mono)).toBe('proce…');
    expect(fitLabel('processTicksAndRejections', 69, mono)).toBe('proce…');
    expect(mono(fitLabel('processTicksAndRejections', 240, mono))).toBeLessThanOrEqual(240);
  });

  it('gives nothing where not even one character and the ellipsis fit', () => {
    expect(fitLabel('abc', 19, mono)).toBe('');
    expect(fitLabel('abc', 0, mono)).toBe('');
    expect(fitLabel('', 100, mono)).toBe('');
  });

  it('never splits a surrogate pair', () => {
    const cut = fitLabel('😀😀😀😀😀', 30, mono);
    expect(cut).toBe('😀😀…');
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(cut)).toBe(false);
  });
});
