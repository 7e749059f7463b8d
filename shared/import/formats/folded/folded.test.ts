import { describe, expect, it } from 'vitest';
import { collapse } from '../../../model/collapse';
import { checkProfile } from '../../../model/integrity';
import { fileSource, fixturePath, readText } from '../../../../test/support/files';
import { bytesSource } from '../../io/source';
import { importProfile } from '../../import-profile';
import { foldedImporter } from './folded';

const speedscope = (f: string) => fixturePath('corpus/speedscope/sample/profiles/stackcollapse', f);

describe('folded stacks', () => {
  it('detects folded text with and without a file name', () => {
    expect(foldedImporter.sniff('a;b;c 3\na;b 2\n', '')).toBe(true);
    expect(foldedImporter.sniff('hello world\n', 'x.txt')).toBe(false);
  });

  for (const f of ['simple.txt', 'simple-crlf.txt', 'simple-utf16-le.txt', 'simple-utf16-be.txt', 'simple-with-invalids.txt', 'recursion.txt', 'tall.txt', 'alternating.txt']) {
    it(`matches speedscope's totals for ${f}`, async () => {
      const expected = JSON.parse(readText(speedscope(`${f}.expected.json`)));
      for (const name of [f, '']) {
        const p = await importProfile(fileSource(speedscope(f), name, 5));
        expect(checkProfile(p)).toEqual([]);
        expect(p.format).toBe('folded');
        expect(p.tree.total[0]).toBe(expected.speedscope_run.profiles[0].total_weight);
      }
    });
  }

  it('is the identity on a valid folded file (up to order)', async () => {
    const text = readText(fixturePath('corpus/FlameGraph/generated-41fee1f/default/perf-vertx-stacks-01-collapsed-default.txt'));
    const p = await importProfile(bytesSource('v.folded', text));
    expect(collapse(p).join('\n') + '\n').toBe(text);
  });

  it('merges equal stacks and keeps deep stacks without recursion', async () => {
    const deep = Array.from({ length: 60_000 }, (_, i) => `f${i % 7}`).join(';');
    const p = await importProfile(bytesSource('', `${deep} 2\na;b 1\na;b 4\n`));
    expect(checkProfile(p)).toEqual([]);
    expect(p.tree.total[0]).toBe(7);
    expect(collapse(p)[0]).toBe('a;b 5');
  });

  it('keeps empty frames, first ones included, when printed again', async () => {
    const text = ';a 1\na 2\na;;b 3\n';
    const p = await importProfile(bytesSource('e.folded', text));
    expect(collapse(p)).toEqual([';a 1', 'a 2', 'a;;b 3']);
  });
});
