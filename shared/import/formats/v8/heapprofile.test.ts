import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { collapse } from '../../../model/collapse';
import { checkProfile } from '../../../model/integrity';
import { Category, type Profile } from '../../../model/types';
import { fileSource, fixturePath, readText } from '../../../../test/support/files';
import { ImportError } from '../../errors';
import { importProfile } from '../../import-profile';
import { bytesSource, openSource } from '../../io/source';
import { cpuprofileImporter } from './cpuprofile';
import { heapprofileImporter } from './heapprofile';

const speedscope = (f: string) => fixturePath('corpus/speedscope/sample/profiles', f);
const json = (path: string) => JSON.parse(readText(path));
const load = (path: string, name?: string) => importProfile(fileSource(path, name));

function summary(p: Profile) {
  return { format: p.format, kind: p.kind, unit: p.unit, total: p.tree.total[0], frames: p.frames.length, nodes: p.tree.length };
}

/**
 * Our tree as speedscope names its heap stacks: names only, `(root)` first, unnamed functions
 * `(anonymous FILE-BASENAME:LINE)` with the file's own 0-based line.
 */
function speedscopeStacks(p: Profile): Map<string, number> {
  const f = p.frames;
  const t = p.tree;
  const name = (i: number) =>
    f.name[i] === '(anonymous)' && f.file[i] !== '' ? `(anonymous ${f.file[i]!.split('/').pop()}:${f.line[i]! - 1})` : f.name[i]!;
  const path = ['(root)'];
  const out = new Map<string, number>();
  for (let i = 1; i < t.length; i++) {
    path[i] = `${path[t.parent[i]!]};${name(t.frame[i]!)}`;
    if (t.self[i]! > 0) out.set(path[i]!, (out.get(path[i]!) ?? 0) + t.self[i]!);
  }
  return out;
}

describe('V8 .heapprofile: detection', () => {
  const heaps = [
    speedscope('Chrome/69/Heap-20181005T144546.heapprofile'),
    speedscope('node/10.11.0/Heap-20181003T105432.heapprofile'),
    fixturePath('samples/baseline/Heap.20261121.233010.6213.0.001.heapprofile'),
    fixturePath('samples/ddtrace/Heap.20261121.233100.6609.0.001.heapprofile'),
  ];
  it('claims heap profiles from content alone, and the CPU importer does not', () => {
    for (const f of heaps) {
      const head = readText(f).slice(0, 64 * 1024);
      for (const name of ['', 'x.heapprofile', 'x.cpuprofile']) {
        expect(heapprofileImporter.sniff(head, name), f).toBe(true);
        expect(cpuprofileImporter.sniff(head, name), f).toBe(false);
      }
    }
  });

  it('does not claim CPU profiles or traces, whatever their name', () => {
    const others = [
      readText(speedscope('Chrome/65/simple.cpuprofile')),
      readText(speedscope('node/10.11.0/example.cpuprofile')),
      readText(speedscope('Chrome/116/Trace-20230603T221323.json')),
      readText(speedscope('Chrome/69/simple.json')),
      '{"traceEvents":[{"args":{"head":{"callFrame":{},"selfSize":1}}}]}',
    ];
    for (const head of others) expect(heapprofileImporter.sniff(head.slice(0, 64 * 1024), 'x.heapprofile'), head.slice(0, 50)).toBe(false);
    expect(heapprofileImporter.sniff('{}', 'Heap.1.heapprofile')).toBe(true);
    expect(heapprofileImporter.sniff('{}', '')).toBe(false);
  });
});

describe('V8 .heapprofile: against speedscope', () => {
  for (const f of ['Chrome/69/Heap-20181005T144546.heapprofile', 'node/10.11.0/Heap-20181003T105432.heapprofile']) {
    it(`matches speedscope's totals, frames and stacks for ${f}`, async () => {
      const path = speedscope(f);
      const ref = json(`${path}.expected.json`).speedscope_run.profiles[0];
      const stacks = json(`${path}.expected-detail.json`).speedscope_run_profiles[0].stacks_exact as [string, number][];
      for (const name of [f.split('/').pop()!, '']) {
        const p = await load(path, name);
        expect(checkProfile(p)).toEqual([]);
        expect(p.meta.warnings).toEqual([]);
        expect(summary(p)).toMatchObject({ format: 'heapprofile', kind: 'allocations', unit: 'bytes', total: ref.total_weight });
        // speedscope keeps (root) as a frame; we leave it out
        expect(p.frames.length + 1).toBe(ref.frame_count);
        const expected = new Map<string, number>();
        for (const [stack, w] of stacks) if (w > 0) expected.set(stack, (expected.get(stack) ?? 0) + w);
        expect(speedscopeStacks(p)).toEqual(expected);
      }
    });
  }
});

describe('V8 .heapprofile: real runs (fixtures/samples)', () => {
  it('loads the baseline and dd-trace heap profiles', async () => {
    const base = await load(fixturePath('samples/baseline/Heap.20261121.233010.6213.0.001.heapprofile'));
    const dd = await load(fixturePath('samples/ddtrace/Heap.20261121.233100.6609.0.001.heapprofile'), '');
    for (const p of [base, dd]) {
      expect(checkProfile(p)).toEqual([]);
      expect(p.meta).toEqual({ producer: 'node --heap-prof', warnings: [] });
      expect(p.samples).toBeUndefined();
    }
    // totals equal the sum of the files' own `samples` sizes (checked separately): 7,904,464 and 13,078,288 bytes
    expect(summary(base)).toEqual({ format: 'heapprofile', kind: 'allocations', unit: 'bytes', total: 7904464, frames: 53, nodes: 222 });
    expect(summary(dd)).toEqual({ format: 'heapprofile', kind: 'allocations', unit: 'bytes', total: 13078288, frames: 129, nodes: 540 });
    const f = dd.frames;
    const agent = f.file.map((file, i) => (file.includes('node_modules/dd-trace/') ? i : -1)).filter((i) => i >= 0);
    expect(agent.length).toBeGreaterThan(10);
    for (const i of agent) expect(f.category[i]).toBe(Category.Dependency);
    expect(agent.some((i) => f.pkg[i] === 'dd-trace')).toBe(true);
  });
});

describe('V8 .heapprofile: frames, variants, damage', () => {
  const tiny = JSON.stringify({
    head: {
      callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 },
      selfSize: 0,
      id: 1,
      children: [
        {
          callFrame: { functionName: '', scriptId: '5', url: 'file:///srv/app/server.js', lineNumber: 0, columnNumber: 0 },
          selfSize: 100,
          id: 2,
          children: [
            {
              callFrame: { functionName: 'alloc', scriptId: '5', url: 'file:///srv/app/server.js', lineNumber: 9, columnNumber: 4 },
              selfSize: 4096,
              id: 3,
              children: [],
            },
          ],
        },
        {
          callFrame: { functionName: '(V8 API)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 },
          selfSize: 64,
          id: 4,
          children: [],
        },
      ],
    },
    samples: [{ size: 4096, nodeId: 3, ordinal: 1 }],
  });
  const tinyStacks = [
    '(V8 API) 64',
    '(anonymous) file:///srv/app/server.js:1:1 100',
    '(anonymous) file:///srv/app/server.js:1:1;alloc file:///srv/app/server.js:10:5 4096',
  ];

  it('labels frames NAME FILE:LINE:COLUMN, 1-based, without (root)', async () => {
    const p = await importProfile(bytesSource('t.heapprofile', tiny, 9));
    expect(checkProfile(p)).toEqual([]);
    expect(collapse(p)).toEqual(tinyStacks);
  });

  it('reads gzip, CRLF and a byte-order mark', async () => {
    const pretty = '\uFEFF' + JSON.stringify(JSON.parse(tiny), null, 1).replace(/\n/g, '\r\n');
    for (const src of [bytesSource('', new Uint8Array(gzipSync(tiny))), bytesSource('', pretty, 5)]) {
      expect(collapse(await importProfile(src))).toEqual(tinyStacks);
    }
  });

  it('reads the oldest DevTools nodes, whose 1-based positions sit on the node itself', async () => {
    const old = {
      head: {
        functionName: '(root)',
        url: '',
        lineNumber: 0,
        selfSize: 0,
        children: [{ functionName: 'f', url: 'a.js', lineNumber: 3, columnNumber: 7, selfSize: 8, children: [] }],
      },
    };
    const p = await importProfile(bytesSource('', JSON.stringify(old)));
    expect(collapse(p)).toEqual(['f a.js:3:7 8']);
  });

  it('walks a 50,000-deep allocation tree without recursion', async () => {
    const depth = 50_000;
    // built as text: the test must not recurse either
    let text = '';
    for (let i = 0; i < depth; i++)
      text += `{"callFrame":{"functionName":"f${i % 3}","url":"d.js","lineNumber":${i % 3},"columnNumber":0},"selfSize":${i === depth - 1 ? 16 : 1},"children":[`;
    text += ']}'.repeat(depth);
    const p = await importProfile(bytesSource('', `{"head":${text}}`));
    expect(checkProfile(p)).toEqual([]);
    expect(summary(p)).toMatchObject({ total: depth - 1 + 16, frames: 3, nodes: depth + 1 });
    expect(p.tree.depth[depth]).toBe(depth);
  });

  it('rejects truncated files and files without a head, saying where and why', async () => {
    const cut = tiny.length - 40;
    const err = await importProfile(bytesSource('t.heapprofile', tiny.slice(0, cut))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).offset).toBe(cut);
    expect((err as ImportError).message).toMatch(
      new RegExp(`^t\\.heapprofile \\(byte ${cut}\\): the file ends before the profile is complete`),
    );

    const reject = async (text: string) => {
      const source = await openSource(bytesSource('x.heapprofile', text));
      const e = await heapprofileImporter.parse({ file: 'x.heapprofile', source, options: {} }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ImportError);
      return (e as ImportError).message;
    };
    expect(await reject('{"samples":[]}')).toBe('x.heapprofile: not a V8 heap profile: no "head" allocation tree');
    expect(await reject('{"head":3}')).toBe('x.heapprofile: not a V8 heap profile: "head" is not a node object');
    expect(await reject('[{"ph":"X"}]')).toMatch(/\(byte 1\): not a V8 heap profile: the file is a JSON array/);
  });
});
