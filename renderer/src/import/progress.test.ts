import { describe, expect, it } from 'vitest';
import { pacedProgress } from './progress';

describe('pacedProgress', () => {
  it('reports at most once per interval, the first piece and the end always', () => {
    let t = 0;
    const heard: number[] = [];
    const progress = pacedProgress(
      (read) => heard.push(read),
      100,
      () => t,
    );
    // 100 MB read a MiB at a time, one MiB every 5 ms: 100 pieces in half a second.
    const MiB = 1 << 20;
    const size = 100 * MiB;
    for (let read = MiB; read <= size; read += MiB) {
      progress(read, size);
      t += 5;
    }
    expect(heard[0]).toBe(MiB);
    expect(heard.at(-1)).toBe(size);
    expect(heard.length).toBeLessThanOrEqual(7);
    expect(heard.length).toBeGreaterThanOrEqual(5);
  });

  it('reports every piece of a file of unknown size that arrives slowly', () => {
    let t = 0;
    const heard: number[] = [];
    const progress = pacedProgress(
      (read) => heard.push(read),
      100,
      () => t,
    );
    for (const read of [10, 20, 30]) {
      progress(read, undefined);
      t += 150;
    }
    expect(heard).toEqual([10, 20, 30]);
  });
});
