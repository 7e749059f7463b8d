import { describe, expect, it } from 'vitest';
import { importProfile } from '../import/import-profile';
import { checkProfile } from '../model/integrity';
import { fileSource, fixturePath } from '../test/files';
import { memlabNodes } from '../test/memlab-oracle';
import { heapFields } from './class-tree';

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
    }, 120_000);
  }
});
