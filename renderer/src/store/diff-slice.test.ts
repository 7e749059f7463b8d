import { describe, expect, it } from 'vitest';
import { useStore } from './store';

describe('diff settings', () => {
  it('start absolute, with entry scripts matched; relative is one event away', () => {
    const s = useStore.getState();
    expect([s.normalize, s.matchEntry]).toEqual(['absolute', true]);
    s.normalizeChosen('relative');
    s.entryMatchingChosen(false);
    expect([useStore.getState().normalize, useStore.getState().matchEntry]).toEqual(['relative', false]);
  });
});
