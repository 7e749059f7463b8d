/** `flamelens collapse FILE [--weight samples|time|bytes]`: folded stacks on standard output. */
import { collapse } from '../../shared/model/collapse';
import type { Profile } from '../../shared/model/types';
import { CliError } from './errors';

export type WeightChoice = 'samples' | 'time' | 'bytes';

/**
 * Weights for folded output. The profile's own weights are the default (sample counts for sampled
 * formats, span self time for traces, bytes for heap profiles); `time` turns sample counts into
 * microseconds from the samples' timestamps.
 */
export function weightsFor(p: Profile, choice: WeightChoice | undefined): Float64Array {
  if (!choice) return p.tree.self;
  if (choice === 'bytes') {
    if (p.unit !== 'bytes') throw new CliError(`--weight bytes needs an allocation profile; ${p.name} is measured in ${p.unit}`);
    return p.tree.self;
  }
  if (choice === 'samples') {
    if (p.unit === 'samples' || p.unit === 'events') return p.tree.self;
    if (p.samples) {
      const w = new Float64Array(p.tree.length);
      for (let i = 0; i < p.samples.length; i++) w[p.samples.node[i]!]! += 1;
      return w;
    }
    throw new CliError(`--weight samples: ${p.name} has no individual samples (it is measured in ${p.unit})`);
  }
  // time
  if (p.unit === 'microseconds') return p.tree.self;
  if (p.unit === 'nanoseconds') return p.tree.self.map((v) => v / 1000);
  const s = p.samples;
  if (s && s.length > 1 && !Number.isNaN(s.time[0]!)) {
    // Each sample lasts until the next one; the last gets the mean interval.
    const w = new Float64Array(p.tree.length);
    const mean = (s.time[s.length - 1]! - s.time[0]!) / (s.length - 1);
    for (let i = 0; i < s.length; i++) {
      const dt = i + 1 < s.length ? s.time[i + 1]! - s.time[i]! : mean;
      w[s.node[i]!]! += Math.max(0, dt);
    }
    return w;
  }
  throw new CliError(`--weight time: ${p.name} has no timestamps to measure time with`);
}

export function collapseText(p: Profile, choice: WeightChoice | undefined): string {
  const lines = collapse(p, weightsFor(p, choice));
  return lines.length ? `${lines.join('\n')}\n` : '';
}
