import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { importProfile } from '../import/import-profile';
import { bytesSource } from '../import/io/source';
import { fileSource, fixturePath } from '../../test/support/files';
import { type TinyEdge, type TinyNode, tinySnapshot } from '../../test/support/heapsnapshot';
import { allocatedBetween } from './allocated';

const graphOf = async (nodes: TinyNode[], edges: TinyEdge[]) =>
  (await importProfile(bytesSource('t.heapsnapshot', new TextEncoder().encode(tinySnapshot(nodes, edges))))).heap!;

describe('objects allocated between two snapshots of one process', () => {
  it('are those whose id the earlier snapshot lacks; a class retains what its outermost new objects do, all of them together once', async () => {
    const before = await graphOf(
      [
        { name: '', size: 0, id: 1 },
        { name: 'App', size: 10, id: 3 },
      ],
      [[0, 1]],
    );
    const after = await graphOf(
      [
        { name: '', size: 0, id: 1 },
        { name: 'App', size: 10, id: 3 },
        { name: 'Leak', size: 30, id: 7 },
        { name: 'Leak', size: 20, id: 9 },
        { name: 'Span', size: 5, id: 11 },
        { name: 'Buffer', size: 40, id: 13, type: 'native' },
      ],
      [
        [0, 1],
        [1, 2],
        [2, 3], // the second Leak is held by the first alone
        [0, 4],
        [4, 5], // the Span holds a native Buffer
      ],
    );
    const a = allocatedBetween(before, after);
    expect(a.count).toBe(4);
    expect(a.selfSize).toBe(95);
    expect(a.retainedSize).toBe(30 + 20 + 5 + 40);
    expect(a.classes.map((c) => [c.name, c.count, c.selfSize, c.retainedSize])).toEqual([
      ['Leak', 2, 50, 50],
      ['Span', 1, 5, 45],
      ['Buffer', 1, 40, 40],
    ]);
    expect([...a.isNew]).toEqual([0, 0, 1, 1, 1, 1]);
  });

  it("on the real runs' snapshots before and after 10,000 requests: counts and self sizes per class as the files' JSON says", async () => {
    for (const variant of ['baseline', 'ddtrace']) {
      const path = (w: string) => fixturePath(`samples/${variant}/heap/${w}.heapsnapshot.gz`);
      const [before, after] = await Promise.all(['before', 'after'].map(async (w) => (await importProfile(fileSource(path(w)))).heap!));
      const a = allocatedBetween(before!, after!);
      // from the raw JSON, without the importer: ids of before; the new nodes of after by class
      const raw = (w: string) =>
        JSON.parse(gunzipSync(readFileSync(path(w))).toString('utf8')) as {
          snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
          nodes: number[];
          strings: string[];
        };
      const rb = raw('before');
      const ra = raw('after');
      const nf = ra.snapshot.meta.node_fields;
      const [T, N, ID, S] = ['type', 'name', 'id', 'self_size'].map((f) => nf.indexOf(f));
      const old = new Set<number>();
      for (let i = 0; i < rb.nodes.length; i += rb.snapshot.meta.node_fields.length)
        old.add(rb.nodes[i + rb.snapshot.meta.node_fields.indexOf('id')]!);
      const types = ra.snapshot.meta.node_types[0];
      const expected = new Map<string, [number, number]>();
      let count = 0;
      for (let i = 0; i < ra.nodes.length; i += nf.length) {
        if (old.has(ra.nodes[i + ID!]!)) continue;
        const type = types[ra.nodes[i + T!]!]!;
        const name = ['object', 'closure', 'regexp', 'native', 'synthetic'].includes(type)
          ? ra.strings[ra.nodes[i + N!]!] || '(anonymous)'
          : `(${type})`;
        const key = `${type} ${name}`;
        const e = expected.get(key) ?? [0, 0];
        e[0]++;
        e[1] += ra.nodes[i + S!]!;
        expected.set(key, e);
        count++;
      }
      expect(a.count).toBe(count);
      expect(count).toBeGreaterThan(1000);
      expect(new Map(a.classes.map((c) => [`${c.type} ${c.name}`, [c.count, c.selfSize]]))).toEqual(expected);
      for (const c of a.classes) expect(c.retainedSize).toBeGreaterThanOrEqual(c.selfSize);
    }
  });
});
