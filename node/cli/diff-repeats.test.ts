import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BASE_WEIGHT, type Plan, random, repeat } from '../../test/support/repeats';
import { capture, captureFailure } from '../../test/support/cli-output';
import { diffCommand } from './diff';

const dir = mkdtempSync(join(tmpdir(), 'flamelens-repeats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A folder of `k` repeats of one variant, as folded files. */
function variant(name: string, seed: number, k: number, plan: Plan = {}): string {
  const rng = random(seed);
  const folder = join(dir, name);
  mkdirSync(folder);
  for (let i = 1; i <= k; i++) writeFileSync(join(folder, `run-${i}.folded`), repeat(rng, plan));
  return folder;
}

interface Report {
  change: number;
  repeats?: { baseline: number; run: number };
  changeInterval?: { low: number; high: number };
  functions: {
    name: string;
    delta: { self: number };
    interval?: { low: number; high: number };
    shareInterval?: { low: number; high: number };
    significant?: boolean;
  }[];
  significance?: { basis: string; tested: number; floorSamples: number; falseDiscoveryRate: number };
}

/** Each repeat's samples by function name, read straight from its folded file. */
function countsOf(folder: string): Map<string, number>[] {
  return readdirSync(folder)
    .sort()
    .map((f) => {
      const m = new Map<string, number>();
      for (const line of readFileSync(join(folder, f), 'utf8').split('\n').filter(Boolean)) {
        const [stack, n] = line.split(' ');
        const leaf = stack!.split(';').at(-1)!;
        m.set(leaf, (m.get(leaf) ?? 0) + Number(n));
      }
      return m;
    });
}
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('flamelens diff with repeated runs', () => {
  const base = variant('baseline', 1, 5);
  const agent = variant('agent', 2, 5, { factor: Object.fromEntries(BASE_WEIGHT.map((_, i) => [i, 1.1])), extra: 3000 });

  it('takes a folder of repeats on each side: intervals, verdicts and the change with its interval', async () => {
    const r = await capture((out) => diffCommand.run([base, agent, '--json', '--top', '0'], out));
    const report = JSON.parse(r.out) as Report;
    expect(report.repeats).toEqual({ baseline: 5, run: 5 });
    expect(report.changeInterval!.low).toBeLessThan(report.change);
    expect(report.changeInterval!.high).toBeGreaterThan(report.change);
    expect(report.changeInterval!.low).toBeGreaterThan(0);
    const added = report.functions.find((f) => f.name === 'newFn')!;
    expect(added.significant).toBe(true);
    expect(added.interval!.low).toBeGreaterThan(0);
    for (const f of report.functions) {
      expect(f.interval!.low).toBeLessThanOrEqual(f.delta.self + 1e-6);
      expect(f.interval!.high).toBeGreaterThanOrEqual(f.delta.self - 1e-6);
    }
    const text = await capture((out) => diffCommand.run([base, agent], out));
    expect(text.out).toMatch(/repeats: 5 baseline, 5 run; the change is \+[\d.]+% to \+[\d.]+% at 95% confidence/);
    // the headline counts every function flagged, also those too small to be listed
    const changed = Number(/(\d+) function\(s\) changed beyond run-to-run noise/.exec(text.out)?.[1]);
    expect(changed).toBeGreaterThanOrEqual(report.functions.filter((f) => f.significant).length);
    expect(changed).toBeLessThanOrEqual(report.significance!.tested);
    expect(text.out).toContain(`over the ${report.significance!.tested} with enough samples to test`);
  });

  it("tests each function's time, for the functions with enough samples, and gives its change in share, as worked out from the files", async () => {
    const report = JSON.parse((await capture((out) => diffCommand.run([base, agent, '--json', '--top', '0'], out))).out) as Report;
    const sides = [countsOf(base), countsOf(agent)];
    // the floor: (z.975 + z.8)² (1/5 + 1/5) samples on average over all ten repeats
    const floor = (1.959964 + 0.841621) ** 2 * 0.4;
    expect(report.significance).toEqual({ basis: 'time', tested: expect.any(Number), floorSamples: 3.14, falseDiscoveryRate: 0.05 });
    const names = new Set(sides.flat().flatMap((m) => [...m.keys()]));
    const enough = [...names].filter((n) => sum(sides.flat().map((m) => m.get(n) ?? 0)) / 10 >= floor);
    expect(report.significance!.tested).toBe(enough.length);
    // Welch's 95% interval of the change in newFn's share of each repeat
    const shares = sides.map((reps) => reps.map((m) => (m.get('newFn') ?? 0) / sum([...m.values()])));
    const mean = (xs: number[]) => sum(xs) / xs.length;
    const v = shares.map((xs) => sum(xs.map((x) => (x - mean(xs)) ** 2)) / (xs.length - 1) / xs.length);
    const se = Math.sqrt(v[0]! + v[1]!);
    const df = se ** 4 / (v[0]! ** 2 / 4 + v[1]! ** 2 / 4);
    const d = mean(shares[1]!) - mean(shares[0]!);
    const added = report.functions.find((f) => f.name === 'newFn')!;
    expect(added.shareInterval!.low).toBeCloseTo(d - tQuantile(0.975, df) * se, 4);
    expect(added.shareInterval!.high).toBeCloseTo(d + tQuantile(0.975, df) * se, 4);
  });

  it('fails a --fail-above gate only when the whole interval is over it', async () => {
    const report = JSON.parse((await capture((out) => diffCommand.run([base, agent, '--json'], out))).out) as Report;
    const low = report.changeInterval!.low * 100;
    const point = report.change * 100;
    expect(point).toBeGreaterThan(low);
    const between = (low + point) / 2; // the point estimate is over it, the interval is not all over it
    expect((await captureFailure((out) => diffCommand.run([base, agent, '--fail-above', String(between)], out))).code).toBe(0);
    const failed = await captureFailure((out) => diffCommand.run([base, agent, '--fail-above', String(low / 2)], out));
    expect(failed.code).toBe(2);
    expect(failed.err).toContain('at 95% confidence');
  });

  it('with one profile a side, the output has no repeats', async () => {
    const one = JSON.parse(
      (await capture((out) => diffCommand.run([join(base, 'run-1.folded'), join(agent, 'run-1.folded'), '--json'], out))).out,
    ) as Report;
    expect(one.repeats).toBeUndefined();
    expect(one.functions.every((f) => f.interval === undefined && f.significant === undefined)).toBe(true);
  });

  it('names a folder of mixed kinds', async () => {
    const mixed = variant('mixed', 3, 2);
    writeFileSync(join(mixed, 'other.cpuprofile'), '{}');
    const r = await captureFailure((out) => diffCommand.run([base, mixed], out));
    expect(r.error?.message).toMatch(/mixed holds profiles of several kinds \(\.cpuprofile, \.folded\)/);
  });
});
