/** V8 .cpuprofile importer on made-up and unusual files: frame labels, node links, gzip, truncation, bad input and deep stacks. */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { collapse } from '../../../model/collapse';
import { checkProfile } from '../../../model/integrity';
import { Category, Tier } from '../../../model/types';
import { load, speedscope, summary, zeroEx } from '../../../../test/support/cpuprofile';
import { readText } from '../../../../test/support/files';
import { ImportError } from '../../errors';
import { importProfile } from '../../import-profile';
import { bytesSource, openSource } from '../../io/source';
import { cpuprofileImporter } from './cpuprofile';
import { timeColumn } from '../../../model/sample-times';

const fromText = (text: string, name = 't.cpuprofile') => importProfile(bytesSource(name, text, 7));

/** A modern profile from `[id, name, url, line, column, children]` rows (0-based positions, as V8 writes them). */
function modern(rows: [number, string, string, number, number, number[]][], samples: number[], deltas?: number[]): string {
  const nodes = rows.map(([id, functionName, url, lineNumber, columnNumber, children]) => ({
    id,
    callFrame: { functionName, scriptId: '1', url, lineNumber, columnNumber },
    hitCount: 0,
    children,
  }));
  return JSON.stringify({
    nodes,
    startTime: 1000,
    endTime: 1000 + samples.length * 10,
    samples,
    timeDeltas: deltas ?? samples.map(() => 10),
  });
}

describe('V8 .cpuprofile: frames and labels', () => {
  it('writes NAME FILE:LINE:COLUMN, 1-based, with (anonymous), bare pseudo-frames and no (root)', async () => {
    const text = modern(
      [
        [1, '(root)', '', -1, -1, [2, 3, 4, 5]],
        [2, '', 'file:///srv/app/server.js', 0, 0, [6]],
        [3, '(program)', '', -1, -1, []],
        [4, '(garbage collector)', '', -1, -1, []],
        [5, '(idle)', '', -1, -1, []],
        [6, '*handler', 'file:///srv/app/server.js', 11, 2, []],
      ],
      [6, 6, 3, 4, 5, 2],
    );
    const p = await fromText(text);
    expect(checkProfile(p)).toEqual([]);
    expect(collapse(p)).toEqual([
      '(anonymous) file:///srv/app/server.js:1:1 1',
      '(anonymous) file:///srv/app/server.js:1:1;handler file:///srv/app/server.js:12:3 2',
      '(garbage collector) 1',
      '(idle) 1',
      '(program) 1',
    ]);
    const handler = p.frames.name.indexOf('handler');
    expect(p.frames.tier[handler]).toBe(Tier.Optimized);
    expect(p.frames.category[p.frames.name.indexOf('(garbage collector)')]).toBe(Category.GC);
    expect(p.frames.category[p.frames.name.indexOf('(idle)')]).toBe(Category.Idle);
  });

  it('keeps legacy line numbers, which count from 1 already', async () => {
    // `{"functionName":"parserOnHeadersComplete","url":"_http_common.js","lineNumber":64,…}`
    const p = await load(zeroEx('examples/cpu-profiler/samples.cpuprofile'));
    const i = p.frames.name.indexOf('parserOnHeadersComplete');
    expect([p.frames.file[i], p.frames.line[i], p.frames.column[i], p.frames.category[i]]).toEqual([
      '_http_common.js',
      64,
      0,
      Category.NodeCore,
    ]);
  });

  it('reads nodes out of id order that name their parent instead of their children', async () => {
    const nodes = [
      { id: 3, parent: 2, callFrame: { functionName: 'leaf', url: 'a.js', lineNumber: 4, columnNumber: 0 } },
      { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1, columnNumber: -1 } },
      { id: 2, parent: 1, callFrame: { functionName: 'main', url: 'a.js', lineNumber: 0, columnNumber: 0 } },
    ];
    const p = await fromText(JSON.stringify({ nodes, startTime: 0, endTime: 30, samples: [3, 2, 3], timeDeltas: [1, 10, 10] }), '');
    expect(collapse(p)).toEqual(['main a.js:1:1 1', 'main a.js:1:1;leaf a.js:5:1 2']);
    expect(Array.from(timeColumn(p.samples!))).toEqual([1, 11, 21]);
  });
});

describe('V8 .cpuprofile: damaged and unusual files', () => {
  const simple = readText(speedscope('Chrome/65/simple.cpuprofile'));

  it('reads gzip, CRLF and a byte-order mark', async () => {
    const expected = summary(await fromText(simple));
    const pretty = '\uFEFF' + JSON.stringify(JSON.parse(simple), null, 2).replace(/\n/g, '\r\n');
    const variants = [
      bytesSource('simple.cpuprofile.gz', new Uint8Array(gzipSync(simple)), 100),
      bytesSource('', new Uint8Array(gzipSync(simple))),
      bytesSource('', pretty, 13),
    ];
    for (const v of variants) {
      const p = await importProfile(v);
      expect(summary(p)).toEqual(expected);
      expect(collapse(p)).toEqual(['(anonymous) 1', '(anonymous);a;b;d 14', '(anonymous);a;c;d 14']);
    }
  });

  it('rejects a truncated file, naming the byte where it ends', async () => {
    // cut inside "nodes", inside "samples" and inside "timeDeltas"
    for (const cut of [300, simple.indexOf('"samples"') + 20, simple.length - 10]) {
      const err = await fromText(simple.slice(0, cut)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImportError);
      expect((err as ImportError).offset).toBe(cut);
      expect((err as ImportError).message).toMatch(new RegExp(`\\(byte ${cut}\\): the file ends before the profile is complete`));
    }
  });

  it('says what is wrong with files that are not CPU profiles', async () => {
    const reject = async (text: string) => {
      const source = await openSource(bytesSource('x.cpuprofile', text));
      const err = await cpuprofileImporter.parse({ file: 'x.cpuprofile', source, options: {} }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImportError);
      return (err as ImportError).message;
    };
    expect(await reject('{"startTime":1,"endTime":2}')).toBe('x.cpuprofile: not a V8 CPU profile: no "nodes" (and no legacy "head")');
    expect(await reject('[{"ph":"X"}]')).toMatch(/\(byte 1\): not a V8 CPU profile: the file is a JSON array/);
    expect(await reject('{"nodes":[{"id":1,"callFrame":{}}],"samples":[1,"x"]}')).toBe(
      'x.cpuprofile (byte 48): "samples" holds "x", expected a number',
    );
    expect(await reject('{"nodes":[{"callFrame":{}}]}')).toBe('x.cpuprofile (byte 10): a node in "nodes" has no numeric "id"');
  });

  it('builds a 50,000-deep stack without recursion, from children or from parent links', async () => {
    const depth = 50_000;
    const rows: [number, string, string, number, number, number[]][] = [[1, '(root)', '', -1, -1, [2]]];
    for (let id = 2; id <= depth; id++) rows.push([id, `f${id % 5}`, 'deep.js', id % 100, 0, id < depth ? [id + 1] : []]);
    rows.reverse(); // leaf first: children are named before they are read
    const big = (text: string) => importProfile(bytesSource('deep.cpuprofile', text));
    const viaChildren = await big(modern(rows, [depth, depth, 2]));
    const nodes = rows.map(([id, functionName, url, lineNumber]) => ({
      id,
      ...(id > 1 ? { parent: id - 1 } : {}),
      callFrame: { functionName, url, lineNumber, columnNumber: 0 },
    }));
    const viaParents = await big(JSON.stringify({ nodes, startTime: 0, endTime: 3, samples: [depth, depth, 2], timeDeltas: [1, 1, 1] }));
    for (const p of [viaChildren, viaParents]) {
      expect(checkProfile(p)).toEqual([]);
      expect(summary(p)).toMatchObject({ total: 3, nodes: depth, frames: 100 });
      expect(p.tree.depth.reduce((a, b) => Math.max(a, b), 0)).toBe(depth - 1);
      const stacks = collapse(p);
      expect(stacks.map((s) => s.split(';').length)).toEqual([1, depth - 1]);
    }
  });

  it('survives a parent cycle and ids that point nowhere, with warnings', async () => {
    const nodes = [
      { id: 1, callFrame: { functionName: '(root)', url: '' }, children: [2, 99] },
      { id: 2, callFrame: { functionName: 'main', url: 'a.js', lineNumber: 0 }, children: [] },
      // 3 → 4 → 3: a loop with no way to the root
      { id: 3, parent: 4, callFrame: { functionName: 'x', url: 'a.js', lineNumber: 1 } },
      { id: 4, parent: 3, callFrame: { functionName: 'y', url: 'a.js', lineNumber: 2 } },
      { id: 5, parent: 77, callFrame: { functionName: 'orphan', url: 'a.js', lineNumber: 3 } },
    ];
    const p = await fromText(JSON.stringify({ nodes, startTime: 0, endTime: 5, samples: [2, 3, 4, 5, 55], timeDeltas: [1, 1, 1, 1, 1] }));
    expect(checkProfile(p)).toEqual([]);
    expect(p.tree.total[0]).toBe(4);
    expect(collapse(p)).toEqual(['main a.js:1:0 1', 'orphan a.js:4:0 1', 'y a.js:3:0 1', 'y a.js:3:0;x a.js:2:0 1']);
    expect(p.meta.warnings).toEqual([
      '2 parent or child link(s) name node ids that are not in the file (first: node 5 names parent 77); nodes without a parent were put under the root',
      '1 cycle(s) in the parent links (first through node 4); each was cut and put under the root',
      '1 sample(s) name node ids that are not in the file (first: 55); they were left out',
    ]);
  });

  it('handles a self-parent and a sample of (root) without hanging', async () => {
    const nodes = [
      { id: 1, callFrame: { functionName: '(root)', url: '' } },
      { id: 2, parent: 2, callFrame: { functionName: 'me', url: '' } },
    ];
    const p = await fromText(JSON.stringify({ nodes, samples: [1, 2], timeDeltas: [0, 5] }));
    expect(checkProfile(p)).toEqual([]);
    expect(p.tree.total[0]).toBe(2);
    expect(collapse(p)).toEqual(['me 1']);
  });

  it('warns when timeDeltas are fewer than samples', async () => {
    const p = await fromText(
      modern(
        [
          [1, '(root)', '', -1, -1, [2]],
          [2, 'f', '', 0, 0, []],
        ],
        [2, 2, 2],
        [5, 5],
      ),
    );
    expect(p.meta.warnings).toEqual(['"timeDeltas" has 2 entries for 3 samples; the samples without one have no time']);
    expect(Array.from(timeColumn(p.samples!))).toEqual([1005, 1010, NaN]);
  });
});
