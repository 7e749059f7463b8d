/**
 * One run's lane of the time-order view: its samples in time order on the shared axis (µs from
 * its start), the outermost frame on top. Wheel zooms around the pointer (Shift+wheel scrolls the
 * stack), a drag pans, a click on a box picks the box's time as the range, hover names the frame.
 */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { Profile } from '../../../shared/model/types';
import { type ChartBox, type TimeAxis, boxExtent, chartBoxes, maxDepthOf } from '../../../shared/view/time-order';
import { formatDuration } from '../comparison/format';
import type { Palette } from '../store/view-slice';
import { type Window, panned, zoomed } from './axis';
import { capture } from './Minimap';
import { ROW, boxX, paintLane } from './paint';

export interface LaneProps {
  title: string;
  profile: Profile;
  axis: TimeAxis;
  view: Window;
  span: number;
  width: number;
  height: number;
  palette: Palette;
  matches: Uint8Array | undefined;
  range: Window | undefined;
  onView(w: Window): void;
  onPick(w: Window): void;
}

interface Hover {
  x: number;
  y: number;
  box: ChartBox;
}

/** The box under a point of the lane. */
function boxAt(boxes: ChartBox[], view: Window, width: number, x: number, y: number): ChartBox | undefined {
  const depth = Math.floor(y / ROW) + 1;
  return boxes.find((b) => {
    if (b.depth !== depth) return false;
    const r = boxX(b, view, width);
    return x >= r.x && x < r.x + Math.max(1, r.w);
  });
}

export const Lane = memo(function Lane(props: LaneProps) {
  const { profile, axis, view, width, height } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [hover, setHover] = useState<Hover | null>(null);
  const drag = useRef<{ x: number; y: number; view: Window; top: number; moved: boolean } | null>(null);
  const rows = useMemo(() => maxDepthOf(axis), [axis]);
  const maxTop = Math.max(0, rows * ROW - height);
  const top = Math.min(scrollTop, maxTop);
  // the rows in view, and those above them (a box there is one with the boxes under it)
  const depthShown = Math.ceil((top + height) / ROW);
  const boxes = useMemo(() => {
    const t0 = performance.now();
    const out = chartBoxes(axis, view.t0, view.t1, width, depthShown);
    // the same User Timing entry as a pane's view tree (scripts/bench-ui.mjs reads it)
    performance.measure('flamelens:view-tree', { start: t0 });
    return out;
  }, [axis, view, width, depthShown]);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    if (!canvasRef.current || width <= 0) return;
    const t0 = performance.now();
    paintLane(canvasRef.current, {
      profile,
      boxes,
      window: view,
      width,
      height,
      scrollTop: top,
      palette: props.palette,
      matches: props.matches,
      range: props.range,
    });
    performance.measure('flamelens:draw', { start: t0 });
  }, [profile, boxes, view, width, height, top, props.palette, props.matches, props.range]);

  // wheel: not passive, so that it zooms instead of scrolling the page
  useEffect(() => {
    const el = canvasRef.current;
    if (!el) return;
    const onWheel = (ev: WheelEvent) => {
      ev.preventDefault();
      const p = latest.current;
      if (ev.shiftKey) return setScrollTop((s) => Math.max(0, Math.min(maxTopRef.current, s + ev.deltaY)));
      const x = ev.clientX - el.getBoundingClientRect().left;
      const at = p.view.t0 + (x / p.width) * (p.view.t1 - p.view.t0);
      p.onView(zoomed(p.view, at, Math.exp(ev.deltaY * 0.002), p.span));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);
  const maxTopRef = useRef(maxTop);
  maxTopRef.current = maxTop;

  const local = (ev: React.PointerEvent) => {
    const r = ev.currentTarget.getBoundingClientRect();
    return { x: ev.clientX - r.left, y: ev.clientY - r.top };
  };
  const extent = hover ? boxExtent(axis, hover.box.node, hover.box.sample) : undefined;
  const f = hover ? profile.tree.frame[hover.box.node]! : -1;
  return (
    <div className="timeorder-chart" style={{ height }}>
      <canvas
        ref={canvasRef}
        style={{ width, height }}
        aria-label={`Samples of ${props.title} in time order`}
        data-boxes={boxes.length}
        onPointerDown={(ev) => {
          capture(ev);
          const { x, y } = local(ev);
          drag.current = { x, y, view, top, moved: false };
        }}
        onPointerMove={(ev) => {
          const { x, y } = local(ev);
          const d = drag.current;
          if (d && (d.moved || Math.abs(x - d.x) + Math.abs(y - d.y) > 3)) {
            d.moved = true;
            setHover(null);
            props.onView(panned(d.view, ((d.x - x) / width) * (d.view.t1 - d.view.t0), props.span));
            setScrollTop(Math.max(0, Math.min(maxTop, d.top + d.y - y)));
            return;
          }
          const box = boxAt(boxes, view, width, x, y + top);
          setHover(box ? { x, y, box } : null);
        }}
        onPointerUp={(ev) => {
          const d = drag.current;
          drag.current = null;
          if (!d || d.moved) return;
          const { x, y } = local(ev);
          const box = boxAt(boxes, view, width, x, y + top);
          if (box) {
            const e = boxExtent(axis, box.node, box.sample);
            props.onPick({ t0: e.x0, t1: e.x1 });
          }
        }}
        onPointerLeave={() => setHover(null)}
      />
      {hover && extent && (
        <div
          className="timeorder-tooltip"
          role="tooltip"
          style={{ left: Math.min(hover.x + 12, Math.max(0, width - 320)), top: Math.min(hover.y + 14, Math.max(0, height - 64)) }}
        >
          <strong>{profile.frames.name[f]}</strong>
          <span>
            {formatDuration(extent.x1 - extent.x0)} from {formatDuration(extent.x0)} · {extent.samples.toLocaleString('en-US')} sample
            {extent.samples === 1 ? '' : 's'}
          </span>
          <span className="muted">{profile.frames.file[f] || 'no file'}</span>
          <span className="muted">click: pick this time as the range</span>
        </div>
      )}
    </div>
  );
});
