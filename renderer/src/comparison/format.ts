/** Numbers as a performance engineer reads them, per unit. */
import type { Unit } from '../../../shared/model/types';

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const dec = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export function formatDuration(us: number): string {
  const a = Math.abs(us);
  if (a >= 1e6) return `${dec.format(us / 1e6)} s`;
  if (a >= 1e3) return `${dec.format(us / 1e3)} ms`;
  return `${dec.format(us)} µs`;
}

export function formatBytes(b: number): string {
  const a = Math.abs(b);
  if (a >= 1 << 30) return `${dec.format(b / (1 << 30))} GiB`;
  if (a >= 1 << 20) return `${dec.format(b / (1 << 20))} MiB`;
  if (a >= 1 << 10) return `${dec.format(b / (1 << 10))} KiB`;
  return `${int.format(b)} B`;
}

export function formatWeight(v: number, unit: Unit): string {
  switch (unit) {
    case 'samples':
      return `${int.format(v)} ${Math.round(v) === 1 ? 'sample' : 'samples'}`;
    case 'microseconds':
      return formatDuration(v);
    case 'nanoseconds':
      return formatDuration(v / 1000);
    case 'bytes':
      return formatBytes(v);
    case 'events':
      return `${int.format(v)} events`;
  }
}

export function formatPercent(fraction: number): string {
  const p = fraction * 100;
  if (p !== 0 && Math.abs(p) < 0.1) return `${p < 0 ? '-' : ''}<0.1%`;
  return `${dec.format(p)}%`;
}

export function formatPoints(points: number): string {
  const sign = points > 0 ? '+' : points < 0 ? '−' : '±';
  return `${sign}${dec.format(Math.abs(points))} pp`;
}
