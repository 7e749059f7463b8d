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
  const colors = new Map<number, string>();
  for (const b of d.boxes) {
    const y = (b.depth - 1) * ROW - d.scrollTop;
    if (y + ROW < 0 || y > d.height) continue;
    const { x, w } = boxX(b, d.window, d.width);
    const f = tree.frame[b.node]!;
    let fill = colors.get(f);
    if (fill === undefined) {
      fill = d.matches?.[f] ? MATCH_COLOR[d.palette] : frameColor(d.palette, frames.category[f]!, frames.tier[f]!, frames.key[f]!);
      colors.set(f, fill);
    }
    ctx.fillStyle = fill;
    ctx.fillRect(x, y, Math.max(1, w - 0.5), ROW - 1);
    if (w >= 24) {
      const name = frames.name[f]!;
      const fits = Math.floor((w - 6) / CHAR);
      ctx.fillStyle = '#111';
      ctx.fillText(fits >= name.length ? name : `${name.slice(0, Math.max(1, fits - 1))}…`, x + 3, y + ROW / 2);
    }
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
