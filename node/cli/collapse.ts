/** `flamelens collapse FILE [--weight samples|time|bytes]`: folded stacks on standard output. */
import { collapse } from '../../shared/model/collapse';
import { hasSampleTimes, sampleTimeSelf } from '../../shared/model/sample-time';
import type { Profile } from '../../shared/model/types';
import { CliError } from './errors';

export type WeightChoice = 'samples' | 'time' | 'bytes';

/**
 * Weights for folded output. The profile's own weights are the default (sample counts for sampled
 * formats, span self time for traces, bytes for heap profiles); `time` turns sample counts into
 * microseconds from the samples' timestamps, by the model's rule (model/sample-time.ts).
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
  if (hasSampleTimes(p.samples)) return sampleTimeSelf(p)!;
  throw new CliError(`--weight time: ${p.name} has no timestamps to measure time with`);
}

export function collapseText(p: Profile, choice: WeightChoice | undefined): string {
  const lines = collapse(p, weightsFor(p, choice));
  return lines.length ? `${lines.join('\n')}\n` : '';
}
