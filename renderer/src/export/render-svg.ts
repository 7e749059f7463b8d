/**
 * The comparison as one standalone SVG document: title and caption, every visible pane with its
 * run name, facts and read-outs, its flame graph, the legend, the annotations and the date — a
 * picture that explains itself when pasted into a ticket.
 *
 * Drawn from view trees (shared/view/view-tree.ts) by string building, without d3-flame-graph and
 * without looking at the screen: the export has the size it is asked for whatever the window
 * shows, and it works headless and in unit tests. Self-contained for the app's CSP and for any
 * viewer: presentation attributes only, no external fonts, images or stylesheets.
 */
import { type AnnotationDoc, annotationsForRun, isKeyAnchor } from '../../../shared/annotate/annotations';
import type { ViewNode, ViewTree } from '../../../shared/view/view-tree';
import { type Rect, paneAnnotations } from './svg-annotations';
import { FONT_FAMILY, esc, fitText, formatStamp, n, svgColor, textWidth, wrapText } from './svg-text';
import { CRUMB_MORE, CRUMB_SEPARATOR, fitCrumbs } from '../comparison/label-fit';

export interface ExportPane {
  runId: string;
  title: string;
  baseline?: boolean;
  /** short facts joined with " · ": format, unit, total, duration */
  facts: string[];
  /** read-outs, one line each: cost against the baseline, the search share */
  readouts?: string[];
  /** a warning under the facts ("this run does not have the full focused path…") */
  note?: string;
  /** built at `exportChartWidth(...)` so that every box drawn is at least a pixel wide */
  tree: ViewTree;
  fill: (node: ViewNode) => string;
}

export interface LegendGroup {
  title?: string;
  entries: { label: string; color: string }[];
  note?: string;
}

export interface ExportInput {
  panes: ExportPane[];
  layout: 'rows' | 'columns';
  orientation: 'flame' | 'icicle';
  /** width of the picture in CSS pixels */
  width: number;
  legends: LegendGroup[];
  annotations: AnnotationDoc;
  date: Date | string;
  /** names of the focused call path, root first ([] when not zoomed) */
  focusPath?: string[];
  /** levels drawn per pane at most (default 200); deeper frames are cut and the pane says so */
  maxRows?: number;
}

export interface ExportResult {
  svg: string;
  width: number;
  height: number;
}

const MARGIN = 16;
const GAP = 16;
const ROW = 18;
const PAD = 8;
const LABEL_FONT = 11;
const MIN_ROWS = 6;
const MUTED = '#57534e';
const INK = '#111827';

/** Chart width of each pane in a picture `width` wide: build each pane's view tree with `minFraction: 1 / this`. */
/** The ancestors row of a deep zoom, as the panes draw it: the innermost names that fit, the outer ones as '…'. */
function crumbsLabel(ancestors: readonly { name: string }[], width: number): string {
  const { elided, crumbs } = fitCrumbs(
    ancestors.map((a) => a.name),
    width,
    (t) => textWidth(t, LABEL_FONT),
  );
  return (elided ? CRUMB_MORE + CRUMB_SEPARATOR : '') + crumbs.map((c) => c.text).join(CRUMB_SEPARATOR);
}

export function exportChartWidth(width: number, layout: 'rows' | 'columns', paneCount: number): number {
  const inner = width - 2 * MARGIN;
  const paneW = layout === 'columns' && paneCount > 1 ? (inner - GAP * (paneCount - 1)) / paneCount : inner;
  return Math.max(1, Math.floor(paneW - 2 * PAD));
}

function maxDepth(root: ViewNode): number {
  let deepest = 0;
  const stack: [ViewNode, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (d > deepest) deepest = d;
    for (const c of v.children ?? []) stack.push([c, d + 1]);
  }
  return deepest;
}

/** Whether dark text would be hard to read on `hex` (the colour-blind palette marks matches in black). */
function isDark(hex: string): boolean {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/.exec(hex);
  if (!m) return false;
  const [r, g, b] = m.slice(1).map((h) => parseInt(h, 16) / 255) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.4;
}

/** The frames of one pane as rects and labels, and where each node went (for annotations). */
function drawFrames(pane: ExportPane, chartW: number, rows: number, flame: boolean): { svg: string; boxes: Map<ViewNode, Rect> } {
  const root = pane.tree.root;
  const scale = root.value > 0 ? chartW / root.value : 0;
  const boxes = new Map<ViewNode, Rect>();
  const colors = new Map<string, { fill: string; ink: string }>();
  const parts: string[] = [];
  // Iterative: a recursive walk would overflow on the 10,000-deep stacks real profiles have.
  const stack: [ViewNode, number, number][] = [[root, 0, 0]];
  while (stack.length > 0) {
    const [v, x, depth] = stack.pop()!;
    if (depth >= rows) continue;
    const w = v === root ? chartW : v.value * scale;
    const y = flame ? (rows - 1 - depth) * ROW : depth * ROW;
    const box = { x, y, w, h: ROW - 1 };
    boxes.set(v, box);
    const raw = pane.fill(v);
    let color = colors.get(raw);
    if (color === undefined) {
      const fill = svgColor(raw);
      colors.set(raw, (color = { fill, ink: isDark(fill) ? ' fill="#ffffff"' : '' }));
    }
    parts.push(`<rect x="${n(x)}" y="${n(y)}" width="${n(w > 2 ? w - 1 : w)}" height="${ROW - 1}" fill="${esc(color.fill)}"/>`);
    const label = w <= 24 ? '' : v.ancestors ? crumbsLabel(v.ancestors, w - 8) : fitText(v.name, w - 8, LABEL_FONT);
    if (label) parts.push(`<text x="${n(x + 4)}" y="${n(y + ROW - 5)}"${color.ink}>${esc(label)}</text>`);
    let cx = x;
    const kids = v.children ?? [];
    const next: [ViewNode, number, number][] = [];
    for (const c of kids) {
      next.push([c, cx, depth + 1]);
      cx += c.value * scale;
    }
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
  }
  return { svg: `<g class="frames" font-size="${LABEL_FONT}" fill="${INK}">${parts.join('')}</g>`, boxes };
}

interface Line {
  text: string;
  size: number;
  color: string;
  bold?: boolean;
}

function paneHeader(pane: ExportPane, width: number, cut: boolean): Line[] {
  const lines: Line[] = [
    { text: fitText(pane.title + (pane.baseline ? ' — baseline' : ''), width, 14, true), size: 14, color: INK, bold: true },
  ];
  for (const l of wrapText(pane.facts.join(' · '), width, 12)) lines.push({ text: l, size: 12, color: MUTED });
  for (const r of pane.readouts ?? [])
    for (const l of wrapText(r, width, 12, 3, true)) lines.push({ text: l, size: 12, color: INK, bold: true });
  const notes = [pane.note, cut ? 'Deeper frames are not drawn.' : undefined].filter((x): x is string => !!x);
  for (const note of notes) for (const l of wrapText(note, width, 12, 3)) lines.push({ text: l, size: 12, color: '#9a3412' });
  return lines;
}

const lineHeight = (l: Line) => Math.round(l.size * 1.4);
const linesHeight = (ls: Line[]) => ls.reduce((s, l) => s + lineHeight(l), 0);

function drawLines(lines: Line[], x: number, y: number): string {
  let out = '';
  for (const l of lines) {
    y += lineHeight(l);
    if (l.text === '') continue;
    out += `<text x="${n(x)}" y="${n(y - l.size * 0.35)}" font-size="${l.size}" fill="${l.color}"${l.bold ? ' font-weight="600"' : ''}>${esc(l.text)}</text>`;
  }
  return out;
}

/** The legend groups, flowing left to right and wrapping; returns the SVG and its height. */
function drawLegends(groups: LegendGroup[], x0: number, y0: number, width: number): { svg: string; height: number } {
  let out = '';
  let y = y0;
  for (const g of groups) {
    let x = x0;
    if (g.title) {
      out += `<text x="${n(x)}" y="${n(y + 12)}" font-size="12" font-weight="600" fill="${INK}">${esc(g.title)}</text>`;
      x += textWidth(g.title, 12, true) + 10;
    }
    for (const e of g.entries) {
      const w = 16 + textWidth(e.label, 12) + 14;
      if (x + w > x0 + width && x > x0) {
        x = x0;
        y += 20;
      }
      out += `<rect x="${n(x)}" y="${n(y + 2)}" width="12" height="12" fill="${esc(svgColor(e.color))}" stroke="#00000033"/>`;
      out += `<text x="${n(x + 16)}" y="${n(y + 12)}" font-size="12" fill="${INK}">${esc(e.label)}</text>`;
      x += w;
    }
    y += 20;
    if (g.note) {
      const lines = wrapText(g.note, width, 11).map((text) => ({ text, size: 11, color: MUTED }));
      out += drawLines(lines, x0, y - 4);
      y += linesHeight(lines);
    }
    y += 4;
  }
  return { svg: out, height: y - y0 };
}

export function renderComparisonSvg(input: ExportInput): ExportResult {
  const width = Math.max(320, Math.round(input.width));
  const inner = width - 2 * MARGIN;
  const doc = input.annotations;
  const flame = input.orientation === 'flame';
  const maxRows = Math.max(1, input.maxRows ?? 200);
  const body: string[] = [];
  let y = MARGIN;

  // Header: title with the date at the right, caption, zoom path.
  const stamp = `Exported ${typeof input.date === 'string' ? input.date : formatStamp(input.date)}`;
  const stampW = textWidth(stamp, 11);
  const title = fitText(doc.title || 'Profile comparison', inner - stampW - 16, 20, true);
  body.push(`<text x="${MARGIN}" y="${y + 20}" font-size="20" font-weight="700" fill="${INK}">${esc(title)}</text>`);
  body.push(`<text x="${width - MARGIN}" y="${y + 18}" font-size="11" fill="${MUTED}" text-anchor="end">${esc(stamp)}</text>`);
  y += 30;
  const head: Line[] = wrapText(doc.caption, inner, 13, 6)
    .filter((t) => t !== '')
    .map((text) => ({ text, size: 13, color: INK }));
  if (input.focusPath && input.focusPath.length > 0)
    for (const t of wrapText(`Zoomed to: all › ${input.focusPath.join(' › ')}`, inner, 12, 2))
      head.push({ text: t, size: 12, color: MUTED });
  body.push(drawLines(head, MARGIN, y));
  y += linesHeight(head) + 8;

  // Panes: in columns the headers and charts line up, so they share the tallest of each.
  const panes = input.panes;
  const cols = input.layout === 'columns' ? Math.max(1, panes.length) : 1;
  const chartW = exportChartWidth(width, input.layout, panes.length);
  const paneW = chartW + 2 * PAD;
  const depthRows = panes.map((p) => maxDepth(p.tree.root) + 1);
  const rowsOf = panes.map((_, i) => Math.min(maxRows, Math.max(MIN_ROWS, cols > 1 ? Math.max(...depthRows) : depthRows[i]!)));
  const headers = panes.map((p, i) => paneHeader(p, chartW, depthRows[i]! > rowsOf[i]!));
  const headerH = headers.map(linesHeight);
  const drawnIds = new Set<string>();
  let rowTop = y;
  panes.forEach((pane, i) => {
    const col = i % cols;
    if (col === 0 && i > 0) rowTop = y;
    const hh = cols > 1 ? Math.max(...headerH) : headerH[i]!;
    const chartH = rowsOf[i]! * ROW;
    const px = MARGIN + col * (paneW + GAP);
    const paneH = PAD + hh + 6 + chartH + PAD;
    let g = `<g class="pane" transform="translate(${n(px)},${n(rowTop)})">`;
    g += `<rect x="0" y="0" width="${n(paneW)}" height="${n(paneH)}" rx="6" fill="#ffffff" stroke="#d6d3d1"/>`;
    g += drawLines(headers[i]!, PAD, PAD);
    const frames = drawFrames(pane, chartW, rowsOf[i]!, flame);
    const notes = paneAnnotations(annotationsForRun(doc, pane.runId), pane.tree.root, frames.boxes, { w: chartW, h: chartH });
    notes.drawn.forEach((id) => drawnIds.add(id));
    g += `<g transform="translate(${PAD},${n(PAD + hh + 6)})">${frames.svg}${notes.svg}</g></g>`;
    body.push(g);
    y = Math.max(y, rowTop + paneH + GAP);
  });

  const legends = drawLegends(input.legends, MARGIN, y, inner);
  body.push(legends.svg);
  y += legends.height;

  // Notes whose frame is in no pane at this zoom: said in words, so that nothing annotated is lost.
  const missing = doc.items.filter(
    (a) => !drawnIds.has(a.id) && isKeyAnchor(a.anchor) && (a.runId === undefined || panes.some((p) => p.runId === a.runId)),
  );
  if (missing.length > 0) {
    const lines: Line[] = [{ text: 'Notes on frames not in view:', size: 12, color: INK, bold: true }];
    for (const a of missing) {
      const path = isKeyAnchor(a.anchor) ? a.anchor.keyPath : [];
      const fn = (path[path.length - 1] ?? '').split('\t')[0];
      for (const t of wrapText(`• ${fn}: ${a.text}`, inner, 12, 4)) lines.push({ text: t, size: 12, color: INK });
    }
    body.push(drawLines(lines, MARGIN, y));
    y += linesHeight(lines);
  }
  const height = Math.ceil(y + MARGIN);
  const svg =
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${esc(FONT_FAMILY)}">` +
    `<rect width="${width}" height="${height}" fill="#fafaf9"/>${body.join('')}</svg>\n`;
  return { svg, width, height };
}
