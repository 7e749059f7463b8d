/**
 * Annotations drawn over one pane of the exported picture: a note pinned to a frame outlines the
 * frame and puts its text in a callout with a leader line; a box outlines its frame or area with
 * its label on top; a note on an area is a callout at that spot. Callouts are nudged apart so that
 * two notes on neighbouring frames stay readable.
 */
import { type Annotation, isKeyAnchor } from '../../../shared/annotate/annotations';
import { type ViewNode, findViewNode } from '../../../shared/view/view-tree';
import { esc, n, textWidth, wrapText } from './svg-text';
import type { BoxRect } from '../annotate/note-surface';

/** A place in the picture, in pixels, as a box is placed in a pane. */
export type Rect = BoxRect;

const NOTE_FONT = 12;
const NOTE_LINE = 15;
const NOTE_PAD = 6;
const NOTE_MAX_LINES = 8;
/** Colours of note callouts (exported for e2e pixel checks of a rasterized export). */
export const NOTE_FILL = '#fff8d6';
export const NOTE_STROKE = '#8a6d00';
const INK = '#111827';

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Where a callout of size w×h goes near `target`: above it if there is room, else below, moved
 * on in steps while it covers an earlier callout; always inside the chart.
 */
function placeCallout(target: Rect, w: number, h: number, chart: { w: number; h: number }, placed: Rect[]): Rect {
  const x = Math.max(0, Math.min(target.x + Math.min(target.w / 2, 24) - 12, chart.w - w));
  const clampY = (y: number) => Math.max(0, Math.min(y, chart.h - h));
  const candidates: number[] = [];
  for (let k = 0; k < 8; k++) {
    candidates.push(target.y - 10 - h - k * (h + 6));
    candidates.push(target.y + target.h + 10 + k * (h + 6));
  }
  for (const y of candidates) {
    const r = { x, y: clampY(y), w, h };
    if (y === r.y && !placed.some((p) => overlaps(p, r))) return r;
  }
  // Crowded: accept the first spot that covers no other callout, even if clamped, else the first.
  for (const y of candidates) {
    const r = { x, y: clampY(y), w, h };
    if (!placed.some((p) => overlaps(p, r))) return r;
  }
  return { x, y: clampY(candidates[0]!), w, h };
}

function callout(text: string, target: Rect | undefined, at: Rect | undefined, chart: { w: number; h: number }, placed: Rect[]): string {
  const maxW = Math.max(60, Math.min(260, chart.w * 0.45));
  const lines = wrapText(text || ' ', maxW - 2 * NOTE_PAD, NOTE_FONT, NOTE_MAX_LINES);
  const w = Math.min(maxW, Math.max(...lines.map((l) => textWidth(l, NOTE_FONT))) + 2 * NOTE_PAD);
  const h = lines.length * NOTE_LINE + 2 * NOTE_PAD - 3;
  const box = at
    ? { x: Math.max(0, Math.min(at.x, chart.w - w)), y: Math.max(0, Math.min(at.y, chart.h - h)), w, h }
    : placeCallout(target!, w, h, chart, placed);
  placed.push(box);
  let out = '';
  if (target) {
    // Leader from the callout's nearest edge to the top or bottom middle of the frame.
    const tx = target.x + Math.min(target.w / 2, 24);
    const below = box.y > target.y;
    const ty = below ? target.y + target.h : target.y;
    const cx = Math.max(box.x + 6, Math.min(tx, box.x + box.w - 6));
    const cy = below ? box.y : box.y + box.h;
    out += `<line x1="${n(cx)}" y1="${n(cy)}" x2="${n(tx)}" y2="${n(ty)}" stroke="${NOTE_STROKE}" stroke-width="1.5"/>`;
  }
  out += `<rect x="${n(box.x)}" y="${n(box.y)}" width="${n(box.w)}" height="${n(box.h)}" rx="4" fill="${NOTE_FILL}" stroke="${NOTE_STROKE}" stroke-width="1"/>`;
  lines.forEach((l, i) => {
    out += `<text x="${n(box.x + NOTE_PAD)}" y="${n(box.y + NOTE_PAD + (i + 1) * NOTE_LINE - 4)}" font-size="${NOTE_FONT}" fill="${INK}">${esc(l)}</text>`;
  });
  return out;
}

function boxLabel(text: string, r: Rect, chart: { w: number; h: number }): string {
  if (text === '') return '';
  const lines = wrapText(text, Math.max(60, Math.min(260, chart.w - r.x)), NOTE_FONT, 2);
  const w = Math.max(...lines.map((l) => textWidth(l, NOTE_FONT))) + 8;
  const h = lines.length * NOTE_LINE + 4;
  const x = Math.max(0, Math.min(r.x, chart.w - w));
  const y = r.y - h >= 0 ? r.y - h : Math.min(r.y + r.h, chart.h - h);
  let out = `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" fill="${INK}"/>`;
  lines.forEach(
    (l, i) =>
      (out += `<text x="${n(x + 4)}" y="${n(y + (i + 1) * NOTE_LINE - 2)}" font-size="${NOTE_FONT}" fill="#ffffff">${esc(l)}</text>`),
  );
  return out;
}

function outline(r: Rect, dashed: boolean): string {
  const dash = dashed ? ' stroke-dasharray="6 3"' : '';
  return `<rect x="${n(r.x)}" y="${n(r.y)}" width="${n(Math.max(r.w, 2))}" height="${n(r.h)}" fill="none" stroke="${INK}" stroke-width="2"${dash}/>`;
}

/**
 * The annotations of one pane, in chart coordinates. `boxes` holds where each drawn view node is;
 * returns the SVG and the ids drawn (a note whose frame is not in the picture is listed elsewhere).
 */
export function paneAnnotations(
  items: readonly Annotation[],
  root: ViewNode,
  boxes: Map<ViewNode, Rect>,
  chart: { w: number; h: number },
): { svg: string; drawn: string[] } {
  const outlines: string[] = [];
  const labels: string[] = [];
  const drawn: string[] = [];
  const placed: Rect[] = [];
  // Boxes first, so that note callouts are placed (and drawn) above them.
  const ordered = [...items].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'box' ? -1 : 1));
  for (const a of ordered) {
    let target: Rect | undefined;
    if (isKeyAnchor(a.anchor)) {
      const node = findViewNode(root, a.anchor.keyPath);
      target = node && boxes.get(node);
      if (!target) continue;
    } else {
      const r = a.anchor.region;
      target = { x: r.x * chart.w, y: r.y * chart.h, w: r.w * chart.w, h: r.h * chart.h };
    }
    drawn.push(a.id);
    if (a.kind === 'box') {
      outlines.push(outline(target, true));
      labels.push(boxLabel(a.text, target, chart));
    } else if (isKeyAnchor(a.anchor)) {
      outlines.push(outline(target, false));
      labels.push(callout(a.text, target, undefined, chart, placed));
    } else {
      labels.push(callout(a.text, undefined, target, chart, placed));
    }
  }
  if (drawn.length === 0) return { svg: '', drawn };
  return { svg: `<g class="annotations">${outlines.join('')}${labels.join('')}</g>`, drawn };
}
