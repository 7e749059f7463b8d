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
import { fitGrid } from './fit-layout';
import { paneAnnotations } from './svg-annotations';
import { ROW, drawFrames, treeDepth } from './svg-frames';
import {
  FONT_FAMILY,
  INK,
  type Line,
  MUTED,
  drawLines,
  esc,
  fitText,
  formatStamp,
  linesHeight,
  n,
  svgColor,
  textWidth,
  wrapParts,
  wrapText,
} from './svg-text';

export interface ExportPane {
  runId: string;
  title: string;
  baseline?: boolean;
  /** with `baseline`: the format it is the baseline of, where that is not the baseline's (shared/runs/kind-baselines) */
  baselineOf?: string;
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

/** `baseline`, or `baseline · perf-script` for the baseline of another format. */
function baselineWords(r: { baselineOf?: string }): string {
  return r.baselineOf ? `baseline · ${r.baselineOf}` : 'baseline';
}

export interface LegendGroup {
  title?: string;
  entries: { label: string; color: string }[];
  note?: string;
}

/** One run in the picture's header: its name and its figures in words ("dd-trace: 81.7% of busy CPU"). */
export interface RunSummary {
  title: string;
  baseline?: boolean;
  /** as ExportPane.baselineOf */
  baselineOf?: string;
  figures: string[];
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
  /** a line per run under the title: its name, total and shares */
  summary?: RunSummary[];
  /**
   * The picture's height, fixed (a slide, a page) or at most (a comment image): the panes are laid
   * out in a grid that fits it, each with the depth it can have, their headers one line.
   */
  height?: number;
  maxHeight?: number;
}

export interface ExportResult {
  svg: string;
  width: number;
  height: number;
}

const MARGIN = 16;
const GAP = 16;
const PAD = 8;
const MIN_ROWS = 6;
/** The narrowest chart a pane of a fitted picture gets when the panes go side by side. */
const MIN_GRID_CHART = 280;

function gridChartWidth(width: number, cols: number): number {
  const inner = width - 2 * MARGIN;
  return Math.max(1, Math.floor((inner - GAP * (cols - 1)) / cols - 2 * PAD));
}

/** Chart width of each pane in a picture `width` wide: build each pane's view tree with `minFraction: 1 / this`. */
export function exportChartWidth(width: number, layout: 'rows' | 'columns', paneCount: number): number {
  return gridChartWidth(width, layout === 'columns' && paneCount > 1 ? paneCount : 1);
}

function paneHeader(pane: ExportPane, width: number, cut: boolean, compact: boolean): Line[] {
  const lines: Line[] = [
    { text: fitText(pane.title + (pane.baseline ? ` — ${baselineWords(pane)}` : ''), width, 14, true), size: 14, color: INK, bold: true },
  ];
  if (!compact) {
    for (const l of wrapText(pane.facts.join(' · '), width, 12)) lines.push({ text: l, size: 12, color: MUTED });
    for (const r of pane.readouts ?? [])
      for (const l of wrapText(r, width, 12, 3, true)) lines.push({ text: l, size: 12, color: INK, bold: true });
  }
  const notes = [pane.note, cut && !compact ? 'Deeper frames are not drawn.' : undefined].filter((x): x is string => !!x);
  for (const note of notes) for (const l of wrapText(note, width, 12, compact ? 1 : 3)) lines.push({ text: l, size: 12, color: '#9a3412' });
  return lines;
}

/** Title and date, caption, zoom path and a line per run: what the picture is, before any pane. */
function pictureHeader(input: ExportInput, width: number): { svg: string; height: number } {
  const inner = width - 2 * MARGIN;
  const doc = input.annotations;
  const stamp = `Exported ${typeof input.date === 'string' ? input.date : formatStamp(input.date)}`;
  const title = fitText(doc.title || 'Profile comparison', inner - textWidth(stamp, 11) - 16, 20, true);
  let svg = `<text x="${MARGIN}" y="${MARGIN + 20}" font-size="20" font-weight="700" fill="${INK}">${esc(title)}</text>`;
  svg += `<text x="${width - MARGIN}" y="${MARGIN + 18}" font-size="11" fill="${MUTED}" text-anchor="end">${esc(stamp)}</text>`;
  const head: Line[] = wrapText(doc.caption, inner, 13, 6)
    .filter((t) => t !== '')
    .map((text) => ({ text, size: 13, color: INK }));
  if (input.focusPath && input.focusPath.length > 0)
    for (const t of wrapText(`Zoomed to: all › ${input.focusPath.join(' › ')}`, inner, 12, 2))
      head.push({ text: t, size: 12, color: MUTED });
  for (const r of input.summary ?? []) {
    const parts = [`${r.title}${r.baseline ? ` (${baselineWords(r)})` : ''}`, ...r.figures];
    for (const t of wrapParts(parts, inner, 12, 3)) head.push({ text: t, size: 12, color: INK });
  }
  svg += `<g class="summary">${drawLines(head, MARGIN, MARGIN + 30)}</g>`;
  return { svg, height: MARGIN + 30 + linesHeight(head) + 8 };
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

/** Notes whose frame is in no pane as drawn: said in words, so that nothing annotated is lost. */
function missingNotes(input: ExportInput, drawnIds: Set<string>, width: number): Line[] {
  const missing = input.annotations.items.filter(
    (a) => !drawnIds.has(a.id) && isKeyAnchor(a.anchor) && (a.runId === undefined || input.panes.some((p) => p.runId === a.runId)),
  );
  if (missing.length === 0) return [];
  const lines: Line[] = [{ text: 'Notes on frames not in view:', size: 12, color: INK, bold: true }];
  for (const a of missing) {
    const path = isKeyAnchor(a.anchor) ? a.anchor.keyPath : [];
    const fn = (path[path.length - 1] ?? '').split('\t')[0];
    for (const t of wrapText(`• ${fn}: ${a.text}`, width - 2 * MARGIN, 12, 4)) lines.push({ text: t, size: 12, color: INK });
  }
  return lines;
}

interface PanePlan {
  cols: number;
  chartW: number;
  rows: number[];
  headers: Line[][];
}

/** Header height of each grid row: the panes side by side line up, so they share the tallest. */
function gridHeaderHeights(headers: Line[][], cols: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < headers.length; i += cols) out.push(Math.max(...headers.slice(i, i + cols).map(linesHeight)));
  return out;
}

/** Columns and rows as the app lays them out: every pane as deep as its tree, up to `maxRows`. */
function planAsShown(input: ExportInput, width: number, needs: number[]): PanePlan {
  const count = input.panes.length;
  const cols = input.layout === 'columns' ? Math.max(1, count) : 1;
  const chartW = exportChartWidth(width, input.layout, count);
  const maxRows = Math.max(1, input.maxRows ?? 200);
  const rows = needs.map((need) => Math.min(maxRows, Math.max(MIN_ROWS, cols > 1 ? Math.max(...needs) : need)));
  const headers = input.panes.map((p, i) => paneHeader(p, chartW, needs[i]! > rows[i]!, false));
  return { cols, chartW, rows, headers };
}

/** Columns and rows that fit the picture's height between the header (`top`) and the footer. */
function planToFit(input: ExportInput, width: number, needs: number[], top: number, footer: number, height: number): PanePlan {
  const headersAt = (chartW: number) => input.panes.map((p) => paneHeader(p, chartW, false, true));
  const inner = width - 2 * MARGIN;
  const { cols, rows } = fitGrid({
    needs,
    maxCols: Math.max(1, Math.floor((inner + GAP) / (MIN_GRID_CHART + 2 * PAD + GAP))),
    rowsAvailable(c) {
      const overhead = gridHeaderHeights(headersAt(gridChartWidth(width, c)), c).reduce((s, hh) => s + 2 * PAD + hh + 6 + GAP, 0);
      return Math.floor((height - top - footer - MARGIN - overhead) / ROW);
    },
  });
  const chartW = gridChartWidth(width, cols);
  return { cols, chartW, rows, headers: headersAt(chartW) };
}

/** The panes from `top` down, as planned; returns the SVG, where they end and which notes were drawn. */
function drawPanes(input: ExportInput, plan: PanePlan, top: number): { svg: string; bottom: number; drawnIds: Set<string> } {
  const { cols, chartW, rows, headers } = plan;
  const paneW = chartW + 2 * PAD;
  const hhs = gridHeaderHeights(headers, cols);
  const drawnIds = new Set<string>();
  const parts: string[] = [];
  let y = top;
  let rowTop = top;
  input.panes.forEach((pane, i) => {
    const col = i % cols;
    if (col === 0 && i > 0) rowTop = y;
    const hh = hhs[Math.floor(i / cols)]!;
    const chartH = rows[i]! * ROW;
    const px = MARGIN + col * (paneW + GAP);
    const paneH = PAD + hh + 6 + chartH + PAD;
    let g = `<g class="pane" transform="translate(${n(px)},${n(rowTop)})">`;
    g += `<rect x="0" y="0" width="${n(paneW)}" height="${n(paneH)}" rx="6" fill="#ffffff" stroke="#d6d3d1"/>`;
    g += drawLines(headers[i]!, PAD, PAD);
    const frames = drawFrames(pane.tree, pane.fill, chartW, rows[i]!, input.orientation === 'flame');
    const notes = paneAnnotations(annotationsForRun(input.annotations, pane.runId), pane.tree.root, frames.boxes, { w: chartW, h: chartH });
    notes.drawn.forEach((id) => drawnIds.add(id));
    g += `<g transform="translate(${PAD},${n(PAD + hh + 6)})">${frames.svg}${notes.svg}</g></g>`;
    parts.push(g);
    y = Math.max(y, rowTop + paneH + GAP);
  });
  return { svg: parts.join(''), bottom: y, drawnIds };
}

export function renderComparisonSvg(input: ExportInput): ExportResult {
  const width = Math.max(320, Math.round(input.width));
  const inner = width - 2 * MARGIN;
  const header = pictureHeader(input, width);
  const legends = drawLegends(input.legends, MARGIN, 0, inner);
  const needs = input.panes.map((p) => treeDepth(p.tree.root) + 1);
  const limit = input.height ?? input.maxHeight;
  const plan = (footer: number) =>
    limit === undefined ? planAsShown(input, width, needs) : planToFit(input, width, needs, header.height, footer, limit);
  let drawn = drawPanes(input, plan(legends.height), header.height);
  let notes = missingNotes(input, drawn.drawnIds, width);
  // Notes not drawn are listed under the legend; in a picture of fixed size the panes make room for them.
  if (limit !== undefined && notes.length > 0) {
    drawn = drawPanes(input, plan(legends.height + linesHeight(notes)), header.height);
    notes = missingNotes(input, drawn.drawnIds, width);
  }
  let y = drawn.bottom;
  const body = [header.svg, drawn.svg, `<g transform="translate(0,${n(y)})">${legends.svg}</g>`];
  y += legends.height;
  body.push(drawLines(notes, MARGIN, y));
  y += linesHeight(notes);
  const natural = Math.ceil(y + MARGIN);
  const height = input.height ?? (input.maxHeight !== undefined ? Math.min(natural, input.maxHeight) : natural);
  const svg =
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${esc(FONT_FAMILY)}">` +
    `<rect width="${width}" height="${height}" fill="#fafaf9"/>${body.join('')}</svg>\n`;
  return { svg, width, height };
}
