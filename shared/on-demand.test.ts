import { describe, expect, it } from 'vitest';
import { onDemand } from './on-demand';

describe('code loaded on demand', () => {
  it('loads once however many ask, again after a failed load, and settles either way', async () => {
    let calls = 0;
    const m = onDemand(async () => {
      calls++;
      if (calls === 1) throw new Error('offline');
      return 42;
    });
    expect(m.loaded()).toBeUndefined();
    await expect(m.load()).rejects.toThrow('offline');
    await expect(m.settled()).resolves.toBeUndefined();
    expect(calls).toBe(2);
    expect(m.load()).toBe(m.load());
    expect(await m.load()).toBe(42);
    expect(m.loaded()).toBe(42);
    expect(calls).toBe(2);
  });
});
