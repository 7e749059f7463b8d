/** How changes across repeated runs read: a delta with its 95% interval, the smallest detectable change, the cost's ±. */
import type { ProfileDiff } from '../../../shared/diff/diff';
import { formatDelta } from '../../../shared/diff/diff-query';
import type { FunctionChange, RepeatsComparison } from '../../../shared/diff/repeats';

const signOf = (x: number) => (x > 0 ? '+' : x < 0 ? '−' : '±');

/** Both ends of a time interval in the scale (and digits) `formatWeight` gives the larger: `+0.91 to +2.07 s`. */
function timeInterval(us: [number, number]): string {
  const a = Math.max(Math.abs(us[0]), Math.abs(us[1]));
  const [div, digits, unit] = a >= 1e6 ? [1e6, 2, 's'] : a >= 1e3 ? [1e3, a >= 1e5 ? 0 : 1, 'ms'] : [1, a >= 100 ? 0 : 1, 'µs'];
  const [lo, hi] = us.map((v) => `${signOf(v)}${(Math.abs(v) / div).toFixed(digits)}`);
  return `${lo} to ${hi} ${unit}`;
}

/** `+0.91 to +2.07 s`: both ends in the diff's measure, the unit once. */
export function formatInterval(d: ProfileDiff, low: number, high: number): string {
  if (d.measure === 'weight' && (d.unit === 'microseconds' || d.unit === 'nanoseconds')) {
    const f = d.unit === 'nanoseconds' ? 1e-3 : 1;
    return timeInterval([low * f, high * f]);
  }
  const a = formatDelta(d, low);
  const b = formatDelta(d, high);
  const unit = (s: string) => s.slice(s.lastIndexOf(' '));
  return unit(a) === unit(b) ? `${a.slice(0, a.lastIndexOf(' '))} to ${b}` : `${a} to ${b}`;
}

/** `+1.49 s (+0.91 to +2.07 s)`; the delta alone where there is no interval. */
export function deltaWithInterval(d: ProfileDiff, f: FunctionChange): string {
  const delta = formatDelta(d, f.delta);
  return f.interval ? `${delta} (${formatInterval(d, f.interval.low, f.interval.high)})` : delta;
}

/** `±0.35 s`: the smallest change these repeats could detect (80% power at the 5% level). */
export function formatDetectable(d: ProfileDiff, f: FunctionChange): string | undefined {
  return f.detectable === undefined ? undefined : `±${formatDelta(d, f.detectable).slice(1)}`;
}

/** ` ± 4%`: the half-width of the cost's 95% interval (its wider side), as precise as `formatChange` gives the change. */
export function costPlusMinus(total: RepeatsComparison['total']): string {
  const ci = total.ratioInterval;
  if (!ci || !Number.isFinite(total.ratio)) return '';
  const half = Math.max(ci.high - total.ratio, total.ratio - ci.low) * 100;
  return ` ± ${half.toFixed(Math.abs(total.ratio * 100) >= 10 ? 0 : 1)}%`;
}

export { countWords as repeatsCount } from '../store/derived-repeats';
