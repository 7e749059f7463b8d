/**
 * Whether two runs compare: what makes a diff of them mislead, said before anything is compared
 * (in the app beside the run's cost, in `flamelens diff` on stderr and in `--json`'s warnings).
 */
import type { Normalize } from './diff';
import type { Profile } from '../model/types';

/** Sampling intervals further apart than this ratio are worth a word. */
const INTERVAL_RATIO = 1.1;
/** Durations or sample counts further apart than this ratio, under absolute comparison. */
const SIZE_RATIO = 2;

const ms = (us: number) => `${(us / 1000).toFixed(2)} ms`;
const seconds = (us: number) => `${(us / 1e6).toFixed(2)} s`;

function apart(a: number, b: number, ratio: number): boolean {
  return a > 0 && b > 0 && Math.max(a, b) / Math.min(a, b) > ratio;
}

/** The run's duration in microseconds, when its samples say. */
function duration(p: Profile): number | undefined {
  const { startTime: s, endTime: e } = p.meta;
  return s !== undefined && e !== undefined && e > s ? e - s : undefined;
}

/** One sentence for each way `run` and `baseline` do not compare, none when they do. */
export function comparability(baseline: Profile, run: Profile, normalize: Normalize): string[] {
  const out: string[] = [];
  const a = baseline.meta.sampleInterval;
  const b = run.meta.sampleInterval;
  if (a && b && apart(a, b, INTERVAL_RATIO))
    out.push(
      `the runs were sampled at different intervals (${ms(a)} and ${ms(b)}): ` +
        (baseline.unit === 'samples' && run.unit === 'samples'
          ? 'sample counts do not measure the same time, compare shares (relative) rather than counts'
          : 'the profiler cost each run differently and sees short functions differently'),
    );
  if (normalize === 'absolute') {
    const da = duration(baseline);
    const db = duration(run);
    const na = baseline.samples?.length ?? 0;
    const nb = run.samples?.length ?? 0;
    if (da !== undefined && db !== undefined) {
      if (apart(da, db, SIZE_RATIO))
        out.push(
          `the runs lasted ${seconds(da)} and ${seconds(db)}: an absolute comparison assumes the same load; if the loads differed, compare shares (relative)`,
        );
    } else if (!(a && b && apart(a, b, INTERVAL_RATIO)) && apart(na, nb, SIZE_RATIO))
      // (sample counts say how long a run was only when both were sampled alike)
      out.push(
        `the runs hold ${na} and ${nb} samples: an absolute comparison assumes the same load; if the loads differed, compare shares (relative)`,
      );
  }
  return out;
}
