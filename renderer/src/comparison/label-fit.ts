/**
 * Frame labels cut to the width of their box, measured with a canvas in the font the chart
 * draws them in (see `.pane-chart text.frame-label` in styles.css). Labels are SVG text: an HTML
 * label per box (what d3-flame-graph draws, in a foreignObject) costs the browser a layout of its
 * own for every box, which was most of a redraw.
 */

export const LABEL_FONT = '11.5px system-ui, sans-serif';
/** Space kept free at each end of a label, in pixels. */
export const LABEL_PAD = 4;

export interface Measure {
  (s: string): number;
}

let canvasMeasure: Measure | undefined;

/** Width of a string in the label font; canvas-measured where a canvas exists, else estimated. */
export function measureLabel(s: string): number {
  if (!canvasMeasure) {
    const ctx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    if (ctx) {
      ctx.font = LABEL_FONT;
      canvasMeasure = (t) => ctx.measureText(t).width;
    } else canvasMeasure = (t) => t.length * 6.5;
  }
  return canvasMeasure(s);
}

/**
 * `name` as it fits in `width` pixels: whole, or cut with an ellipsis, or '' when not even one
 * character and the ellipsis fit. The cut is found by halving (a handful of measurements), never
 * splitting a surrogate pair.
 */
export function fitLabel(name: string, width: number, measure: Measure = measureLabel): string {
  if (width <= 0 || name === '') return '';
  if (measure(name) <= width) return name;
  const chars = Array.from(name);
  let lo = 0;
  let hi = chars.length - 1;
  // the longest prefix whose text plus '…' fits
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (measure(`${chars.slice(0, mid).join('')}…`) <= width) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : `${chars.slice(0, lo).join('')}…`;
}
