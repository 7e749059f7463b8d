import { describe, expect, it } from 'vitest';
import { fitCrumbs, fitLabel } from './label-fit';

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

describe('fitCrumbs', () => {
  const chain = ['node', 'uv_run', 'uv__io_poll', 'handler'];
  it('shows the whole chain when it fits', () => {
    // 'node › uv_run › uv__io_poll › handler': 4 + 6 + 11 + 7 characters and three 3-character separators
    expect(fitCrumbs(chain, 370, mono)).toEqual({ elided: false, crumbs: chain.map((text, index) => ({ index, text })) });
  });

  it('keeps the innermost names and folds the outer ones into a leading ellipsis', () => {
    // '… › uv__io_poll › handler' is 4 + 11 + 3 + 7 = 25 characters
    expect(fitCrumbs(chain, 250, mono)).toEqual({
      elided: true,
      crumbs: [
        { index: 2, text: 'uv__io_poll' },
        { index: 3, text: 'handler' },
      ],
    });
    expect(fitCrumbs(chain, 249, mono)).toEqual({ elided: true, crumbs: [{ index: 3, text: 'handler' }] });
  });

  it('cuts the innermost name when even it does not fit, and gives nothing for no room', () => {
    expect(fitCrumbs(chain, 80, mono)).toEqual({ elided: true, crumbs: [{ index: 3, text: 'han…' }] });
    expect(fitCrumbs(['handler'], 50, mono)).toEqual({ elided: false, crumbs: [{ index: 0, text: 'hand…' }] });
    expect(fitCrumbs(chain, 30, mono)).toEqual({ elided: true, crumbs: [] });
    expect(fitCrumbs([], 100, mono)).toEqual({ elided: false, crumbs: [] });
  });
});
