import { describe, expect, it } from 'vitest';
import { namedAsReadInWindow } from './read-in-window';

describe('files a window reads itself', () => {
  it('are told by the endings of their formats, compressed or not, in any case', () => {
    for (const name of ['CPU.20261121.233005.6118.0.001.cpuprofile', 'after.heapsnapshot.gz', 'Heap-20261121.HEAPSNAPSHOT'])
      expect(namedAsReadInWindow(name), name).toBe(true);
    for (const name of [
      'perf.script.txt',
      'stacks.folded',
      'node_trace.1.log.gz',
      'Heap.20261121.233010.6213.0.001.heapprofile',
      'cpuprofile.txt',
    ])
      expect(namedAsReadInWindow(name), name).toBe(false);
  });
});
