/**
 * The frames of one exported pane: a rect and a label per view node, down to the rows the pane
 * has. Where a tree is deeper than that, the last row holds a marker under each frame whose
 * callees are cut — "… N deeper frames" — instead of the text shrinking below legibility.
 */
import type { ViewNode, ViewTree } from '../../../shared/view/view-tree';
import { CRUMB_MORE, CRUMB_SEPARATOR, fitCrumbs } from '../comparison/label-fit';
import type { Rect } from './svg-annotations';
import { INK, esc, fitText, n, svgColor, textWidth } from './svg-text';

export const ROW = 18;
const LABEL_FONT = 11;
const MARKER_FILL = '#f5f5f4';
const MARKER_STROKE = '#a8a29e';
const MARKER_INK = '#57534e';

/** Levels below `root` (0 for a leaf). Iterative: real stacks are 10,000 frames deep. */
export function treeDepth(root: ViewNode): number {
  let deepest = 0;
  const stack: [ViewNode, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (d > deepest) deepest = d;
    for (const c of v.children ?? []) stack.push([c, d + 1]);
  }
  return deepest;
}

/** The marker's text for `levels` cut levels. */
export function deeperLabel(levels: number): string {
  return `… ${levels.toLocaleString('en-US')} deeper frame${levels === 1 ? '' : 's'}`;
}

/** Whether dark text would be hard to read on `hex` (the colour-blind palette marks matches in black). */
function isDark(hex: string): boolean {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/.exec(hex);
  if (!m) return false;
  const [r, g, b] = m.slice(1).map((h) => parseInt(h, 16) / 255) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.4;
}

/** The ancestors row of a deep zoom, as the panes draw it: the innermost names that fit, the outer ones as '…'. */
function crumbsLabel(ancestors: readonly { name: string }[], width: number): string {
  const { elided, crumbs } = fitCrumbs(
    ancestors.map((a) => a.name),
    width,
    (t) => textWidth(t, LABEL_FONT),
  );
  return (elided ? CRUMB_MORE + CRUMB_SEPARATOR : '') + crumbs.map((c) => c.text).join(CRUMB_SEPARATOR);
}

export interface DrawnFrames {
  svg: string;
  /** where each drawn node went (for annotations) */
  boxes: Map<ViewNode, Rect>;
  /** the most levels cut under any frame (0 when the whole tree is drawn) */
  cutLevels: number;
}

interface Placed {
  x: number;
  y: number;
  w: number;
}

/**
 * Draws `tree` `chartW` wide in `rows` rows (flame: root at the bottom; icicle: at the top). When
 * the tree is deeper, frames fill `rows - 1` rows and the last one holds the cut markers.
 */
export function drawFrames(tree: ViewTree, fill: (v: ViewNode) => string, chartW: number, rows: number, flame: boolean): DrawnFrames {
  const root = tree.root;
  const depth = treeDepth(root) + 1;
  const frameRows = depth > rows ? Math.max(1, rows - 1) : rows;
  const scale = root.value > 0 ? chartW / root.value : 0;
  const boxes = new Map<ViewNode, Rect>();
  const colors = new Map<string, { fill: string; ink: string }>();
  const parts: string[] = [];
  const markers: string[] = [];
  let cutLevels = 0;
  const rowY = (d: number) => (flame ? (rows - 1 - d) * ROW : d * ROW);
  const stack: [ViewNode, number, number][] = [[root, 0, 0]];
  while (stack.length > 0) {
    const [v, x, d] = stack.pop()!;
    const w = v === root ? chartW : v.value * scale;
    const kids = v.children ?? [];
    const y = rowY(d);
    boxes.set(v, { x, y, w, h: ROW - 1 });
    parts.push(frameSvg(v, { x, y, w }, colorOf(colors, fill(v))));
    if (d === frameRows - 1 && kids.length > 0) {
      // One marker spans all of v's callees: what is cut below v, and how deep it goes.
      const levels = treeDepth(v);
      cutLevels = Math.max(cutLevels, levels);
      const kw = kids.reduce((s, c) => s + c.value, 0) * scale;
      // A sliver of a marker only adds noise; the wider ones around it say the stacks go on.
      if (kw >= 2) markers.push(markerSvg({ x, y: rowY(d + 1), w: kw }, levels));
      continue;
    }
    let cx = x + kids.reduce((s, c) => s + c.value, 0) * scale;
    for (let i = kids.length - 1; i >= 0; i--) {
      cx -= kids[i]!.value * scale;
      stack.push([kids[i]!, cx, d + 1]);
    }
  }
  const svg = `<g class="frames" font-size="${LABEL_FONT}" fill="${INK}">${parts.join('')}</g>`;
  const cut = markers.length > 0 ? `<g class="cut-markers" font-size="${LABEL_FONT}" fill="${MARKER_INK}">${markers.join('')}</g>` : '';
  return { svg: svg + cut, boxes, cutLevels };
}

function colorOf(cache: Map<string, { fill: string; ink: string }>, raw: string): { fill: string; ink: string } {
  let color = cache.get(raw);
  if (color === undefined) {
    const fill = svgColor(raw);
    cache.set(raw, (color = { fill, ink: isDark(fill) ? ' fill="#ffffff"' : '' }));
  }
  return color;
}

function frameSvg(v: ViewNode, { x, y, w }: Placed, color: { fill: string; ink: string }): string {
  let out = `<rect x="${n(x)}" y="${n(y)}" width="${n(w > 2 ? w - 1 : w)}" height="${ROW - 1}" fill="${esc(color.fill)}"/>`;
  const label = w <= 24 ? '' : v.ancestors ? crumbsLabel(v.ancestors, w - 8) : fitText(v.name, w - 8, LABEL_FONT);
  if (label) out += `<text x="${n(x + 4)}" y="${n(y + ROW - 5)}"${color.ink}>${esc(label)}</text>`;
  return out;
}

function markerSvg({ x, y, w }: Placed, levels: number): string {
  const bw = w > 2 ? w - 1 : w;
  let out = `<rect x="${n(x)}" y="${n(y)}" width="${n(bw)}" height="${ROW - 1}" fill="${MARKER_FILL}" stroke="${MARKER_STROKE}" stroke-dasharray="3 2"/>`;
  const full = deeperLabel(levels);
  const label = w <= 18 ? '' : textWidth(full, LABEL_FONT) <= w - 8 ? full : fitText(`… ${levels}`, w - 8, LABEL_FONT);
  if (label) out += `<text x="${n(x + 4)}" y="${n(y + ROW - 5)}">${esc(label)}</text>`;
  return out;
}
