import { describe, expect, it } from 'vitest';
import { compareRepeats } from '../../../shared/diff/repeats';
import { meanProfile } from '../../../shared/model/mean';
import type { Profile } from '../../../shared/model/types';
import { folded } from '../../../test/support/folded';
import { type Plan, random, repeat } from '../../../test/support/repeats';
import { beyondNoise, repeatsFor } from './derived-repeats';
import type { Run } from './runs-slice';
import { loadTDistribution } from '../../../shared/diff/t-distribution';

const t = await loadTDistribution();

async function variant(id: string, seed: number, k: number, plan: Plan = {}): Promise<Run> {
  const rng = random(seed);
  const profiles: Profile[] = await Promise.all(Array.from({ length: k }, () => folded(repeat(rng, plan))));
  const mean = meanProfile(id, profiles);
  const names = profiles.map((_, i) => `${i}.folded`);
  return { id, title: id, fileName: id, status: 'ready', profile: mean, repeats: { profiles, names, failed: [], mean } };
}

const keyOf = (p: Profile, name: string) => p.frames.key[p.frames.name.indexOf(name)]!;

describe('repeatsFor', () => {
  it("is compareRepeats of the two runs' repeats with the diff's measure and normalization, once per pair and setting", async () => {
    const base = await variant('baseline', 1, 5);
    const run = await variant('agent', 2, 5, { factor: { 3: 1.12 } });
    const r = repeatsFor(base, run, 'absolute', 'self', true)!;
    const oracle = compareRepeats(t, base.repeats!.profiles, run.repeats!.profiles, { measure: 'self' });
    expect(r.stats.functions.map((f) => [f.key, f.delta, f.interval, f.significant])).toEqual(
      oracle.functions.map((f) => [f.key, f.delta, f.interval, f.significant]),
    );
    expect(repeatsFor(base, run, 'absolute', 'self', true)).toBe(r);
    const shares = repeatsFor(base, run, 'relative', 'total', true)!;
    expect(shares).not.toBe(r);
    const sharesOracle = compareRepeats(t, base.repeats!.profiles, run.repeats!.profiles, { measure: 'total', relative: true });
    expect(shares.stats.functions.map((f) => f.delta)).toEqual(sharesOracle.functions.map((f) => f.delta));

    const f3 = keyOf(run.profile!, 'f3');
    expect(beyondNoise(r, f3)).toBe(true);
    expect(r.byKey.get(f3)!.delta).toBeGreaterThan(0);
    const unchanged = r.stats.functions.filter((f) => !beyondNoise(r, f.key)).length;
    expect(unchanged).toBeGreaterThan(r.stats.functions.length * 0.9);
  });

  it('is undefined with one profile on a side, or one repeat shown alone: the diff is then as it always was', async () => {
    const base = await variant('baseline', 1, 5);
    const run = await variant('agent', 2, 5);
    const single: Run = { ...run, repeats: undefined };
    expect(repeatsFor(base, single, 'absolute', 'self', true)).toBeUndefined();
    expect(repeatsFor(base, { ...run, repeat: 2, profile: run.repeats!.profiles[2]! }, 'absolute', 'self', true)).toBeUndefined();
    expect(repeatsFor(undefined, run, 'absolute', 'self', true)).toBeUndefined();
    expect(beyondNoise(undefined, 'anything')).toBe(true);
  });
});
