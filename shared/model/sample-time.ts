/**
 * Time weights of sampled profiles. Sampled importers weigh every sample 1 (unit 'samples', so
 * the tree counts samples, which is what `flamelens collapse` prints by default) and keep each
 * sample's timestamp in the `SampleTable`. Time-weighted views are derived from those
 * timestamps here instead of being stored twice.
 *
 * A sample stands for the stack from its own timestamp until the next sample's; the last sample
 * has no successor and gets 0. This is how speedscope and Chrome DevTools weigh V8 CPU
 * profiles, so the sums reproduce their microsecond totals.
 */
import type { Profile, SampleTable } from './types';

/** How long each sample lasted, in the unit of `SampleTable.time` (microseconds). */
export function sampleDurations(s: SampleTable): Float64Array {
  const d = new Float64Array(s.length);
  for (let i = 0; i + 1 < s.length; i++) {
    const w = s.time[i + 1]! - s.time[i]!;
    // Unknown (NaN) or backwards timestamps give no time rather than a negative width.
    d[i] = w > 0 ? w : 0;
  }
  return d;
}

/**
 * Self weight of every call-tree node in microseconds, from the sample table; usable wherever a
 * weight column is taken (`collapse(p, sampleTimeSelf(p)!)`). Undefined when the profile has no
 * samples.
 */
export function sampleTimeSelf(p: Profile): Float64Array | undefined {
  const s = p.samples;
  if (!s) return undefined;
  const self = new Float64Array(p.tree.length);
  const d = sampleDurations(s);
  for (let i = 0; i < s.length; i++) self[s.node[i]!]! += d[i]!;
  return self;
}
