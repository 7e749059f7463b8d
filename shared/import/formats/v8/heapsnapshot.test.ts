import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkProfile } from '../../../model/integrity';
import { fileSource, fixturePath } from '../../../../test/support/files';
import { tinySnapshot } from '../../../../test/support/heapsnapshot';
import { ImportError } from '../../errors';
import { detectFormat, importProfile } from '../../import-profile';
import { bytesSource } from '../../io/source';
import { heapsnapshotImporter } from './heapsnapshot';

const BASE_BEFORE = fixturePath('samples/baseline/heap/before.heapsnapshot.gz');
const tiny = () =>
  tinySnapshot(
    [
      { name: 'root', size: 0 },
      { name: 'A', size: 10 },
    ],
    [[0, 1]],
  );

async function fails(text: string): Promise<ImportError> {
  try {
    await importProfile(bytesSource('bad.heapsnapshot', new TextEncoder().encode(text)));
  } catch (e) {
    expect(e).toBeInstanceOf(ImportError);
    return e as ImportError;
  }
  throw new Error('imported');
}

describe('heap snapshot importer', () => {
  it('is told by its content, with or without the name', () => {
    const head = gunzipSync(readFileSync(BASE_BEFORE)).subarray(0, 65536).toString('utf8');
    expect(detectFormat(head, '')?.id).toBe('heapsnapshot');
    expect(detectFormat(head, 'x.heapsnapshot')?.id).toBe('heapsnapshot');
    expect(heapsnapshotImporter.sniff('{"nodes":[{"callFrame":{}}]}', 'x.cpuprofile')).toBe(false);
  });

  it('reads a real gzipped snapshot: counts from the file, the tree totals the heap', async () => {
    const p = await importProfile(fileSource(BASE_BEFORE));
    expect(checkProfile(p)).toEqual([]);
    const text = gunzipSync(readFileSync(BASE_BEFORE)).toString('utf8');
    const raw = JSON.parse(text) as {
      snapshot: { meta: { node_fields: string[] }; node_count: number; edge_count: number };
      nodes: number[];
    };
    const g = p.heap!;
    expect(p.kind).toBe('heap');
    expect(p.unit).toBe('bytes');
    expect(g.nodeCount).toBe(raw.snapshot.node_count);
    expect(g.edgeCount).toBe(raw.snapshot.edge_count);
    const nf = raw.snapshot.meta.node_fields.length;
    const sizeAt = raw.snapshot.meta.node_fields.indexOf('self_size');
    let total = 0;
    for (let i = sizeAt; i < raw.nodes.length; i += nf) total += raw.nodes[i]!;
    expect(g.retained[0]).toBe(total);
    expect(p.tree.total[0]).toBe(total);
    expect(Array.from(g.nodes)).toEqual(raw.nodes);
  });

  it('names the file and the place of what is wrong', async () => {
    const good = tiny();
    const cut = await fails(good.slice(0, good.indexOf('"edges"') + 12));
    expect(cut.message).toMatch(/^bad\.heapsnapshot .*cut off/);
    const outside = await fails(good.replace('"edges":[2,2,7]', '"edges":[2,2,70]'));
    expect(outside.message).toBe('bad.heapsnapshot: edge 0 (of node 0) points at 70, which is not the start of a node');
    const negative = await fails(good.replace('"nodes":[9,', '"nodes":[-9,'));
    expect(negative.message).toMatch(/^bad\.heapsnapshot \(byte \d+\): "nodes" holds -9, expected whole numbers/);
    expect(negative.offset).toBe(new TextEncoder().encode(good).indexOf(0x5b, good.indexOf('"nodes"')) + 1);
    const noSize = await fails(good.replace('"self_size",', '"size",'));
    expect(noSize.message).toMatch(/snapshot\.meta\.node_fields has no "self_size" field/);
    const counts = await fails(good.replace('"nodes":[9,0,1,0,1,0,0', '"nodes":[9,0,1,0,2,0,0'));
    expect(counts.message).toMatch(/node 0's edges run past the 1 edges/);
  });
});

describe('heap snapshot numbers in runs', () => {
  it('read the same graph, and name the byte of a number out of range, for any cut of the file', async () => {
    const good = tiny();
    const want = await importProfile(bytesSource('t.heapsnapshot', good));
    const nodes = good.indexOf('"nodes"');
    for (let c = nodes; c < good.indexOf('"strings"'); c++) {
      const p = await importProfile(bytesSource('t.heapsnapshot', new TextEncoder().encode(good), c));
      expect(p.heap, `chunks of ${c}`).toEqual(want.heap);
    }
    // the third number of "edges" (a node's place), past 2^32, then a negative one in "nodes"
    for (const [from, to, bad] of [
      ['"edges":[2,2,7]', '"edges":[2,2,4294967296]', '4294967296'],
      ['"nodes":[9,0,1,0,1,0,0', '"nodes":[9,0,1,0,1,-1,0', '-1'],
    ] as const) {
      const text = good.replace(from, to);
      const at = text.indexOf(to) + to.indexOf(bad);
      for (let c = 1; c < text.length; c += 3) {
        const e = await importProfile(bytesSource('bad.heapsnapshot', new TextEncoder().encode(text), c)).catch((x: ImportError) => x);
        expect(e, `chunks of ${c}`).toBeInstanceOf(ImportError);
        expect((e as ImportError).offset, `chunks of ${c}`).toBe(at);
        expect((e as ImportError).message).toContain(`holds ${bad}, expected whole numbers`);
      }
    }
  });
});

describe('heap snapshot counts the file states', () => {
  it('a node_count that is huge, fractional, negative or not a number does not fail the import', async () => {
    for (const count of ['1e15', '7003.5', '-4', '"many"']) {
      const text = tiny().replace('"node_count":2', `"node_count":${count}`);
      expect(text).toContain(`"node_count":${count}`);
      const p = await importProfile(bytesSource('odd.heapsnapshot', new TextEncoder().encode(text)));
      expect(p.heap!.nodeCount).toBe(2);
      expect(Array.from(p.heap!.retained)).toEqual([10, 10]);
    }
  });
});
