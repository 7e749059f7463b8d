import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { importProfile } from '../import/import-profile';
import { bytesSource } from '../import/io/source';
import { fileSource, fixturePath } from '../../test/support/files';
import { tinySnapshot } from '../../test/support/heapsnapshot';
import { objectsOfClass, retainerPath } from './retainers';

describe('retainer paths', () => {
  it('take the fewest strong references from the root, never a weak one', async () => {
    const text = tinySnapshot(
      [
        { name: '', size: 0 },
        { name: '(GC roots)', size: 0, type: 'synthetic' },
        { name: 'A', size: 10 },
        { name: 'B', size: 10 },
        { name: 'Leak', size: 99 },
      ],
      [
        [0, 1, 'element', 1],
        [1, 2, 'property', 'app'],
        [2, 4, 'weak', 'cache'],
        [2, 3, 'property', 'holder'],
        [3, 4, 'element', 7],
      ],
    );
    const p = await importProfile(bytesSource('t.heapsnapshot', new TextEncoder().encode(text)));
    const path = retainerPath(p.heap!, 4)!;
    expect(path.map((s) => [s.edge, s.name])).toEqual([
      ['', ''],
      ['[1]', '(GC roots)'],
      ['app', 'A'],
      ['holder', 'B'],
      ['[7]', 'Leak'],
    ]);
    expect(path[4]!.edgeType).toBe('element');
  });

  it("on a real snapshot: every step is a strong reference in the file, as few as a breadth-first walk of the file's JSON finds", async () => {
    const file = fixturePath('samples/ddtrace/heap/after.heapsnapshot.gz');
    const p = await importProfile(fileSource(file));
    const raw = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as {
      snapshot: { meta: { node_fields: string[]; edge_fields: string[]; edge_types: [string[]] } };
      nodes: number[];
      edges: number[];
      strings: string[];
    };
    const NF = raw.snapshot.meta.node_fields.length;
    const EF = raw.snapshot.meta.edge_fields.length;
    const ec = raw.snapshot.meta.node_fields.indexOf('edge_count');
    const types = raw.snapshot.meta.edge_types[0];
    const n = raw.nodes.length / NF;
    // each node's references, from the raw arrays: [to, type name, name or index]
    const refs: [number, string, number][][] = [];
    for (let i = 0, e = 0; i < n; i++) {
      const list: [number, string, number][] = [];
      for (let k = 0; k < raw.nodes[i * NF + ec]!; k++, e++)
        list.push([raw.edges[e * EF + 2]! / NF, types[raw.edges[e * EF]!]!, raw.edges[e * EF + 1]!]);
      refs.push(list);
    }
    const dist = new Array<number>(n).fill(-1);
    dist[0] = 0;
    for (let q = [0], h = 0; h < q.length; h++)
      for (const [to, type] of refs[q[h]!]!)
        if (type !== 'weak' && type !== 'shortcut' && dist[to] === -1) {
          dist[to] = dist[q[h]!]! + 1;
          q.push(to);
        }

    const targets = [...objectsOfClass(p.heap!, 'closure', 'wrappedHandler', 3), ...objectsOfClass(p.heap!, 'object', 'Span', 3)];
    expect(targets.length).toBeGreaterThan(0);
    for (const t of targets) {
      const path = retainerPath(p.heap!, t)!;
      expect(path[0]!.node).toBe(0);
      expect(path[path.length - 1]!.node).toBe(t);
      expect(path.length - 1).toBe(dist[t]);
      for (let k = 1; k < path.length; k++) {
        const step = path[k]!;
        const ref = refs[path[k - 1]!.node]!.find(
          ([to, type, name]) =>
            to === step.node &&
            type === step.edgeType &&
            (type === 'element' || type === 'hidden' ? `[${name}]` : raw.strings[name]) === step.edge,
        );
        expect(ref, `step ${k} to ${step.name}`).toBeDefined();
        expect(['weak', 'shortcut']).not.toContain(step.edgeType);
      }
    }
  });
});
