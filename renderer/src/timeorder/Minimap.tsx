/**
 * The overview above the lanes: the sample density of every run on the shared axis (from the
 * density the import worker worked out), the stretch the lanes show, and the time range.
 * Drag across it to pick a range (the one the heatmap sets: the flamegraphs, shares and diff
 * follow); double-click to see the whole runs again.
 */
import { useEffect, useRef, useState } from 'react';
import { densityBucketsNear } from '../../../shared/heatmap/heatmap';
import type { Profile } from '../../../shared/model/types';
import type { TimeAxis } from '../../../shared/view/time-order';
import { densityFor } from '../store/derived';
import type { Window } from './axis';

const HEIGHT = 44;

export interface Timed {
  profile: Profile;
  axis: TimeAxis;
}

/**
 * Activity of every run in `bins` equal stretches of [0, span] µs from each run's start: per bin,
 * the most any run had, each run's busy samples as a share of its own busiest bin (so that a run
 * sampled at 99 Hz shows beside one sampled at 1 kHz).
 */
function activity(runs: Timed[], span: number, bins: number): number[] {
  const out = new Array<number>(bins).fill(0);
  const buckets = densityBucketsNear(bins);
  for (const { profile, axis } of runs) {
    const d = densityFor(profile, buckets);
    const from = d.start * 1e6 - axis.origin;
    const w = d.bucketSeconds * 1e6;
    const own = new Array<number>(bins).fill(0);
    d.counts.forEach((c, i) => {
      const bin = Math.floor(((from + (i + 0.5) * w) / span) * bins);
      if (c > 0 && bin >= 0 && bin < bins) own[bin]! += c;
    });
    const max = Math.max(1, ...own);
    own.forEach((c, i) => (out[i] = Math.max(out[i]!, c / max)));
  }
  return out;
}

function paint(canvas: HTMLCanvasElement, counts: number[], width: number): void {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(HEIGHT * ratio);
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  const max = Math.max(1, ...counts);
  const bw = width / counts.length;
  ctx.fillStyle = '#94a3b8';
  counts.forEach((c, i) => {
    const h = (c / max) * (HEIGHT - 4);
    if (c > 0) ctx.fillRect(i * bw, HEIGHT - h, Math.max(1, bw - 0.5), h);
  });
}

export function Minimap({
  runs,
  span,
  view,
  range,
  width,
  onPick,
  onReset,
}: {
  runs: Timed[];
  span: number;
  view: Window;
  range: Window | undefined;
  width: number;
  onPick(w: Window): void;
  onReset(): void;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  // the drag as drawn, and as the pointer handlers read it (before React has drawn it)
  const [drag, setDrag] = useState<{ x0: number; x1: number } | null>(null);
  const dragRef = useRef<{ x0: number; x1: number } | null>(null);
  const dragTo = (d: { x0: number; x1: number } | null) => {
    dragRef.current = d;
    setDrag(d);
  };
  useEffect(() => {
    if (canvasRef.current && width > 0) paint(canvasRef.current, activity(runs, span, Math.max(10, Math.floor(width / 3))), width);
  }, [runs, span, width]);
  const xOf = (t: number) => (t / span) * width;
  const tOf = (x: number) => (Math.max(0, Math.min(width, x)) / width) * span;
  const localX = (ev: React.PointerEvent) => ev.clientX - ev.currentTarget.getBoundingClientRect().left;
  const picked = drag ? { a: Math.min(drag.x0, drag.x1), b: Math.max(drag.x0, drag.x1) } : range && { a: xOf(range.t0), b: xOf(range.t1) };
  return (
    <div
      className="timeorder-minimap"
      style={{ width, height: HEIGHT }}
      role="slider"
      aria-label="Samples of every run over time from its start; drag to pick a time range (Left and Right move it), double-click for the whole runs"
      aria-valuemin={0}
      aria-valuemax={Math.round(span / 1000)}
      aria-valuenow={Math.round((range?.t0 ?? 0) / 1000)}
      aria-valuetext={range ? `${fmtMs(range.t0)}–${fmtMs(range.t1)} ms from start` : 'no range'}
      data-span={span}
      tabIndex={0}
      onPointerDown={(ev) => {
        capture(ev);
        const x = localX(ev);
        dragTo({ x0: x, x1: x });
      }}
      onPointerMove={(ev) => dragRef.current && dragTo({ ...dragRef.current, x1: localX(ev) })}
      onPointerUp={(ev) => {
        const d = dragRef.current;
        if (!d) return;
        const a = Math.min(d.x0, localX(ev));
        const b = Math.max(d.x0, localX(ev));
        dragTo(null);
        if (b - a >= 3) onPick({ t0: tOf(a), t1: tOf(b) });
      }}
      onDoubleClick={onReset}
      onKeyDown={(ev) => {
        // Left and Right move the range by a tenth of its width, within the runs
        if (!range || (ev.key !== 'ArrowLeft' && ev.key !== 'ArrowRight')) return;
        ev.preventDefault();
        const w = range.t1 - range.t0;
        const t0 = Math.max(0, Math.min(span - w, range.t0 + (ev.key === 'ArrowRight' ? w : -w) / 10));
        onPick({ t0, t1: t0 + w });
      }}
    >
      <canvas ref={canvasRef} style={{ width, height: HEIGHT }} />
      <div className="timeorder-window" style={{ left: xOf(view.t0), width: Math.max(2, xOf(view.t1) - xOf(view.t0)) }} />
      {picked && <div className="timeorder-range" style={{ left: picked.a, width: Math.max(1, picked.b - picked.a) }} />}
    </div>
  );
}

/** Keeps the pointer's events while it drags (a pointer that is not down cannot be captured). */
export function capture(ev: React.PointerEvent): void {
  try {
    ev.currentTarget.setPointerCapture(ev.pointerId);
  } catch {
    // not an active pointer: the drag still works while the pointer stays over the element
  }
}

export function fmtMs(us: number): string {
  return (us / 1000).toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
}
