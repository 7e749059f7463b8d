/**
 * How `flamelens diff` loads its two sides, and repeated runs: a side named as a folder of several profiles of one kind
 * (not one process's per-thread files) is a variant of that many repeats. The diff is then of
 * each side's mean profile, and every function's change gets its 95% interval across repeats and
 * a verdict after false-discovery-rate control (shared/diff/repeats.ts).
 */
import { readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { type RepeatsComparison, compareRepeats } from '../../shared/diff/repeats';
import { type TDistribution, loadTDistribution } from '../../shared/diff/t-distribution';
import { meanProfile } from '../../shared/model/mean';
import type { Profile } from '../../shared/model/types';
import { busyWeights } from '../../shared/search/busy';
import { defaultWeighing, weighProfile, weighable } from '../../shared/model/weigh';
import type { Parsed } from './diff-args';
import { CliError } from './errors';
import { loadThread } from './load';
import type { Sink } from './output';
import { type RunArg, loadRun } from './runs';

/** The kind of a profile file by its extension, a trailing `.gz` left out. */
const kindOf = (name: string) => extname(name.replace(/\.gz$/i, '')).toLowerCase();

/** The repeats a side names: the profiles of a folder holding two or more; undefined for any other side. */
export function repeatFiles(side: RunArg): string[] | undefined {
  if (side.files) return undefined;
  let names: string[];
  try {
    if (!statSync(side.label).isDirectory()) return undefined;
    names = readdirSync(side.label)
      .filter((n) => !n.startsWith('.') && statSync(join(side.label, n)).isFile())
      .sort();
  } catch {
    return undefined;
  }
  if (names.length < 2) return undefined;
  const kinds = [...new Set(names.map(kindOf))];
  if (kinds.length > 1)
    throw new CliError(
      `${side.label} holds profiles of several kinds (${kinds.map((k) => k || 'no extension').join(', ')}); as repeats of one variant a folder holds one kind`,
    );
  return names.map((n) => join(side.label, n));
}

export interface RepeatSides {
  /** each side's mean profile, what the diff compares */
  means: [Profile, Profile];
  stats: RepeatsComparison;
}

/** The mean of each side's weighed repeats and the per-function comparison across them. */
export function compareSides(t: TDistribution, label: [string, string], sides: [Profile[], Profile[]], excludeIdle: boolean): RepeatSides {
  const stats = compareRepeats(t, sides[0], sides[1], {
    measure: 'self',
    ...(excludeIdle ? { weights: (p: Profile) => busyWeights(p) } : {}),
  });
  return { means: [meanProfile(label[0], sides[0]), meanProfile(label[1], sides[1])], stats };
}

/**
 * The headline's line about repeats: how many, the change's interval, how many functions changed
 * beyond noise among those with enough samples to test.
 */
export function repeatsLine(s: RepeatsComparison): string {
  const pct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}%`;
  const ci = s.total.ratioInterval;
  const changed = s.functions.filter((f) => f.significant).length;
  return (
    `repeats: ${s.repeats.baseline} baseline, ${s.repeats.run} run` +
    (ci ? `; the change is ${pct(ci.low)} to ${pct(ci.high)} at 95% confidence` : '') +
    `; ${changed} function(s) changed beyond run-to-run noise (Welch's t on each repeat's self time, ` +
    `false discovery rate 5% over the ${s.tested} with enough samples to test)`
  );
}

/**
 * Every profile of both sides weighed as asked, or by default by time where all can be (V8
 * samples are not evenly spaced), else as they are.
 */
function weighSides(a: Parsed, sides: [Profile[], Profile[]]): [Profile[], Profile[]] {
  const all = [...sides[0], ...sides[1]];
  const how = a.weight ?? (all.every((p) => defaultWeighing(p) === 'time') ? 'time' : 'samples');
  if (a.weight !== undefined)
    sides.forEach((list, i) => {
      const path = i === 0 ? a.base : a.run;
      for (const p of list)
        if (!weighable(p, how))
          throw new CliError(
            how === 'time'
              ? `--weight time: ${path} has no sample times to measure time with (it is measured in ${p.unit})`
              : `--weight samples: ${path} has no individual samples (it is measured in ${p.unit})`,
          );
    });
  return [sides[0].map((p) => weighProfile(p, how)), sides[1].map((p) => weighProfile(p, how))];
}

/** The two profiles to compare: each side's, or with repeats on a side, each side's mean, and the statistics across repeats. */
export async function loadSides(a: Parsed, stderr: Sink): Promise<{ base: Profile; run: Profile; stats?: RepeatsComparison }> {
  const repeats = a.sides.map(repeatFiles);
  const loaded = await Promise.all(
    a.sides.map((side, i) =>
      repeats[i]
        ? Promise.all(repeats[i].map((f) => loadThread(f, stderr, a.event, a.thread)))
        : loadRun(side, stderr, a.event, a.thread).then((p) => [p]),
    ),
  );
  const [b, r] = weighSides(a, [loaded[0]!, loaded[1]!]);
  if (!repeats.some(Boolean)) return { base: b[0]!, run: r[0]! };
  if (a.normalize === 'relative')
    throw new CliError('with repeated runs the intervals are of absolute weights: leave out --normalize relative');
  const { means, stats } = compareSides(await loadTDistribution(), [a.base, a.run], [b, r], a.excludeIdle);
  return { base: means[0], run: means[1], stats };
}
