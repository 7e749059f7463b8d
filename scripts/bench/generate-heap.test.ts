/**
 * The benchmark's grown heap snapshot: copies of the real sample's object graph under one root,
 * checked against the sample's own arrays (read here with JSON.parse, not by the importer), and
 * the pieces the JSON.parse limit reads are valid JSON covering the whole file.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { importProfile } from '../../shared/import/import-profile';
import { heapSummary } from '../../shared/heap/summary';
import { fileSource } from '../../node/cli/node-source';
import { generateHeapSnapshot } from './generate-heap.mjs';

interface Raw {
  snapshot: { meta: { node_fields: string[]; node_types: string[][] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const dir = mkdtempSync(join(tmpdir(), 'flamelens-heap-gen-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sample = JSON.parse(
  gunzipSync(readFileSync(new URL('../../fixtures/samples/ddtrace/heap/after.heapsnapshot.gz', import.meta.url))).toString('utf8'),
) as Raw;

/** Count and self size per (type, name) of the raw arrays. */
function classCounts(raw: Raw): Map<string, { count: number; selfSize: number }> {
  const f = raw.snapshot.meta.node_fields;
  const [t, n, s] = ['type', 'name', 'self_size'].map((x) => f.indexOf(x)) as [number, number, number];
  const types = raw.snapshot.meta.node_types[t]!;
  const out = new Map<string, { count: number; selfSize: number }>();
  for (let i = 0; i < raw.nodes.length; i += f.length) {
    const key = `${types[raw.nodes[i + t]!]}\u0000${raw.strings[raw.nodes[i + n]!]}`;
    const c = out.get(key) ?? { count: 0, selfSize: 0 };
    c.count++;
    c.selfSize += raw.nodes[i + s]!;
    out.set(key, c);
  }
  return out;
}

describe('generateHeapSnapshot', () => {
  it('three copies of the sample: three times its objects, sizes and edges under one root, ids unique', async () => {
    const path = join(dir, 'three.heapsnapshot');
    const out = generateHeapSnapshot(path, 0, { copies: 3 });
    const raw = JSON.parse(readFileSync(path, 'utf8')) as Raw;
    const NF = sample.snapshot.meta.node_fields.length;
    const n = sample.nodes.length / NF;
    expect(out.nodes).toBe(1 + 3 * (n - 1));
    expect(raw.nodes.length / NF).toBe(out.nodes);
    expect(raw.edges.length).toBe(3 * sample.edges.length);
    expect(raw.strings.length).toBe(3 * sample.strings.length);
    const idField = sample.snapshot.meta.node_fields.indexOf('id');
    const ids = new Set<number>();
    for (let i = idField; i < raw.nodes.length; i += NF) ids.add(raw.nodes[i]!);
    expect(ids.size).toBe(out.nodes);

    // every class but the root's three times the sample's, by the raw arrays
    const want = classCounts(sample);
    const got = classCounts(raw);
    for (const [key, c] of want) {
      const root = key === `synthetic\u0000${sample.strings[sample.nodes[1]!]}` ? 1 : 0;
      expect(got.get(key), key).toEqual({ count: 3 * c.count - 2 * root, selfSize: 3 * c.selfSize - 2 * root * sample.nodes[3]! });
    }
    expect(got.size).toBe(want.size);

    // imported: the root retains everything, three times what it retains in the sample
    const [big, one] = await Promise.all([
      importProfile(fileSource(path)),
      importProfile(fileSource(new URL('../../fixtures/samples/ddtrace/heap/after.heapsnapshot.gz', import.meta.url).pathname)),
    ]);
    expect(big.heap!.retained[0]).toBe(3 * one.heap!.retained[0]!);
    const largest = heapSummary(one.heap!, 1).largest[0]!;
    const three = heapSummary(big.heap!, 3).largest;
    expect(three.map((o) => o.retainedSize)).toEqual([largest.retainedSize, largest.retainedSize, largest.retainedSize]);
  }, 60_000);

  it("cuts the file into valid JSON texts that together hold every byte once (the limit's pieces)", () => {
    const path = join(dir, 'pieces.heapsnapshot');
    // pieces of at most 4 MB: some end in each of the four arrays
    const out = generateHeapSnapshot(path, 0, { copies: 2, pieceBytes: 4e6 });
    expect(out.pieces.length).toBeGreaterThan(8);
    const fd = openSync(path, 'r');
    let covered = 0;
    try {
      for (const p of out.pieces) {
        const buf = Buffer.alloc(p.to - p.from);
        readSync(fd, buf, 0, buf.length, p.from);
        expect(() => JSON.parse(p.prefix + buf.toString('utf8') + p.suffix)).not.toThrow();
        expect(p.from).toBeGreaterThanOrEqual(covered);
        covered = p.to;
      }
    } finally {
      closeSync(fd);
    }
    expect(covered).toBe(out.bytes);
  });
});
