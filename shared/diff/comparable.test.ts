import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { load } from '../../test/support/cpuprofile';
import { fixturePath } from '../../test/support/files';
import { comparability } from './comparable';
import { CallTreeBuilder, FrameTableBuilder, finishProfile } from '../model/builders';
import { Category, type Profile, Tier } from '../model/types';

interface RawNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

/** A sampled run whose heaviest function, `hot`, is the leaf of `n` samples (and `cold` of a tenth as many). */
function generated(n: number): Profile {
  const frames = new FrameTableBuilder();
  const tree = new CallTreeBuilder();
  const hot = frames.intern({ name: 'hot', file: 'app.js', line: 1, column: 1, tier: Tier.Unknown, category: Category.App });
  const cold = frames.intern({ name: 'cold', file: 'app.js', line: 9, column: 1, tier: Tier.Unknown, category: Category.App });
  const hotLeaf = tree.child(tree.root, hot);
  const coldLeaf = tree.child(hotLeaf, cold);
  for (let i = 0; i < n; i++) tree.addSample(hotLeaf, 1, 1000 * i);
  for (let i = 0; i < n / 10; i++) tree.addSample(coldLeaf, 1, 1000 * (n + i));
  return finishProfile({
    name: `run of ${n}`,
    format: 'folded',
    kind: 'sampled',
    unit: 'samples',
    frames,
    tree,
    meta: { producer: 'test', warnings: [] },
  });
}

/** perf script's mean period of cpu-clock samples in ms, read from the text (`… 1001001 cpu-clock:`). */
function periodMs(text: string): number {
  const periods = [...text.matchAll(/ (\d+) cpu-clock:/g)].map((m) => Number(m[1]));
  return periods.reduce((x, y) => x + y, 0) / periods.length / 1e6;
}

describe('whether two runs compare', () => {
  it('names the intervals of a run sampled at 99 Hz against the same load at 999 Hz, and nothing else', async () => {
    const slow = fixturePath('samples/baseline/perf.script.txt');
    const fast = fixturePath('samples/baseline/perf.F999.script.txt.gz');
    const a = periodMs(readFileSync(slow, 'utf8'));
    const b = periodMs(gunzipSync(readFileSync(fast)).toString('utf8'));
    const w = comparability(await load(slow), await load(fast), 'absolute');
    expect(w).toEqual([expect.stringContaining(`sampled at different intervals (${a.toFixed(2)} ms and ${b.toFixed(2)} ms)`)]);
  });

  it('says of the baseline and dd-trace runs (sampled alike, same load) only that they are too short to show a 5% change', async () => {
    const basePath = fixturePath('samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile');
    const runPath = fixturePath('samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile');
    // from the raw JSON: samples whose leaf is each function (name, url, line, column), (idle) left out
    const counts = (path: string) => {
      const raw = JSON.parse(readFileSync(path, 'utf8')) as { nodes: RawNode[]; samples: number[] };
      const fn = new Map(raw.nodes.map((n) => [n.id, n.callFrame]));
      const out = new Map<string, number>();
      for (const id of raw.samples) {
        const f = fn.get(id)!;
        if (f.functionName === '(idle)') continue;
        const k = [f.functionName, f.url, f.lineNumber, f.columnNumber].join(' ');
        out.set(k, (out.get(k) ?? 0) + 1);
      }
      return out;
    };
    const base = counts(basePath);
    const [top, a] = [...base].sort((x, y) => y[1] - x[1])[0]!;
    const b = counts(runPath).get(top)!;
    const change = Math.round(1.96 * Math.sqrt(1 / a + 1 / b) * 100);
    const w = comparability(await load(basePath), await load(runPath), 'absolute');
    expect(w).toEqual([
      `the runs are too short to show a 5% change: their heaviest function, ${top.split(' ')[0]}, has ${a} and ${b} samples, so a change in it under ${change}% is sampling noise; record longer or sample more often`,
    ]);
    expect(change).toBeGreaterThan(5);
  });

  it('says nothing of sampling noise when the heaviest function has samples enough for a 5% change', () => {
    const many = generated(5000);
    expect(comparability(many, generated(5200), 'relative')).toEqual([]);
    expect(comparability(generated(400), generated(420), 'relative')).toEqual([
      expect.stringMatching(/too short to show a 5% change: .* 400 and 420 samples/),
    ]);
  });

  it('names two runtimes that differ, where the files say', async () => {
    const base = await load(fixturePath('samples/baseline/node_trace.1.log.gz'));
    expect(base.meta.runtime).toEqual({ node: '20.20.2', v8: '11.3.244.8-node.38' });
    const other = { ...base, meta: { ...base.meta, runtime: { node: '22.12.0', v8: '12.4.254.21-node.21' } } };
    expect(comparability(base, other, 'relative')).toEqual([
      expect.stringContaining('different runtimes (Node.js 20.20.2 and Node.js 22.12.0)'),
    ]);
    expect(comparability(base, base, 'relative')).toEqual([]);
  });

  it('says when runs lasted more than twice as long as each other, under absolute comparison only', async () => {
    const base = await load(fixturePath('samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile'));
    const longer = { ...base, meta: { ...base.meta, endTime: base.meta.startTime! + (base.meta.endTime! - base.meta.startTime!) * 3 } };
    const bySize = (w: string[]) => w.filter((m) => !m.includes('too short to show'));
    expect(bySize(comparability(base, longer, 'absolute'))).toEqual([expect.stringMatching(/^the runs lasted [\d.]+ s and [\d.]+ s/)]);
    expect(bySize(comparability(base, longer, 'relative'))).toEqual([]);
  });
});
