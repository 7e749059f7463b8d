import { beforeAll, describe, expect, it } from 'vitest';
import { diffProfiles } from '../../../shared/diff/diff';
import { compareRepeats } from '../../../shared/diff/repeats';
import { meanProfile } from '../../../shared/model/mean';
import { rankFunctions } from '../../../shared/diff/diff-query';
import type { Profile } from '../../../shared/model/types';
import { folded } from '../../../test/support/folded';
import { csvField, mdText } from '../../../shared/report/fields';
import { diffTableCsv, diffTableMarkdown, foldedText } from './data-export';
import { exportFileName } from '../host/file-name';
import { fitScale } from './rasterize';
import { loadTDistribution } from '../../../shared/diff/t-distribution';

const t = await loadTDistribution();

let base: Profile;
let run: Profile;

beforeAll(async () => {
  base = await folded('main;handler;route 60\nmain;handler;json 20\nmain;gc 20', 'base.folded');
  run = await folded('main;handler;route 60\nmain;handler;=cmd|x 40\nmain;handler;json 20\nmain;gc 20', 'run.folded');
});

/** A minimal RFC 4180 reader, to check that what we write reads back. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      row.push(cell);
      cell = '';
    } else if (!quoted && c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else {
      cell += c;
    }
  }
  return rows;
}

describe('data export', () => {
  it('writes folded stacks of a run and of given weights', () => {
    expect(foldedText(base)).toBe('main;gc 20\nmain;handler;json 20\nmain;handler;route 60\n');
    const only = new Float64Array(base.tree.length);
    only[base.tree.length - 1] = 7; // the last node in pre-order: gc
    expect(foldedText(base, only)).toBe('main;gc 7\n');
    expect(foldedText(base, new Float64Array(base.tree.length))).toBe('');
  });

  it('writes the diff table as CSV with units in the header', () => {
    const d = diffProfiles(base, run, { normalize: 'relative' });
    const rows = readCsv(diffTableCsv(d, rankFunctions(d)));
    expect(rows[0]).toEqual([
      'rank',
      'status',
      'function',
      'file',
      'line',
      'package',
      'category',
      'baseline_self_samples',
      'baseline_total_samples',
      'run_self_samples',
      'run_total_samples',
      'baseline_total_pct',
      'run_total_pct',
      'delta_self_pp',
      'delta_total_pp',
    ]);
    const added = rows.find((r) => r[1] === 'new')!;
    expect(added[2]).toBe("'=cmd|x"); // a formula-looking name is defused
    expect(Number(added[10])).toBe(40);
    expect(Number(added[12])).toBeCloseTo(28.57, 2); // 40 of 140
    const abs = readCsv(
      diffTableCsv(diffProfiles(base, run, { normalize: 'absolute' }), rankFunctions(diffProfiles(base, run, { normalize: 'absolute' }))),
    );
    expect(abs[0]!.slice(-2)).toEqual(['delta_self_samples', 'delta_total_samples']);
    expect(abs.find((r) => r[1] === 'new')!.at(-1)).toBe('40');
  });

  it('writes the diff table as Markdown', () => {
    const d = diffProfiles(base, run, { normalize: 'relative' });
    const md = diffTableMarkdown(d, rankFunctions(d), { baseline: 'base', run: 'with *agent*' });
    expect(md).toContain('## with \\*agent\\* against base');
    expect(md).toContain('**+40%** total');
    expect(md).toMatch(/\| 1 \| =cmd\\\|x \| {2}\| new \| 0\.0% \| 28\.6% \| \+28\.57 pp \| \+28\.57 pp \|/);
    for (const line of md
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('|')))
      expect(line.split(/(?<!\\)\|/).length).toBe(10);
    expect(diffTableMarkdown(d, [], { baseline: 'a', run: 'b' })).toContain('No function changed');
  });

  it('adds the interval, the verdict and the detectable change across repeats', async () => {
    const reps = (texts: string[]) => Promise.all(texts.map((t) => folded(t)));
    const bs = await reps(['main;work 100\nmain;io 50', 'main;work 104\nmain;io 47', 'main;work 97\nmain;io 52']);
    const rs = await reps([
      'main;work 140\nmain;io 49\nmain;agent 30',
      'main;work 146\nmain;io 51\nmain;agent 33',
      'main;work 137\nmain;io 48\nmain;agent 29',
    ]);
    const stats = compareRepeats(t, bs, rs, { measure: 'self' });
    const repeats = { stats, byKey: new Map(stats.functions.map((f) => [f.key, f])), measure: 'self' as const };
    const d = diffProfiles(meanProfile('b', bs), meanProfile('r', rs));
    const csv = readCsv(diffTableCsv(d, rankFunctions(d), repeats));
    expect(csv[0]!.slice(-4)).toEqual(['delta_self_low_samples', 'delta_self_high_samples', 'beyond_noise', 'detectable_samples']);
    const work = csv.find((r) => r[2] === 'work')!;
    const want = stats.functions.find((f) => f.key.startsWith('work'))!;
    expect(Number(work.at(-4))).toBeCloseTo(want.interval!.low, 6);
    expect(Number(work.at(-3))).toBeCloseTo(want.interval!.high, 6);
    expect(work.at(-2)).toBe(want.significant ? 'yes' : 'no');
    expect(Number(work.at(-1))).toBeCloseTo(want.detectable!, 6);
    expect(csv.find((r) => r[2] === 'agent')!.at(-2)).toBe('yes');
    const md = diffTableMarkdown(d, rankFunctions(d), { baseline: 'b', run: 'r' }, repeats);
    expect(md).toContain('3 runs each: Δ self with its 95% interval across the repeats');
    expect(md).toMatch(/\| Δ self, 95% interval \| beyond noise \| detects \|/);
    expect(md).toMatch(/\*\*\+\d+% ± \d+%\*\* total/);
    for (const line of md.split('\n').filter((l) => l.startsWith('|'))) expect(line.split(/(?<!\\)\|/).length).toBe(13);
  });

  it('escapes cells and file names', () => {
    expect(csvField('a,"b"\nc')).toBe('"a,""b""\nc"');
    expect(csvField(-1.5)).toBe('-1.5');
    expect(csvField(0.1 + 0.2)).toBe('0.3');
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(mdText('a|b_c\nd')).toBe('a\\|b\\_c d');
    expect(exportFileName('run: a/b?', 'csv')).toBe('run_ a_b_.csv');
    expect(exportFileName('...', 'png')).toBe('flamelens.png');
  });

  it('lowers the PNG scale to what a canvas can hold', () => {
    expect(fitScale(1400, 3000, 3)).toBe(3);
    expect(fitScale(1400, 20_000, 3)).toBe(1);
    expect(fitScale(1400, 40_000, 1)).toBeCloseTo(32_767 / 40_000, 5);
    expect(fitScale(1400, 1_000_000, 1)).toBe(0);
  });
});
