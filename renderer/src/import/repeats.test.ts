import { describe, expect, it } from 'vitest';
import { ImportError } from '../../../shared/import/errors';
import { folded } from '../../../test/support/folded';
import { importRepeats } from './repeats';

describe('importRepeats', () => {
  const texts: Record<string, string> = { 'a.folded': 'main;f 4\nmain;g 2', 'b.folded': 'main;f 6', 'c.folded': 'main;g 4' };

  it('keeps every repeat and draws their mean: each stack the average over the repeats', async () => {
    const { profile, repeats } = await importRepeats(
      'baseline',
      ['a.folded', 'b.folded', 'c.folded'].map((name) => ({ name })),
      (f) => folded(texts[f.name]!, f.name),
    );
    expect(repeats.names).toEqual(['a.folded', 'b.folded', 'c.folded']);
    expect(repeats.profiles).toHaveLength(3);
    expect(repeats.failed).toEqual([]);
    const selfOf = (name: string) => {
      const fr = profile.frames.name.indexOf(name);
      let sum = 0;
      for (let i = 0; i < profile.tree.length; i++) if (profile.tree.frame[i] === fr) sum += profile.tree.self[i]!;
      return sum;
    };
    expect(selfOf('f')).toBeCloseTo((4 + 6 + 0) / 3);
    expect(selfOf('g')).toBeCloseTo((2 + 0 + 4) / 3);
    expect(profile.name).toBe('baseline');
  });

  it('names a repeat that fails to import, and the others still make the mean', async () => {
    const { profile, repeats } = await importRepeats(
      'agent',
      ['a.folded', 'bad.folded', 'b.folded'].map((name) => ({ name })),
      (f) => {
        if (f.name === 'bad.folded') throw new ImportError({ file: f.name, line: 3, message: 'not a folded stack' });
        return folded(texts[f.name]!, f.name);
      },
    );
    expect(repeats.names).toEqual(['a.folded', 'b.folded']);
    expect(repeats.failed).toEqual([{ name: 'bad.folded', error: 'bad.folded:3: not a folded stack' }]);
    expect(profile.tree.total[0]).toBeCloseTo((6 + 6) / 2);
  });

  it('leaves out, named, a file of another format or unit than the first: it is not a repeat of it', async () => {
    const { repeats } = await importRepeats(
      'agent',
      ['a.folded', 'b.folded', 'c.folded'].map((name) => ({ name })),
      async (f) => {
        const p = await folded(texts[f.name]!, f.name);
        return f.name === 'b.folded' ? { ...p, unit: 'bytes' as const } : p;
      },
    );
    expect(repeats.names).toEqual(['a.folded', 'c.folded']);
    expect(repeats.failed).toHaveLength(1);
    expect(repeats.failed[0]!.error).toMatch(/^b\.folded: a folded profile in bytes, not a repeat of a\.folded \(folded in samples\)/);
  });

  it('fails, naming each file, when no repeat can be read', async () => {
    const read = (f: { name: string }) => Promise.reject(new ImportError({ file: f.name, message: 'truncated' }));
    await expect(importRepeats('x', [{ name: 'a.cpuprofile' }, { name: 'b.cpuprofile' }], read)).rejects.toThrow(
      'none of its 2 repeats could be read: a.cpuprofile: truncated; b.cpuprofile: truncated',
    );
  });
});
