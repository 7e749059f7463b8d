import { describe, expect, it } from 'vitest';
import { importProfile } from '../import/import-profile';
import { checkProfile } from '../model/integrity';
import { fileSource, fixturePath } from '../../test/support/files';
import { memlabNodes } from '../../test/support/memlab-oracle';
import { heapFields } from './class-tree';
import { heapSummary } from './summary';

/**
 * memlab names the native objects it finds detached (its own propagation of V8's detachedness
 * flag) "Detached <name>"; the snapshot's name string is the rest.
 */
const rawName = (name: string) => name.replace(/^Detached /, '');

const SNAPSHOTS = ['baseline/heap/before', 'baseline/heap/after', 'ddtrace/heap/before', 'ddtrace/heap/after'];

describe('heap snapshots against memlab', () => {
  for (const s of SNAPSHOTS) {
    it(`${s}: every node's id, type, name, self and retained size are memlab's`, async () => {
      const path = fixturePath('samples', `${s}.heapsnapshot.gz`);
      const [p, m] = await Promise.all([importProfile(fileSource(path)), memlabNodes(path)]);
      expect(checkProfile(p)).toEqual([]);
      const g = p.heap!;
      const f = heapFields(g);
      expect(g.nodeCount).toBe(m.id.length);
      let wrong = 0;
      const firstWrong: string[] = [];
      for (let i = 0; i < g.nodeCount; i++) {
        const same =
          f.id(i) === m.id[i] &&
          f.type(i) === m.type[i] &&
          f.name(i) === rawName(m.name[i]!) &&
          f.selfSize(i) === m.selfSize[i] &&
          g.retained[i] === m.retainedSize[i];
        if (!same) {
          wrong++;
          if (firstWrong.length < 5)
            firstWrong.push(
              `node ${i} ${JSON.stringify(f.name(i)).slice(0, 60)}/${JSON.stringify(m.name[i]).slice(0, 60)} id ${f.id(i)}/${m.id[i]} ${f.type(i)}/${m.type[i]} self ${f.selfSize(i)}/${m.selfSize[i]} retained ${g.retained[i]}/${m.retainedSize[i]}`,
            );
        }
      }
      expect(firstWrong).toEqual([]);
      expect(wrong).toBe(0);
      // each class's count and self size, and the largest objects, from memlab's nodes
      const classes = new Map<string, { count: number; selfSize: number }>();
      const order: number[] = [];
      for (let i = 0; i < m.id.length; i++) {
        const key = `${m.type[i]}\u0000${rawName(m.name[i]!)}`;
        const c = classes.get(key) ?? { count: 0, selfSize: 0 };
        c.count++;
        c.selfSize += m.selfSize[i]!;
        classes.set(key, c);
        if (i > 0 && m.type[i] !== 'synthetic') order.push(i);
      }
      order.sort((a, b) => m.retainedSize[b]! - m.retainedSize[a]! || m.id[a]! - m.id[b]!);
      const summary = heapSummary(g);
      expect(new Map(summary.classes.map((c) => [`${c.type}\u0000${c.name}`, { count: c.count, selfSize: c.selfSize }]))).toEqual(classes);
      expect(summary.largest.map((o) => [o.id, o.retainedSize])).toEqual(order.slice(0, 25).map((i) => [m.id[i], m.retainedSize[i]]));
    }, 120_000);
  }
});
