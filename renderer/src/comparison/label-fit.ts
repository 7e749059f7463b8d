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

/** A name of a breadcrumb row as drawn: the index of the name it stands for, and its text. */
export interface Crumb {
  index: number;
  text: string;
}

export const CRUMB_SEPARATOR = ' › ';
export const CRUMB_MORE = '…';

/**
 * Which of a chain of names (outermost first) fit in `width` pixels as `a › b › c`: the innermost
 * ones are kept, those before them become one leading '…' (`elided`). When not even the last name
 * fits whole, it is cut as `fitLabel` cuts.
 */
export function fitCrumbs(names: readonly string[], width: number, measure: Measure = measureLabel): { elided: boolean; crumbs: Crumb[] } {
  const lead = measure(CRUMB_MORE + CRUMB_SEPARATOR);
  for (let k = 0; k < names.length; k++) {
    const shown = names.slice(k);
    const w = (k > 0 ? lead : 0) + measure(shown.join(CRUMB_SEPARATOR));
    if (w <= width) return { elided: k > 0, crumbs: shown.map((text, i) => ({ index: k + i, text })) };
  }
  const last = names.length - 1;
  if (last < 0) return { elided: false, crumbs: [] };
  const text = fitLabel(names[last]!, width - (last > 0 ? lead : 0), measure);
  return { elided: last > 0, crumbs: text === '' ? [] : [{ index: last, text }] };
}
