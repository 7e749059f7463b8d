import { describe, expect, it } from 'vitest';
import { folded } from '../../test/support/folded';
import type { Profile } from '../model/types';
import { BASE_WEIGHT, FUNCTIONS, type Plan, random, repeat } from '../../test/support/repeats';
import { type RepeatsOptions, benjaminiHochberg, compareRepeats, welch } from './repeats';
import { loadTDistribution } from './t-distribution';

const t = await loadTDistribution();

async function variant(seed: number, k: number, plan: Plan = {}): Promise<Profile[]> {
  const rng = random(seed);
  return Promise.all(Array.from({ length: k }, () => folded(repeat(rng, plan))));
}

const keyOf = (p: Profile, name: string) => p.frames.key[p.frames.name.indexOf(name)]!;

const SLOW = 3; // +12%
const FAST = 7; // −15%
const PLANTED: Plan = { factor: { [SLOW]: 1.12, [FAST]: 0.85 }, extra: 3000 };

/** Every planted change is flagged with its sign and at most 5% of the unchanged functions are. */
function expectPlantedFound(base: Profile[], run: Profile[], opts: RepeatsOptions = {}): void {
  const c = compareRepeats(t, base, run, opts);
  expect(c.repeats).toEqual({ baseline: 5, run: 5 });
  const p0 = run[0]!;
  const byKey = new Map(c.functions.map((f) => [f.key, f]));
  const slow = byKey.get(keyOf(p0, `f${SLOW}`))!;
  const fast = byKey.get(keyOf(p0, `f${FAST}`))!;
  const added = byKey.get(keyOf(p0, 'newFn'))!;
  for (const [f, sign] of [
    [slow, 1],
    [fast, -1],
    [added, 1],
  ] as const) {
    expect(f.significant).toBe(true);
    expect(Math.sign(f.delta)).toBe(sign);
    expect(Math.sign(f.interval!.low)).toBe(sign); // the whole interval on one side of 0
    expect(Math.sign(f.interval!.high)).toBe(sign);
  }
  const planted = new Set([slow.key, fast.key, added.key]);
  // the path functions main and handler carry the sum of the changes in their total, not in their self
  const unchanged = c.functions.filter((f) => !planted.has(f.key) && /f\d+$/.test(f.key.split(' ')[0]!));
  expect(unchanged.length).toBe(FUNCTIONS - 2);
  expect(unchanged.filter((f) => f.significant).length).toBeLessThanOrEqual(Math.floor(0.05 * unchanged.length));
}

/** Two sets of repeats of one variant: at most 5% of the functions are flagged. */
function expectFewFlagged(base: Profile[], again: Profile[], opts: RepeatsOptions = {}): void {
  const same = compareRepeats(t, base, again, opts).functions.filter((f) => f.p !== undefined);
  expect(same.filter((f) => f.significant).length).toBeLessThanOrEqual(Math.floor(0.05 * same.length));
}

describe('changes across repeated runs', () => {
  it.each([
    [1, 2, 3],
    [11, 12, 13],
    [21, 22, 23],
  ])(
    'flags every planted change with its sign and few unchanged functions; the baseline against itself flags few (seeds %i, %i, %i)',
    async (s1, s2, s3) => {
      const base = await variant(s1, 5);
      expectPlantedFound(base, await variant(s2, 5, PLANTED));
      expectFewFlagged(base, await variant(s3, 5));
    },
  );

  it.each([
    [1, 2, 3],
    [11, 12, 13],
    [21, 22, 23],
  ])(
    'compared as shares, a loaded machine scaling each repeat as a whole (× 0.7 to 1.3) hides no planted change and flags few unchanged functions (seeds %i, %i, %i)',
    async (s1, s2, s3) => {
      const base = await variant(s1, 5, { swing: 0.3 });
      expectPlantedFound(base, await variant(s2, 5, { ...PLANTED, swing: 0.3 }), { relative: true });
      expectFewFlagged(base, await variant(s3, 5, { swing: 0.3 }), { relative: true });
    },
  );

  it.each([1, 10, 13])(
    'hundreds of functions of a sample or two are left out of the family, so they do not hide a noisy new function (seed %i)',
    async (seed) => {
      // the new function varies 20% from run to run, as on a loaded machine
      const base = await variant(seed, 5, { tiny: 300 });
      const run = await variant(seed + 1, 5, { tiny: 300, extra: 3000, extraDrift: 0.2 });
      const c = compareRepeats(t, base, run);
      expect(c.floorSamples).toBeCloseTo(3.14, 2);
      const big = c.functions.filter((f) => /^(f\d+|newFn)\b/.test(f.key));
      expect(c.tested).toBe(big.length);
      expect(c.functions.filter((f) => f.key.startsWith('tiny')).every((f) => f.significant === false)).toBe(true);
      const added = c.functions.find((f) => f.key.startsWith('newFn'))!;
      expect(added.significant).toBe(true);
      // the same p-values, with every function in the family, would not flag it
      const all = c.functions.filter((f) => f.p !== undefined);
      expect(all.length).toBeGreaterThan(300);
      expect(
        benjaminiHochberg(
          all.map((f) => f.p!),
          0.05,
        )[all.indexOf(added)],
      ).toBe(false);
      // which functions are tested does not depend on which side is the baseline
      expect(compareRepeats(t, run, base).tested).toBe(c.tested);
    },
  );

  it("judges what is compared: a new heavy function shrinks the others' shares, not their time", async () => {
    const base = await variant(1, 5);
    const run = await variant(2, 5, { extra: 30000 });
    const fs = (c: ReturnType<typeof compareRepeats>) => c.functions.filter((f) => /^f\d+\b/.test(f.key));
    const time = compareRepeats(t, base, run);
    const share = compareRepeats(t, base, run, { relative: true });
    // a verdict never contradicts the interval beside it
    for (const c of [time, share])
      for (const f of c.functions.filter((x) => x.significant)) expect(f.interval!.low > 0 || f.interval!.high < 0).toBe(true);
    expect(fs(time).filter((f) => f.significant).length).toBeLessThanOrEqual(Math.floor(0.05 * fs(time).length));
    expect(fs(share).filter((f) => f.significant && f.delta < 0).length).toBeGreaterThan(fs(share).length / 2);
  });

  it('is needed: a test that pools the repeats and ignores their spread flags many unchanged functions', async () => {
    const base = await variant(1, 5);
    const again = await variant(3, 5);
    // pooled sample counts with a Poisson (sampling-only) standard error, as one profile against one
    const counts = (ps: Profile[]) => {
      const m = new Map<string, number>();
      for (const p of ps)
        for (let i = 1; i < p.tree.length; i++)
          m.set(p.frames.key[p.tree.frame[i]!]!, (m.get(p.frames.key[p.tree.frame[i]!]!) ?? 0) + p.tree.self[i]!);
      return m;
    };
    const a = counts(base);
    const b = counts(again);
    let flagged = 0;
    let tested = 0;
    for (const [k, x] of a) {
      const y = b.get(k) ?? 0;
      if (x + y === 0) continue;
      tested++;
      if (Math.abs(y - x) / Math.sqrt(x + y) > 1.96) flagged++;
    }
    expect(flagged / tested).toBeGreaterThan(0.05);
  });

  it("gives the run's total its interval", async () => {
    const base = await variant(1, 5);
    const run = await variant(2, 5, { factor: Object.fromEntries(BASE_WEIGHT.map((_, i) => [i, 1.3])) });
    const total = compareRepeats(t, base, run).total;
    expect(total.ratio).toBeGreaterThan(0.25);
    expect(total.ratio).toBeLessThan(0.35);
    expect(total.ratioInterval!.low).toBeLessThan(0.3);
    expect(total.ratioInterval!.high).toBeGreaterThan(0.3);
    expect(total.ratioInterval!.high - total.ratioInterval!.low).toBeLessThan(0.1);
  });

  it('one profile a side gives the change without an interval or a verdict', async () => {
    const c = compareRepeats(t, await variant(1, 1), await variant(2, 1));
    expect(c.functions.every((f) => f.interval === undefined && f.significant === undefined)).toBe(true);
  });
});

describe('the statistics', () => {
  it("Welch's interval and p-value agree with a worked example", () => {
    // SciPy 1.17: stats.ttest_ind(x, y, equal_var=False) → t = -2.4554, df = 24.989,
    // p = 0.021378, confidence_interval(0.95) of (x − y): -3.984096 to -0.349237
    const x = [27.5, 21, 19, 23.6, 17, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19, 21.7, 21.4];
    const y = [27.1, 22, 20.8, 23.4, 23.4, 23.5, 25.8, 22, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4];
    const c = welch(t, y, x); // delta = mean(x) − mean(y)
    expect(c.p!).toBeCloseTo(0.021378, 5);
    expect(c.interval!.low).toBeCloseTo(-3.984096, 5);
    expect(c.interval!.high).toBeCloseTo(-0.349237, 5);
  });

  it('Benjamini–Hochberg keeps the p-values under the stepped line', () => {
    // Benjamini & Hochberg (1995), m = 15: at q = 0.05 the four smallest are discoveries
    const p = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.324, 0.4262, 0.5719, 0.6528, 0.759, 1];
    expect(benjaminiHochberg(p, 0.05).filter(Boolean).length).toBe(4);
  });
});
