/**
 * What a sampled profile's weights measure: sample counts or time. Importers count samples
 * (weight 1 each, unit 'samples') and keep every sample's time; V8 does not sample evenly (a busy
 * thread's samples come later than asked), so the app and `flamelens diff` weigh V8 samples by
 * their duration (`sample-time.ts`), and `flamelens collapse` counts them unless asked otherwise.
 */
import { hasSampleTimes } from './sample-time';
import { addSampleWeights } from './sample-weights';
import { subtreeTotals } from './tree-totals';
import type { FormatId, Profile } from './types';

export type Weighing = 'samples' | 'time';

/**
 * Formats whose samples are one thread's V8 CPU samples, each lasting until the next: there time
 * is the default weight. perf script interleaves threads and CPUs, so the gap to the next sample
 * line is not how long a sample lasted; perf's own periods are its time.
 */
const V8_SAMPLED: ReadonlySet<FormatId> = new Set(['cpuprofile', 'trace-events', '0x']);

/** Whether `p` can be weighed by time from its samples (sample counts with every time known). */
export function canWeighByTime(p: Profile): boolean {
  return p.kind === 'sampled' && p.unit === 'samples' && hasSampleTimes(p.samples);
}

/** Whether `p` is measured in sample counts and can be turned back into them. */
export function isTimeWeighedSamples(p: Profile): boolean {
  return p.kind === 'sampled' && p.unit === 'microseconds' && p.samples !== undefined && p.samples.length > 0;
}

/** The weighing the app and `flamelens diff` use for `p` when none is asked for. */
export function defaultWeighing(p: Profile): Weighing {
  return V8_SAMPLED.has(p.format) && (canWeighByTime(p) || isTimeWeighedSamples(p)) ? 'time' : 'samples';
}

/**
 * `p`'s tree weighed as its samples weigh in `unit`, and its sample table with the weights that
 * follow from that unit (none stored: see `SampleTable.weight`).
 */
function reweighed(p: Profile, unit: 'samples' | 'microseconds'): Profile {
  const t = p.tree;
  const { weight: _, ...samples } = p.samples!;
  const self = new Float64Array(t.length);
  addSampleWeights(samples, unit, self);
  return { ...p, unit, tree: { ...t, self, total: subtreeTotals(t.parent, self) }, samples };
}

/**
 * `p` weighed as asked: 'time' gives every sample its duration in microseconds (unit
 * 'microseconds'), 'samples' gives every sample weight 1 (unit 'samples'), with the tree's self
 * and total weights summed from the samples. A profile already weighed so, or that cannot be
 * (no samples, no times, spans, bytes), comes back as it is; `weighable` tells which. The
 * profile given is not changed: the result shares its frames and tree shape.
 */
export function weighProfile(p: Profile, how: Weighing): Profile {
  if (how === 'time' && canWeighByTime(p)) return reweighed(p, 'microseconds');
  if (how === 'samples' && isTimeWeighedSamples(p)) return reweighed(p, 'samples');
  return p;
}

/** Whether `weighProfile(p, how)` would give `p` in that weighing (it already is, or can be). */
export function weighable(p: Profile, how: Weighing): boolean {
  if (how === 'time') return canWeighByTime(p) || p.unit === 'microseconds' || p.unit === 'nanoseconds';
  return p.unit === 'samples' || isTimeWeighedSamples(p);
}

/** `p` weighed the default way for its format (see `defaultWeighing`). */
export function weighByDefault(p: Profile): Profile {
  return weighProfile(p, defaultWeighing(p));
}
