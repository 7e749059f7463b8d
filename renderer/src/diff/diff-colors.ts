/**
 * Diff colours: red where a frame got wider than in the baseline, blue where it got narrower,
 * deeper with the size of the change; a colour of its own for frames the baseline does not have
 * at all (new code paths such as an agent's) and for frames the run no longer has.
 */
import { Status } from '../../../shared/diff/diff';
import type { Palette } from '../store/view-slice';

interface DiffPalette {
  wider: [number, number, number];
  narrower: [number, number, number];
  light: [number, number, number];
  added: string;
  removed: string;
  unchanged: string;
}

const PALETTES: Record<Palette, DiffPalette> = {
  default: { wider: [215, 25, 28], narrower: [44, 123, 182], light: [242, 236, 236], added: '#a855f7', removed: '#0f766e', unchanged: '#dedbd6' },
  // Orange–purple diverging colours stay apart for the common colour-vision deficiencies.
  colorblind: { wider: [230, 97, 1], narrower: [94, 60, 153], light: [238, 238, 238], added: '#f0e442', removed: '#009e73', unchanged: '#dddddd' },
};

function mix(a: [number, number, number], b: [number, number, number], t: number): string {
  const c = a.map((x, i) => Math.round(x + (b[i]! - x) * t));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

/** `scale` is the largest |delta| in the comparison; intensity grows with the square root so small changes stay visible. */
export function diffColor(palette: Palette, status: number | undefined, delta: number | undefined, scale: number): string {
  const p = PALETTES[palette];
  if (status === Status.New) return p.added;
  if (status === Status.Removed) return p.removed;
  if (status !== Status.Changed || !delta || scale <= 0) return p.unchanged;
  const t = 0.25 + 0.75 * Math.sqrt(Math.min(1, Math.abs(delta) / scale));
  return mix(p.light, delta > 0 ? p.wider : p.narrower, t);
}

export function diffLegend(palette: Palette): { label: string; color: string }[] {
  const p = PALETTES[palette];
  return [
    { label: 'wider than baseline', color: mix(p.light, p.wider, 0.8) },
    { label: 'narrower', color: mix(p.light, p.narrower, 0.8) },
    { label: 'new (not in baseline)', color: p.added },
    { label: 'gone (not in run)', color: p.removed },
    { label: 'unchanged (within noise)', color: p.unchanged },
  ];
}
