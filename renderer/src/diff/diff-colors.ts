/**
 * Diff colours: red where a frame got wider than in the baseline, blue where it got narrower,
 * deeper with the size of the change; a colour of its own for frames the baseline does not have
 * at all (new code paths such as an agent's), for frames the run no longer has, and for call paths
 * that moved (the function is on the other side, under other callers: see `PathStatus`).
 */
import { type Normalize, Status } from '../../../shared/diff/diff';
import type { Unit } from '../../../shared/model/types';
import type { Palette } from '../store/view-slice';

interface DiffPalette {
  wider: [number, number, number];
  narrower: [number, number, number];
  light: [number, number, number];
  added: string;
  removed: string;
  moved: string;
  unchanged: string;
}

const PALETTES: Record<Palette, DiffPalette> = {
  default: {
    wider: [215, 25, 28],
    narrower: [44, 123, 182],
    light: [242, 236, 236],
    added: '#a855f7',
    removed: '#0f766e',
    moved: '#dcc48e',
    unchanged: '#dedbd6',
  },
  // Orange–purple diverging colours stay apart for the common colour-vision deficiencies.
  colorblind: {
    wider: [230, 97, 1],
    narrower: [94, 60, 153],
    light: [238, 238, 238],
    added: '#f0e442',
    removed: '#009e73',
    moved: '#56b4e9',
    unchanged: '#dddddd',
  },
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
  if (status === Status.Moved) return p.moved;
  if (status !== Status.Changed || !delta || scale <= 0) return p.unchanged;
  const t = 0.25 + 0.75 * Math.sqrt(Math.min(1, Math.abs(delta) / scale));
  return mix(p.light, delta > 0 ? p.wider : p.narrower, t);
}

/** Absolute mode's words for red and blue: what there is more or less of in a frame than in the baseline. */
function absoluteWords(unit: Unit | undefined): [string, string] {
  if (unit === 'bytes') return ['more memory allocated here than in the baseline', 'less memory allocated here than in the baseline'];
  if (unit === 'events') return ['more events counted here than in the baseline', 'fewer events counted here than in the baseline'];
  return ['more time than the baseline spent here', 'less time than the baseline spent here'];
}

/**
 * The diff colours with what each means in the chosen normalization: absolute compares the
 * weight itself (the runs did the same work), relative compares each frame's share of its run.
 */
export function diffLegend(
  palette: Palette,
  normalize: Normalize,
  unit?: Unit,
  /** with repeated runs on both sides: how many (`5 runs each`) */
  repeats?: string,
): { label: string; color: string }[] {
  const p = PALETTES[palette];
  const [wider, narrower] =
    normalize === 'absolute'
      ? absoluteWords(unit)
      : ['larger share of the run than in the baseline', 'smaller share of the run than in the baseline'];
  return [
    { label: wider, color: mix(p.light, p.wider, 0.8) },
    { label: narrower, color: mix(p.light, p.narrower, 0.8) },
    { label: 'new (not in baseline)', color: p.added },
    { label: 'gone (not in run)', color: p.removed },
    { label: 'moved (same function, other callers)', color: p.moved },
    { label: repeats ? `unchanged, or within noise (${repeats})` : 'unchanged (within noise)', color: p.unchanged },
  ];
}

/** The line under the diff legend: the normalization, the unit of deltas and what the noise threshold is of. */
export function diffLegendNote(normalize: Normalize, noisePercent: number): string {
  const noise = noisePercent.toLocaleString('en-US', { maximumFractionDigits: 3 });
  return normalize === 'absolute'
    ? `absolute (the runs did the same work): Δ in the profile's unit; noise: within ${noise}% of the baseline's total; idle left out`
    : `relative (each run as a share of its own total): Δ in percentage points; noise: within ${noise} pp; idle left out`;
}

/** The legend's line on repeated runs: what the intervals are and when a change counts. */
export const REPEATS_NOTE =
  "Δ with its 95% interval across repeats (Welch's t); a change counts only beyond run-to-run noise, after false discovery rate control at 5% (Benjamini–Hochberg)";
