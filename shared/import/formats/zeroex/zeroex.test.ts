import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { collapse } from '../../../model/collapse';
import { checkProfile } from '../../../model/integrity';
import { Category, type Profile, Tier } from '../../../model/types';
import { FIXTURES, fileSource, fixturePath, folderSource, readText } from '../../../../test/support/files';
import { importProfile } from '../../import-profile';
import { bytesSource, openSource } from '../../io/source';
import { zeroExImporter } from './zeroex';
import { timeColumn } from '../../../model/sample-times';

const zeroEx = { importers: [zeroExImporter] };

/** A node of 0x's own trees (stacks.<pid>.json, written with --tree-debug). */
interface RefNode {
  name: string;
  fn?: string;
  value: number;
  top: number;
  children?: RefNode[];
}

/**
 * 0x's label without its presentation (manifest note 9): ` [INIT]`, the `[CPP]` / `[CODE:Builtin]`
 * type suffix, and `[eval]` for scripts without a name — Flamelens labels those by function name
 * alone, as it does every frame without a file.
 */
function normalizeLabel(label: string): string {
  return label
    .replace(/ \[INIT\]$/, '')
    .replace(/ \[(CPP|SHARED_LIB|CODE|WASM)(:\w+)?\]$/, '')
    .replace(/ \[eval\]:\d+:\d+$/, '');
}

/** 0x's tree as sorted folded lines (leaf counts from `top`), labels normalized. */
function foldTree(root: RefNode): string[] {
  const out = new Map<string, number>();
  const walk: [RefNode, string][] = (root.children ?? []).map((c) => [c, '']);
  while (walk.length > 0) {
    const [n, prefix] = walk.pop()!;
    const path = (prefix ? prefix + ';' : '') + normalizeLabel(n.fn ?? n.name);
    if (n.top > 0) out.set(path, (out.get(path) ?? 0) + n.top);
    for (const c of n.children ?? []) walk.push([c, path]);
  }
  return [...out.keys()].sort(compareCodePoints).map((k) => `${k} ${out.get(k)}`);
}

function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** The heaviest folded lines, for a readable summary. */
function topStacks(lines: string[], n: number): string[] {
  const w = (l: string) => Number(l.slice(l.lastIndexOf(' ') + 1));
  return [...lines].sort((a, b) => w(b) - w(a) || compareCodePoints(a, b)).slice(0, n);
}

async function headOf(path: string): Promise<string> {
  return (await openSource(fileSource(path))).head;
}

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}

function sumOf(lines: string[]): number {
  return lines.reduce((a, l) => a + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

describe('0x: detection', () => {
  const crypto = fixturePath('corpus/0x/test/fixtures/crypto-ticks.json');
  const folder = fixturePath('samples/baseline/0x');

  it('recognises each 0x file from its content, with and without a file name', async () => {
    const v8 = readdirSync(folder).find((f) => f.endsWith('.log.json.gz'))!;
    for (const f of [crypto, join(folder, 'ticks.json.gz'), join(folder, v8), join(folder, 'flamegraph.html')]) {
      const head = await headOf(f);
      expect(zeroExImporter.sniff(head, ''), f).toBe(true);
      expect(zeroExImporter.sniff(head, f.split('/').pop()!), f).toBe(true);
    }
  });

  it('claims no other fixture: profiles, traces, folded and perf text, 0x trees and raw logs', async () => {
    const others = allFiles(FIXTURES).filter((f) => !/\/0x\/(ticks|isolate-.*\.json|flamegraph)|crypto-ticks\.json$|\.zip$|\.md$/.test(f));
    expect(others.length).toBeGreaterThan(300);
    for (const f of others) expect(zeroExImporter.sniff(await headOf(f), ''), f).toBe(false);
    for (const text of ['[[1,2],[3]]', '[{"name":"x","ph":"X"}]', '{"code":[1,2]}', '<!DOCTYPE html><html><head></head></html>'])
      expect(zeroExImporter.sniff(text, 'ticks.json')).toBe(false);
  });

  it('picks the best file of a 0x folder and no file of other folders', () => {
    const real = readdirSync(folder);
    expect(zeroExImporter.pickFromFolder!(real)).toBe('ticks.json.gz');
    const v8 = real.find((f) => f.endsWith('.log.json.gz'))!;
    expect(zeroExImporter.pickFromFolder!(real.filter((f) => !f.startsWith('ticks')))).toBe(v8);
    expect(zeroExImporter.pickFromFolder!(['meta.json', 'flamegraph.html'])).toBe('flamegraph.html');
    expect(zeroExImporter.pickFromFolder!(['isolate-0x1-1-1-v8.log', 'meta.json'])).toBe('isolate-0x1-1-1-v8.log');
    expect(zeroExImporter.pickFromFolder!(['ticks.json', 'isolate-0x1-2-2-v8.json'])).toBe('ticks.json');
    expect(zeroExImporter.pickFromFolder!(['CPU.1.cpuprofile', 'notes.txt'])).toBeUndefined();
    expect(zeroExImporter.pickFromFolder!(['index.html', 'data.json'])).toBeUndefined();
  });

  it('explains what to do with a raw V8 log', async () => {
    const src = bytesSource('isolate-0x1-1-1-v8.log', 'v8-version,11,3,244,8,0,0\nshared-library,"/usr/bin/node"\n');
    const folderSrc = { name: '1.0x', files: [src, bytesSource('meta.json', '{}')] };
    await expect(importProfile(folderSrc, zeroEx)).rejects.toThrow(/--prof-process --preprocess/);
  });
});

describe('0x: crypto-ticks.json (0x test fixture) against 0x ticksToTree', () => {
  const dir = fixturePath('corpus/0x/test/fixtures');

  it("gives the stacks and counts of 0x's merged tree", async () => {
    // The reference keeps 0x's labels ([INIT], [CPP], "(anonymous) [eval]:1:1"): manifest note 9.
    const expected = readText(join(dir, 'crypto-ticks.merged-tree-as-folded.txt'))
      .trim()
      .split('\n')
      .map((l) => {
        const cut = l.lastIndexOf(' ');
        return `${l.slice(0, cut).split(';').map(normalizeLabel).join(';')} ${l.slice(cut + 1)}`;
      })
      .sort();
    for (const name of ['crypto-ticks.json', '']) {
      const p = await importProfile(fileSource(join(dir, 'crypto-ticks.json'), name, 4096));
      expect(checkProfile(p)).toEqual([]);
      expect(p.format).toBe('0x');
      expect(p.kind).toBe('sampled');
      expect(p.unit).toBe('samples');
      expect(p.tree.total[0]).toBe(20);
      expect(collapse(p).sort()).toEqual(expected);
      // 0x's preload script (no-cluster.js) is left out, as 0x does.
      expect(p.frames.file.some((f) => f.includes('preload'))).toBe(false);
    }
  });
});

interface Run {
  variant: string;
  dir: string;
  reference: RefNode;
  folded: string[];
  v8: string;
}

function loadRun(variant: string): Run {
  const dir = fixturePath('samples', variant, '0x');
  const names = readdirSync(dir);
  const stacks = names.find((f) => /^stacks\.\d+\.json\.gz$/.test(f))!;
  const trees = JSON.parse(gunzipSync(readFileSync(join(dir, stacks))).toString('utf8')) as { merged: RefNode; unmerged: RefNode };
  // The merged tree leaves out inlinable frames, so compare with the unmerged one (same root value).
  expect(trees.merged.value).toBe(trees.unmerged.value);
  return { variant, dir, reference: trees.unmerged, folded: foldTree(trees.unmerged), v8: names.find((f) => f.endsWith('.log.json.gz'))! };
}

function summary(p: Profile, top = 5): { total: number; stacks: string[] } {
  return { total: p.tree.total[0]!, stacks: topStacks(collapse(p), top) };
}

describe.each(['baseline', 'ddtrace'])('0x: real 0x 6.0.0 output, %s run', (variant) => {
  const run = loadRun(variant);
  const rootValue = run.reference.value;

  it("imports the folder (ticks.json) with 0x's stacks and counts", async () => {
    const p = await importProfile(folderSource(run.dir));
    expect(checkProfile(p)).toEqual([]);
    expect(p.name).toBe('0x');
    expect(p.meta.producer).toBe('0x (ticks.json)');
    expect(p.tree.total[0]).toBe(rootValue);
    expect(collapse(p)).toEqual(run.folded);
    expect(summary(p)).toEqual({ total: rootValue, stacks: topStacks(run.folded, 5) });
    expect(p.meta.warnings.join('\n')).toMatch(/ticks had no frame/);
  });

  for (const name of ['ticks.json.gz', '']) {
    it(`imports ticks.json alone (name "${name}")`, async () => {
      const p = await importProfile(fileSource(join(run.dir, 'ticks.json.gz'), name, 32 * 1024));
      expect(checkProfile(p)).toEqual([]);
      expect(p.format).toBe('0x');
      expect(collapse(p)).toEqual(run.folded);
      expect(p.samples).toBeUndefined();
    });

    it(`imports flamegraph.html alone, reading 0x's embedded tree (name "${name === '' ? '' : 'flamegraph.html'}")`, async () => {
      const p = await importProfile(fileSource(join(run.dir, 'flamegraph.html'), name && 'flamegraph.html', 7777));
      expect(checkProfile(p)).toEqual([]);
      expect(p.meta.producer).toBe('0x (flamegraph.html)');
      expect(p.tree.total[0]).toBe(rootValue);
      expect(collapse(p)).toEqual(run.folded);
    });

    it(`imports the isolate v8.log.json alone, with tick times (name "${name && 'isolate…'}")`, async () => {
      const p = await importProfile(fileSource(join(run.dir, run.v8), name && run.v8, 64 * 1024));
      expect(checkProfile(p)).toEqual([]);
      expect(p.meta.producer).toBe('0x (node --prof-process --preprocess)');
      // 0x leaves out the first tick (v8-log-to-ticks.js keeps `tick.tm > firstTick + collectDelay`);
      // in the ddtrace run that tick has frames, so this file has one sample more than 0x's tree.
      const extra = p.tree.total[0]! - rootValue;
      expect(extra).toBe(variant === 'ddtrace' ? 1 : 0);
      const ours = collapse(p);
      if (extra === 0) expect(ours).toEqual(run.folded);
      else {
        const diff = ours.filter((l) => !run.folded.includes(l));
        expect(diff.length).toBeLessThanOrEqual(2);
        expect(sumOf(ours) - sumOf(run.folded)).toBe(1);
      }
      const s = p.samples!;
      expect(s.length).toBe(p.tree.total[0]);
      for (let i = 1, time = timeColumn(s); i < s.length; i++) expect(time[i]!).toBeGreaterThanOrEqual(time[i - 1]!);
      expect(p.meta.startTime).toBe(timeColumn(s)[0]);
      expect(p.meta.endTime).toBe(timeColumn(s)[s.length - 1]);
      expect(p.meta.sampleInterval).toBeGreaterThan(500);
      expect(p.meta.sampleInterval).toBeLessThan(5000);
    });
  }

  it('keeps V8 tiers and locations, and sorts frames into categories', async () => {
    const p = await importProfile(fileSource(join(run.dir, 'ticks.json.gz')));
    const f = p.frames;
    const tiers = new Set(Array.from(f.tier));
    for (const t of [Tier.Interpreted, Tier.Baseline, Tier.Optimized]) expect(tiers.has(t)).toBe(true);
    const find = (pred: (i: number) => boolean) => Array.from({ length: f.length }, (_, i) => i).find(pred);
    const emit = find((i) => f.name[i] === 'emit' && f.file[i] === 'node:events')!;
    expect(emit).toBeDefined();
    expect(f.category[emit]).toBe(Category.NodeCore);
    expect(f.line[emit]).toBeGreaterThan(0);
    expect(f.column[emit]).toBeGreaterThan(0);
    const getter = find((i) => f.name[i] === 'get pathname')!;
    if (getter !== undefined) expect(f.file[getter]).toBe('node:internal/url');
    const fastify = find((i) => f.pkg[i] === 'fastify')!;
    expect(f.category[fastify]).toBe(Category.Dependency);
    const libc = find((i) => f.name[i] === '/usr/lib/x86_64-linux-gnu/libc.so.6')!;
    expect(f.category[libc]).toBe(Category.Native);
    const glibc = find((i) => f.name[i]!.startsWith('__write@@GLIBC'));
    if (glibc !== undefined) expect(f.category[glibc]).toBe(Category.Native);
  });
});

describe('0x: dd-trace run', () => {
  it('shows dd-trace frames as the dd-trace dependency on many stacks', async () => {
    const p = await importProfile(folderSource(fixturePath('samples/ddtrace/0x')), zeroEx);
    const f = p.frames;
    const dd = new Set<number>();
    for (let i = 0; i < f.length; i++) {
      if (f.file[i]!.includes('node_modules/dd-trace/')) {
        expect(f.category[i]).toBe(Category.Dependency);
        expect(f.pkg[i]).toBe('dd-trace');
        dd.add(i);
      }
    }
    expect(dd.size).toBeGreaterThan(50);
    // Samples with a dd-trace frame anywhere on the stack.
    const t = p.tree;
    let onStack = 0;
    for (let i = 1; i < t.length; i++) {
      if (!dd.has(t.frame[i]!)) continue;
      onStack += t.total[i]!;
      i = t.end[i]! - 1; // the subtree is counted once
    }
    expect(onStack / t.total[0]!).toBeGreaterThan(0.2);
  });
});

describe('0x: older and odd inputs', () => {
  it('reads Node 8 --prof-process --preprocess JSON (speedscope sample) with macOS nm names', async () => {
    const zip = readFileSync(fixturePath('corpus/speedscope/sample/profiles/node/8.5.0/simple.v8log.json.zip'));
    const json = unzipFirst(zip);
    const parsed = JSON.parse(json.toString('utf8')) as { ticks: unknown[] };
    for (const name of ['simple.v8log.json', '']) {
      const p = await importProfile(bytesSource(name, new Uint8Array(json), 10_000), zeroEx);
      expect(checkProfile(p)).toEqual([]);
      // speedscope imports 26 ticks from this file (corpus expected.json: 26 frames, 26 ticks).
      expect(p.tree.total[0]).toBe(parsed.ticks.length);
      expect(p.samples!.length).toBe(26);
      expect(p.frames.name.some((n) => /^[tT] /.test(n))).toBe(false);
      const startup = p.frames.name.indexOf('startup');
      expect(p.frames.file[startup]).toBe('bootstrap_node.js');
      expect(p.frames.line[startup]).toBe(12);
      expect(p.frames.column[startup]).toBe(19);
    }
  });

  it('reads the same stacks from JSON that is pretty-printed, cut off or split byte by byte', async () => {
    const ticks = [
      [
        { name: ' /app/a.js:1:1', type: 'JS', kind: 'Unopt' },
        { name: 'handler /app/a.js:3:5', type: 'JS', kind: 'Opt' },
      ],
      [
        { name: ' /app/a.js:1:1', type: 'JS', kind: 'Unopt' },
        { name: 'uv_run', type: 'CPP' },
      ],
      [],
    ];
    const pretty = JSON.stringify(ticks, null, 2);
    const a = await importProfile(bytesSource('', pretty, 1));
    expect(collapse(a)).toEqual(['(anonymous) /app/a.js:1:1;handler /app/a.js:3:5 1', '(anonymous) /app/a.js:1:1;uv_run 1']);
    expect(a.frames.tier[a.frames.name.indexOf('handler')]).toBe(Tier.Optimized);
    const cut = JSON.stringify(ticks).slice(0, -10);
    const b = await importProfile(bytesSource('', cut));
    expect(b.tree.total[0]).toBe(1);
    expect(b.meta.warnings.join()).toMatch(/cut off/);
  });

  it('reads a minimal page with the trees, also when every byte is its own chunk', async () => {
    const tree = {
      merged: { name: 'all stacks', value: 3, top: 0, children: [] },
      unmerged: {
        name: 'all stacks',
        value: 3,
        top: 0,
        children: [
          {
            S: 2,
            name: '*get x /a b/c.js:1:2 [INIT]',
            fn: 'get x /a b/c.js:1:2 [INIT]',
            value: 3,
            top: 1,
            children: [
              { S: 0, name: 'épée [CPP]', fn: 'épée [CPP]', value: 1, top: 1 },
              { S: 0, name: 'q\\"x [CODE:RegExp]', fn: 'q\\"x [CODE:RegExp]', value: 1, top: 1 },
            ],
          },
        ],
      },
    };
    const page = `\n    <html>\n    <head>\n      <meta charset="utf-8">\n      <style> /*! TACHYONS v4.12.0 */ </style></head><body><script>g.visualizer = f(); visualizer(${JSON.stringify(tree)}, {"title":"t"})</script></body></html>`;
    for (const chunk of [1, 5, 1 << 20]) {
      const p = await importProfile(bytesSource('', page, chunk));
      expect(checkProfile(p)).toEqual([]);
      expect(collapse(p)).toEqual(['get x /a b/c.js:1:2 1', 'get x /a b/c.js:1:2;q\\"x 1', 'get x /a b/c.js:1:2;épée 1']);
      const f = p.frames;
      expect(f.tier[f.name.indexOf('get x')]).toBe(Tier.Optimized);
      expect(f.category[f.name.indexOf('q\\"x')]).toBe(Category.RegExp);
    }
    await expect(importProfile(bytesSource('', page.slice(0, page.indexOf('"unmerged"') + 40)))).rejects.toThrow(/cut off/);
  });
});

/** The first member of a zip archive (stored or deflated), enough for the corpus' one-file zips. */
function unzipFirst(zip: Buffer): Buffer {
  expect(zip.readUInt32LE(0)).toBe(0x04034b50);
  const method = zip.readUInt16LE(8);
  const size = zip.readUInt32LE(18);
  const start = 30 + zip.readUInt16LE(26) + zip.readUInt16LE(28);
  const data = zip.subarray(start, start + size);
  return method === 0 ? data : inflateRawSync(data);
}
