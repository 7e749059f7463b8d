/**
 * Whether two runs' weights measure the same thing, so that one can be set against the other:
 * the same unit (or one that converts), and the same kind of weight.
 */
import type { Profile, Unit } from '../model/types';

/** The unit both profiles compare in, and the factors that bring each there; undefined when they do not convert. */
export function commonUnit(a: Unit, b: Unit): { unit: Unit; scaleA: number; scaleB: number } | undefined {
  if (a === b) return { unit: a, scaleA: 1, scaleB: 1 };
  if (a === 'nanoseconds' && b === 'microseconds') return { unit: b, scaleA: 1e-3, scaleB: 1 };
  if (a === 'microseconds' && b === 'nanoseconds') return { unit: a, scaleA: 1, scaleB: 1e-3 };
  return undefined;
}

/**
 * Why two runs' weights do not measure the same thing though their units agree, or undefined:
 * spans (trace events without CPU samples: how long each operation was pending, nested and
 * overlapping) are not CPU time, and a change from one to the other says nothing.
 */
export function otherMeasure(baseline: Profile, run: Profile): string | undefined {
  if ((baseline.kind === 'spans') === (run.kind === 'spans')) return undefined;
  const [spans, cpu] = baseline.kind === 'spans' ? [baseline, run] : [run, baseline];
  return `cannot compare the span time of ${spans.name} (how long operations were pending) with the samples of ${cpu.name}`;
}
