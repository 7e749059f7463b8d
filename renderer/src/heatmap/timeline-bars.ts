/**
 * The timeline strip's bars as two SVG paths, one for busy samples and one for idle ones stacked
 * on them, instead of an element per bar: the strip is a few hundred bars above every pane, and
 * each of its elements is walked, painted and composited again on every frame in which anything
 * around it changes (a zoom, Esc or search redraws the panes beside it).
 */

/** A rectangle as a closed subpath. */
function box(x: number, y: number, w: number, h: number): string {
  return `M${num(x)} ${num(y)}h${num(w)}v${num(h)}h${num(-w)}z`;
}

/** Coordinates to a thousandth of a pixel. */
function num(v: number): string {
  return String(Math.round(v * 1000) / 1000);
}

export interface BarPaths {
  /** the busy samples' bars, standing on the bottom edge */
  busy: string;
  /** the idle samples' bars, each on top of its busy bar */
  idle: string;
}

/**
 * Bars of `counts` (busy) and `idleCounts` (idle) samples per bucket across `width` pixels, the
 * tallest possible (`max`) two pixels short of `height`; buckets with none have no bar.
 */
export function barPaths(counts: ArrayLike<number>, idleCounts: ArrayLike<number>, max: number, width: number, height: number): BarPaths {
  const bw = width / counts.length;
  const w = Math.max(1, bw - 0.5);
  const busy: string[] = [];
  const idle: string[] = [];
  for (let i = 0; i < counts.length; i++) {
    const h = (counts[i]! / max) * (height - 2);
    const hi = (idleCounts[i]! / max) * (height - 2);
    if (idleCounts[i]! > 0) idle.push(box(i * bw, height - h - hi, w, hi));
    if (counts[i]! > 0) busy.push(box(i * bw, height - h, w, h));
  }
  return { busy: busy.join(''), idle: idle.join('') };
}
