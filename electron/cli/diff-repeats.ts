/**
 * `flamelens diff` with repeated runs: a side named as a folder of several profiles of one kind
 * (not one process's per-thread files) is a variant of that many repeats. The diff is then of
 * each side's mean profile, and every function's change gets its 95% interval across repeats and
 * a verdict after false-discovery-rate control (shared/diff/repeats.ts).
 */
import { readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { type RepeatsComparison, compareRepeats } from '../../shared/diff/repeats';
import { meanProfile } from '../../shared/model/mean';
import type { Profile } from '../../shared/model/types';
import { busyWeights } from '../../shared/search/busy';
import { CliError } from './errors';
import type { RunArg } from './runs';

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
export function compareSides(label: [string, string], sides: [Profile[], Profile[]], excludeIdle: boolean): RepeatSides {
  const stats = compareRepeats(sides[0], sides[1], {
    measure: 'self',
    ...(excludeIdle ? { weights: (p: Profile) => busyWeights(p) } : {}),
  });
  return { means: [meanProfile(label[0], sides[0]), meanProfile(label[1], sides[1])], stats };
}
