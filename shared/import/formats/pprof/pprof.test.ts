import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Profile as PprofProfile, StringTable } from 'pprof-format';
import { describe, expect, it } from 'vitest';
import { collapse } from '../../../model/collapse';
import { checkProfile } from '../../../model/integrity';
import { Category } from '../../../model/types';
import { FIXTURES, fileSource, fixturePath } from '../../../../test/support/files';
import { importProfile } from '../../import-profile';
import { bytesSource, openSource } from '../../io/source';
import { pprofImporter } from './pprof';

const time = fixturePath('pprof/datadog-node20-time.pb.gz');
const heap = fixturePath('pprof/datadog-node20-heap.pb.gz');

/** The reference: pprof-format's own decoding, summed here without the importer. */
function decoded(path: string): { types: string[]; totals: number[]; samples: number } {
  const p = PprofProfile.decode(gunzipSync(readFileSync(path)));
  const s = p.stringTable.strings;
  return {
    types: p.sampleType.map((t) => `${s[Number(t.type)]}/${s[Number(t.unit)]}`),
    totals: p.sampleType.map((_, i) => p.sample.reduce((a, x) => a + Number(x.value[i]), 0)),
    samples: p.sample.length,
  };
}

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}

describe('pprof: detection', () => {
  it('recognises gzipped and raw profiles with and without a file name', async () => {
    for (const f of [time, heap]) {
      const gz = await openSource(fileSource(f));
      expect(pprofImporter.sniff(gz.head, 'x.pb.gz')).toBe(true);
      expect(pprofImporter.sniff(gz.head, '')).toBe(true);
      const raw = await openSource(bytesSource('', gunzipSync(readFileSync(f))));
      expect(pprofImporter.sniff(raw.head, '')).toBe(true);
    }
  });

  it('claims no text or JSON fixture, whatever its name', async () => {
    const others = allFiles(FIXTURES).filter((f) => !f.includes('/pprof/') && !f.endsWith('.zip'));
    expect(others.length).toBeGreaterThan(300);
    for (const f of others) {
      const head = (await openSource(fileSource(f))).head;
      expect(pprofImporter.sniff(head, ''), f).toBe(false);
      expect(pprofImporter.sniff(head, 'profile.pb.gz'), f).toBe(false);
    }
  });
});

describe('pprof: @datadog/pprof profiles of a Node 20 script', () => {
  it('time profile: sample counts, equal to the decoded sum', async () => {
    const ref = decoded(time);
    expect(ref.types).toEqual(['sample/count', 'wall/nanoseconds', 'cpu/nanoseconds']);
    for (const name of ['datadog-node20-time.pb.gz', '']) {
      const p = await importProfile(fileSource(time, name, 1000));
      expect(checkProfile(p)).toEqual([]);
      expect(p.format).toBe('pprof');
      expect(p.kind).toBe('sampled');
      expect(p.unit).toBe('samples');
      expect(p.tree.total[0]).toBe(ref.totals[0]);
      expect(p.meta.eventType).toBe('sample/count');
      expect(p.meta.otherEventTypes).toEqual(['wall/nanoseconds', 'cpu/nanoseconds']);
      expect(p.meta.sampleInterval).toBeGreaterThan(500);
      expect(p.meta.endTime! - p.meta.startTime!).toBeGreaterThan(900_000);
      // The workload's own functions, root → leaf, with files and lines.
      const stacks = collapse(p);
      expect(stacks.some((s) => /busy \/tmp\/pprof-gen\/work\.js:\d+:\d+;hashSome /.test(s))).toBe(true);
      const f = p.frames;
      const idle = f.name.indexOf('(idle)');
      expect(f.category[idle]).toBe(Category.Idle);
      const gc = f.name.indexOf('Garbage Collection');
      if (gc >= 0) expect(f.category[gc]).toBe(Category.GC);
      // `(anonymous:L#…:C#…)` becomes an anonymous frame at that position.
      expect(f.name.some((n) => n.startsWith('(anonymous:'))).toBe(false);
      expect(f.name.includes('(anonymous)')).toBe(true);
      expect(f.category[f.name.indexOf('processImmediate')]).toBe(Category.NodeCore);
    }
  });

  it('heap profile: bytes in use, equal to the decoded sum', async () => {
    const ref = decoded(heap);
    expect(ref.types).toEqual(['inuse_objects/count', 'inuse_space/bytes']);
    for (const name of ['heap.pb.gz', '']) {
      const p = await importProfile(fileSource(heap, name));
      expect(checkProfile(p)).toEqual([]);
      expect(p.kind).toBe('allocations');
      expect(p.unit).toBe('bytes');
      expect(p.tree.total[0]).toBe(ref.totals[1]);
    }
  });

  it('reads the raw (not gzipped) protocol buffer the same way', async () => {
    const a = await importProfile(fileSource(time));
    const b = await importProfile(bytesSource('', gunzipSync(readFileSync(time))));
    expect(collapse(b)).toEqual(collapse(a));
  });
});

describe('pprof: mapping rules on profiles written with pprof-format', () => {
  function write(build: (s: StringTable) => ConstructorParameters<typeof PprofProfile>[0]): Uint8Array {
    const strings = new StringTable();
    const data = build(strings);
    return new PprofProfile({ ...data, stringTable: strings }).encode();
  }

  it('follows inlined lines, packed columns, unsymbolized addresses, and skips negative values', async () => {
    const bytes = write((s) => ({
      sampleType: [{ type: s.dedup('cpu'), unit: s.dedup('nanoseconds') }],
      mapping: [{ id: 1, filename: s.dedup('/usr/lib/libc.so.6') }],
      function: [
        { id: 1, name: s.dedup('main'), filename: s.dedup('/app/main.js') },
        { id: 2, name: s.dedup('inner'), filename: s.dedup('/app/lib.js') },
        { id: 3, name: s.dedup('outer'), filename: s.dedup('/app/lib.js') },
      ],
      location: [
        { id: 10, line: [{ functionId: 1, line: 3 }] },
        // inner was inlined into outer: innermost line first
        {
          id: 11,
          line: [
            { functionId: 2, line: (7n << 32n) | 20n },
            { functionId: 3, line: 40 },
          ],
        },
        { id: 12, mappingId: 1, address: 0x7f00ab },
      ],
      sample: [
        { locationId: [11, 10], value: [1_000_000] },
        { locationId: [12, 11, 10], value: [500] },
        { locationId: [10], value: [-5] },
      ],
    }));
    const p = await importProfile(bytesSource('cpu.pprof', bytes));
    expect(checkProfile(p)).toEqual([]);
    expect(p.unit).toBe('nanoseconds');
    expect(collapse(p)).toEqual([
      'main /app/main.js:3:0;outer /app/lib.js:40:0;inner /app/lib.js:20:7 1000000',
      'main /app/main.js:3:0;outer /app/lib.js:40:0;inner /app/lib.js:20:7;0x7f00ab 500',
    ]);
    const lib = p.frames.name.indexOf('0x7f00ab');
    expect(p.frames.category[lib]).toBe(Category.Native);
    expect(p.frames.file[lib]).toBe('/usr/lib/libc.so.6');
    expect(p.meta.warnings.join()).toMatch(/negative/);
  });

  it('prefers the declared default sample type, then samples, cpu, wall, space', async () => {
    const pick = async (types: [string, string][], def?: string) => {
      const bytes = write((s) => ({
        sampleType: types.map(([t, u]) => ({ type: s.dedup(t), unit: s.dedup(u) })),
        ...(def ? { defaultSampleType: s.dedup(def) } : {}),
        function: [{ id: 1, name: s.dedup('f') }],
        location: [{ id: 1, line: [{ functionId: 1 }] }],
        sample: [{ locationId: [1], value: types.map((_, i) => 10 ** i) }],
      }));
      const p = await importProfile(bytesSource('', bytes));
      return `${p.meta.eventType} ${p.unit} ${p.tree.total[0]}`;
    };
    expect(
      await pick([
        ['samples', 'count'],
        ['cpu', 'nanoseconds'],
      ]),
    ).toBe('samples/count samples 1');
    expect(
      await pick(
        [
          ['samples', 'count'],
          ['cpu', 'nanoseconds'],
        ],
        'cpu',
      ),
    ).toBe('cpu/nanoseconds nanoseconds 10');
    expect(
      await pick([
        ['alloc_objects', 'count'],
        ['alloc_space', 'bytes'],
        ['inuse_objects', 'count'],
        ['inuse_space', 'bytes'],
      ]),
    ).toBe('inuse_space/bytes bytes 1000');
    expect(
      await pick([
        ['objects', 'count'],
        ['space', 'bytes'],
      ]),
    ).toBe('space/bytes bytes 10');
    expect(
      await pick([
        ['contentions', 'count'],
        ['delay', 'nanoseconds'],
      ]),
    ).toBe('contentions/count events 1');
    expect(await pick([['wall', 'milliseconds']])).toBe('wall/milliseconds microseconds 1000');
  });

  it('says what is wrong with a file that is not a profile, or is cut off', async () => {
    const junk = new Uint8Array([0x0a, 0x04, 0x08, 0x01, 0x10, 0x02, 0xff, 0xff, 0xff]);
    await expect(importProfile(bytesSource('x.pb', junk))).rejects.toThrow(/x\.pb.*cut off or damaged/);
    const raw = gunzipSync(readFileSync(time));
    for (const n of [10, 1000, raw.length - 1])
      await expect(importProfile(bytesSource('t.pb', raw.subarray(0, n)))).rejects.toThrow(/cut off/);
    const noSamples = write((s) => ({ sampleType: [{ type: s.dedup('samples'), unit: s.dedup('count') }] }));
    await expect(importProfile(bytesSource('', noSamples))).rejects.toThrow(/no samples/);
  });
});
