/** Drawing the heatmap grid on a canvas (thousands of cells: one canvas, not thousands of elements). */
import type { Cell, Heatmap } from '../../../shared/heatmap/heatmap';

/** White through orange to dark red as the count rises (FlameScope-like). */
export function heatColor(f: number): string {
  if (f <= 0) return '#ffffff';
  const t = Math.min(1, Math.max(0, f));
  const l = 95 - t * 60;
  const h = 40 - t * 35;
  return `hsl(${h.toFixed(0)} 90% ${l.toFixed(0)}%)`;
}

/** The slot of a cell in time order (up each column, then on to the next). */
function slot(hm: Heatmap, c: Cell): number {
  return c.column * hm.rows + (hm.rows - 1 - c.row);
}

export function paintHeatmap(canvas: HTMLCanvasElement, hm: Heatmap, cw: number, ch: number, anchor: Cell | null, hover: Cell | null): void {
  canvas.width = hm.columns * cw;
  canvas.height = hm.rows * ch;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const max = Math.max(1, hm.maxCount);
  const sel = anchor && hover ? [Math.min(slot(hm, anchor), slot(hm, hover)), Math.max(slot(hm, anchor), slot(hm, hover))] : null;
  for (let c = 0; c < hm.columns; c++) {
    const col = hm.values[c]!;
    for (let r = 0; r < hm.rows; r++) {
      const v = col[r]!;
      const k = c * hm.rows + (hm.rows - 1 - r);
      const inSel = sel && k >= sel[0]! && k <= sel[1]!;
      if (v > 0 || inSel) {
        ctx.fillStyle = v > 0 ? heatColor(v / max) : '#fff';
        ctx.fillRect(c * cw, r * ch, cw - 1, ch - 1);
      }
      if (inSel) {
        ctx.fillStyle = 'rgba(37, 99, 235, 0.35)';
        ctx.fillRect(c * cw, r * ch, cw - 1, ch - 1);
      }
    }
  }
  for (const c of [anchor, hover]) {
    if (!c) continue;
    ctx.strokeStyle = '#1d4ed8';
    ctx.lineWidth = 1.5;
    ctx.strokeRect(c.column * cw + 0.5, c.row * ch + 0.5, cw - 2, ch - 2);
  }
}
