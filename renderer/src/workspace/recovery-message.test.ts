import { describe, expect, it } from 'vitest';
import { recoveryMessage } from './recovery-message';

describe('recoveryMessage', () => {
  it('counts notes, not the title and caption', () => {
    expect(recoveryMessage({ runs: 2, notes: 0, title: true, caption: true }, '11:02')).toBe(
      'Unsaved work from 11:02 (2 runs, 0 notes, a title and a caption) can be restored.',
    );
    expect(recoveryMessage({ runs: 1, notes: 1, title: true }, '11:02')).toBe(
      'Unsaved work from 11:02 (1 run, 1 note, a title) can be restored.',
    );
    expect(recoveryMessage({ runs: 3, notes: 2, caption: true }, '11:02')).toBe(
      'Unsaved work from 11:02 (3 runs, 2 notes, a caption) can be restored.',
    );
  });

  it('does not call saved work unsaved', () => {
    const text = recoveryMessage({ runs: 2, notes: 1, savedAs: 'fastify.flamelens' }, '11:02');
    expect(text).toBe('The comparison from 11:02, saved as fastify.flamelens (2 runs, 1 note), can be opened again.');
    expect(text).not.toMatch(/unsaved/i);
  });
});
