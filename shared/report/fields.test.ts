import { describe, expect, it } from 'vitest';
import { csvField, csvText, mdCode, mdText } from './fields';

/** Names a hostile or merely unlucky profile can hold. */
const HOSTILE = [
  '=HYPERLINK("http://x","y")',
  '+1+1',
  '-2+3',
  '@SUM(A1:A9)',
  '\tTAB',
  '\rCR',
  'a,"b"\nc',
  'x|y',
  'n`m',
  'a``b',
  '<img src=x>',
];

describe('CSV fields', () => {
  it('quotes, doubles quotes and keeps formulas from running', () => {
    expect(HOSTILE.map(csvField)).toEqual([
      `"'=HYPERLINK(""http://x"",""y"")"`,
      "'+1+1",
      "'-2+3",
      "'@SUM(A1:A9)",
      "'\tTAB",
      `"'\rCR"`,
      '"a,""b""\nc"',
      'x|y',
      'n`m',
      'a``b',
      '<img src=x>',
    ]);
    expect(csvField('fs.sync.open')).toBe('fs.sync.open');
  });

  it('writes numbers plainly, and nothing for what is not a number', () => {
    expect([csvField(-1.5), csvField(0.1 + 0.2), csvField(12), csvField(NaN), csvField(Infinity)]).toEqual(['-1.5', '0.3', '12', '', '']);
    expect(
      csvText([
        ['name', 'count'],
        ['=cmd', 3],
      ]),
    ).toBe("name,count\r\n'=cmd,3\r\n");
  });
});

describe('Markdown cells', () => {
  it('escapes text and flattens line breaks', () => {
    expect(mdText('a|b_c\nd')).toBe('a\\|b\\_c d');
    expect(mdText('<img src=x> *x* #1 [l](u) `c`')).toBe('\\<img src=x\\> \\*x\\* \\#1 \\[l\\](u) \\`c\\`');
  });

  it('fences code so that no name can close it or split the row', () => {
    expect(mdCode('handler')).toBe('`handler`');
    expect(mdCode('c|d')).toBe('`c\\|d`');
    expect(mdCode('n`m')).toBe('`` n`m ``');
    expect(mdCode('a``b`')).toBe('``` a``b` ```');
    expect(mdCode('two\nlines')).toBe('`two lines`');
    expect(mdCode('')).toBe('');
  });
});
