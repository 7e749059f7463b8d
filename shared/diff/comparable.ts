/**
 * Whether two runs compare: what makes a diff of them mislead, said before anything is compared
 * (in the app beside the run's cost, in `flamelens diff` on stderr and in `--json`'s warnings).
 */
import type { Normalize } from './diff';
import type { Profile } from '../model/types';
import { idleNodes } from '../heatmap/heatmap';

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

/** The change in a run's heaviest function that its samples should be able to show. */
const DETECT = 0.05;
/** two-sided 95% */
const Z = 1.96;

const counted = new WeakMap<Profile, Map<string, number>>();

/** Samples whose leaf is each function (by frame key), idle left out; once per profile. */
export function selfSamples(p: Profile): Map<string, number> {
  let counts = counted.get(p);
  if (counts) return counts;
  counts = new Map<string, number>();
  counted.set(p, counts);
  const s = p.samples;
  if (!s) return counts;
  const idle = idleNodes(p);
  const byNode = new Float64Array(p.tree.length);
  for (let i = 0; i < s.length; i++) byNode[s.node[i]!]!++;
  for (let n = 1; n < byNode.length; n++) {
    if (byNode[n] === 0 || idle[n]) continue;
    const key = p.frames.key[p.tree.frame[n]!]!;
    counts.set(key, (counts.get(key) ?? 0) + byNode[n]!);
  }
  return counts;
}

/**
 * The smallest relative change in the baseline's heaviest function that sampling noise lets the
 * two runs show (95%, its sample counts taken as Poisson): 1.96·√(1/a + 1/b). Undefined when
 * either run has no samples, or the function is not in the run.
 */
export function detectableChange(baseline: Profile, run: Profile): { name: string; a: number; b: number; change: number } | undefined {
  if (!baseline.samples || !run.samples) return undefined;
  let top: string | undefined;
  let a = 0;
  for (const [key, n] of selfSamples(baseline)) if (n > a) [top, a] = [key, n];
  const b = top === undefined ? 0 : (selfSamples(run).get(top) ?? 0);
  if (top === undefined || b === 0) return undefined;
  const frame = baseline.frames.key.indexOf(top);
  return { name: baseline.frames.name[frame]!, a, b, change: Z * Math.sqrt(1 / a + 1 / b) };
}

const versionsOf = (p: Profile) => {
  const r = p.meta.runtime;
  return r?.node ? `Node.js ${r.node}` : r?.v8 ? `V8 ${r.v8}` : undefined;
};

/** One sentence for each way `run` and `baseline` do not compare, none when they do. */
export function comparability(baseline: Profile, run: Profile, normalize: Normalize): string[] {
  const out: string[] = [];
  const va = versionsOf(baseline);
  const vb = versionsOf(run);
  if (va && vb && va !== vb)
    out.push(
      `the runs ran on different runtimes (${va} and ${vb}): V8 compiles and optimizes differently, so part of any change may be the runtime's`,
    );
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
  const seen = detectableChange(baseline, run);
  if (seen && seen.change > DETECT)
    out.push(
      `the runs are too short to show a ${DETECT * 100}% change: their heaviest function, ${seen.name}, has ${seen.a} and ${seen.b} samples, ` +
        `so a change in it under ${Math.round(seen.change * 100)}% is sampling noise; record longer or sample more often`,
    );
  return out;
}
