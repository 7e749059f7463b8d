/**
 * Drawing a lane of the time-order view on a canvas: thousands of boxes at most (one sample per
 * column of pixels, see `chartBoxes`), each a filled rectangle with its function's name where it
 * fits, then the parts outside the run's time range dimmed.
 */
import type { Profile } from '../../../shared/model/types';
import type { ChartBox } from '../../../shared/view/time-order';
import type { Palette } from '../store/view-slice';
import { MATCH_COLOR, frameColor } from '../comparison/colors';
import type { Window } from './axis';

/** Height of a row (one depth of the stack), CSS px. */
export const ROW = 16;
const CHAR = 6.2;

export interface LaneDraw {
  profile: Profile;
  boxes: ChartBox[];
  window: Window;
  /** CSS px */
  width: number;
  height: number;
  /** rows scrolled off the top, px */
  scrollTop: number;
  palette: Palette;
  /** per frame: 1 where the search matches */
  matches: Uint8Array | undefined;
  /** the run's time range, µs from its start */
  range: Window | undefined;
}

export function boxX(b: Pick<ChartBox, 'x0' | 'x1'>, w: Window, width: number): { x: number; w: number } {
  const k = width / (w.t1 - w.t0);
  const x = (b.x0 - w.t0) * k;
  return { x, w: (b.x1 - b.x0) * k };
}

export function paintLane(canvas: HTMLCanvasElement, d: LaneDraw): void {
  const ratio = window.devicePixelRatio || 1;
  const pw = Math.round(d.width * ratio);
  const ph = Math.round(d.height * ratio);
  if (canvas.width !== pw) canvas.width = pw;
  if (canvas.height !== ph) canvas.height = ph;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, d.width, d.height);
  ctx.font = '11px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  const { frames, tree } = d.profile;
  // one path per colour, filled once: a fill style set per box costs more than the box
  const byFill = new Map<string, number[]>();
  const colorOf = new Map<number, string>();
  const labels: number[] = [];
  for (let i = 0; i < d.boxes.length; i++) {
    const b = d.boxes[i]!;
    const y = (b.depth - 1) * ROW - d.scrollTop;
    if (y + ROW < 0 || y > d.height) continue;
    const { x, w } = boxX(b, d.window, d.width);
    const f = tree.frame[b.node]!;
    let fill = colorOf.get(f);
    if (fill === undefined) {
      fill = d.matches?.[f] ? MATCH_COLOR[d.palette] : frameColor(d.palette, frames.category[f]!, frames.tier[f]!, frames.key[f]!);
      colorOf.set(f, fill);
    }
    let rects = byFill.get(fill);
    if (!rects) byFill.set(fill, (rects = []));
    rects.push(x, y, Math.max(1, w - 0.5));
    if (w >= 24) labels.push(i, x, y, w);
  }
  for (const [fill, rects] of byFill) {
    ctx.fillStyle = fill;
    ctx.beginPath();
    for (let k = 0; k < rects.length; k += 3) ctx.rect(rects[k]!, rects[k + 1]!, rects[k + 2]!, ROW - 1);
    ctx.fill();
  }
  ctx.fillStyle = '#111';
  for (let k = 0; k < labels.length; k += 4) {
    const name = frames.name[tree.frame[d.boxes[labels[k]!]!.node]!]!;
    const fits = Math.floor((labels[k + 3]! - 6) / CHAR);
    ctx.fillText(fits >= name.length ? name : `${name.slice(0, Math.max(1, fits - 1))}…`, labels[k + 1]! + 3, labels[k + 2]! + ROW / 2);
  }
  if (d.boxes.length === 0) {
    ctx.fillStyle = '#6b7280';
    ctx.fillText('no busy samples in this stretch of the run', 8, ROW);
  }
  if (d.range) dimOutside(ctx, d, d.range);
}

function dimOutside(ctx: CanvasRenderingContext2D, d: LaneDraw, range: Window): void {
  const { x, w } = boxX({ x0: range.t0, x1: range.t1 }, d.window, d.width);
  ctx.fillStyle = 'rgba(255, 255, 255, 0.6)';
  if (x > 0) ctx.fillRect(0, 0, Math.min(x, d.width), d.height);
  if (x + w < d.width) ctx.fillRect(Math.max(0, x + w), 0, d.width - Math.max(0, x + w), d.height);
  ctx.fillStyle = '#2563eb';
  for (const edge of [x, x + w]) if (edge >= 0 && edge <= d.width) ctx.fillRect(edge - 0.5, 0, 1, d.height);
}
