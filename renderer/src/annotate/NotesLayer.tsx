import { useRef, useState } from 'react';
import {
  type Annotation,
  type AnnotationDoc,
  type Region,
  annotationsForRun,
  isKeyAnchor,
  normalizeRegion,
} from '../../../shared/annotate/annotations';
import type { BoxRect, FramePathAt, NoteSurface } from './note-surface';
import { useStore } from '../store/store';

interface Placed {
  a: Annotation;
  rect: BoxRect;
}

/** Where each of the pane's annotations goes in the drawing (notes whose frame is not drawn are left out). */
function place(chart: NoteSurface, doc: AnnotationDoc, runId: string, _tick: number): Placed[] {
  const items = annotationsForRun(doc, runId);
  const keyed = items.filter((a) => isKeyAnchor(a.anchor));
  const rects = chart.boxes(keyed.map((a) => (a.anchor as { keyPath: string[] }).keyPath));
  const { width, height } = chart.size();
  const out: Placed[] = [];
  keyed.forEach((a, i) => rects[i] && out.push({ a, rect: rects[i]! }));
  for (const a of items) {
    if (isKeyAnchor(a.anchor)) continue;
    const r = a.anchor.region;
    out.push({ a, rect: { x: r.x * width, y: r.y * height, w: r.w * width, h: r.h * height } });
  }
  return out;
}

/**
 * A pane's annotations drawn over its flamegraph: notes pinned to frames (they follow the frame
 * through zoom, and show on every pane that has it unless pinned to one), highlight boxes around
 * frames or areas. Double-click a note to edit it; drag a box to move it, or a note onto another
 * frame to pin it there; × deletes.
 */
export function NotesLayer({
  runId,
  chart,
  tick,
  framePathAt,
}: {
  runId: string;
  chart: NoteSurface | null;
  tick: number;
  /** where a note dragged onto a frame is pinned */
  framePathAt: FramePathAt;
}) {
  const doc = useStore((s) => s.annotationHistory.present);
  const mode = useStore((s) => s.pointerMode);
  const [editing, setEditing] = useState<string | null>(null);
  const [drag, setDrag] = useState<{ x0: number; y0: number; x1: number; y1: number; moving?: Annotation } | null>(null);
  const layer = useRef<HTMLDivElement>(null);

  // Placed from the chart's drawing: `tick` changes after every draw, which re-renders this layer.
  const placed = chart ? place(chart, doc, runId, tick) : [];
  // The layer covers the whole drawing (which scrolls inside the pane), so that areas and notes
  // are in the drawing's coordinates.
  const size = chart?.size() ?? { width: 0, height: 0 };

  const s = useStore.getState();
  const local = (ev: React.PointerEvent) => {
    const r = layer.current!.getBoundingClientRect();
    return { x: ev.clientX - r.left, y: ev.clientY - r.top };
  };
  const toRegion = (d: NonNullable<typeof drag>): Region => {
    const { width, height } = chart!.size();
    return normalizeRegion({
      x: Math.min(d.x0, d.x1) / width,
      y: Math.min(d.y0, d.y1) / height,
      w: Math.abs(d.x1 - d.x0) / width,
      h: Math.abs(d.y1 - d.y0) / height,
    });
  };
  return (
    <div
      ref={layer}
      className={`notes-layer ${mode === 'box' ? 'drawing' : ''}`}
      style={{ width: size.width || '100%', height: size.height || '100%' }}
      onPointerDown={(ev) => {
        if (mode !== 'box' || ev.target !== layer.current) return;
        const p = local(ev);
        layer.current!.setPointerCapture?.(ev.pointerId);
        setDrag({ x0: p.x, y0: p.y, x1: p.x, y1: p.y });
      }}
      onPointerMove={(ev) => {
        if (!drag) return;
        const p = local(ev);
        setDrag({ ...drag, x1: p.x, y1: p.y });
      }}
      onPointerUp={(ev) => {
        if (!drag || !chart) return;
        setDrag(null);
        if (drag.moving && isKeyAnchor(drag.moving.anchor)) {
          // A note dropped on a frame is pinned to it; a click (no real move) or a drop beside
          // every frame leaves it where it was.
          if (Math.hypot(drag.x1 - drag.x0, drag.y1 - drag.y0) < 4) return;
          const path = framePathAt(ev.clientX, ev.clientY);
          if (path && path.length > 0 && path.join('\u0001') !== drag.moving.anchor.keyPath.join('\u0001'))
            s.annotationChanged({ type: 'moved', id: drag.moving.id, anchor: { keyPath: path } });
        } else if (drag.moving) {
          const r = (drag.moving.anchor as { region: Region }).region;
          const { width, height } = chart.size();
          const moved = normalizeRegion({ ...r, x: r.x + (drag.x1 - drag.x0) / width, y: r.y + (drag.y1 - drag.y0) / height });
          s.annotationChanged({ type: 'moved', id: drag.moving.id, anchor: { region: moved } });
        } else if (Math.abs(drag.x1 - drag.x0) > 6 && Math.abs(drag.y1 - drag.y0) > 6)
          s.draftStarted({ kind: 'box', anchor: { region: toRegion(drag) }, runId, label: 'an area' });
      }}
    >
      {placed.map(({ a, rect }) => {
        const dx = drag?.moving?.id === a.id ? drag.x1 - drag.x0 : 0;
        const dy = drag?.moving?.id === a.id ? drag.y1 - drag.y0 : 0;
        return (
          <div
            key={a.id}
            className={`annotation annotation-${a.kind}`}
            style={{ left: rect.x + dx, top: rect.y + dy, width: rect.w, height: rect.h }}
          >
            {(a.kind === 'note' || a.text) && (
              <div
                className="note-callout"
                role="note"
                aria-label={`Note: ${a.text}`}
                onDoubleClick={() => setEditing(a.id)}
                onPointerDown={(ev) => {
                  if ((ev.target as Element).closest('button, input')) return;
                  ev.stopPropagation();
                  const p = local(ev);
                  layer.current!.setPointerCapture?.(ev.pointerId);
                  setDrag({ x0: p.x, y0: p.y, x1: p.x, y1: p.y, moving: a });
                }}
              >
                {editing === a.id ? (
                  <input
                    autoFocus
                    aria-label="Edit note"
                    defaultValue={a.text}
                    onKeyDown={(e) => {
                      e.stopPropagation();
                      if (e.key === 'Enter') e.currentTarget.blur();
                      if (e.key === 'Escape') setEditing(null);
                    }}
                    onBlur={(e) => {
                      s.annotationChanged({ type: 'edited', id: a.id, text: e.currentTarget.value });
                      setEditing(null);
                    }}
                  />
                ) : (
                  <span>{a.text || '(box)'}</span>
                )}
                <button
                  type="button"
                  aria-label={`Delete note ${a.text}`}
                  onClick={() => s.annotationChanged({ type: 'deleted', id: a.id })}
                >
                  ×
                </button>
              </div>
            )}
          </div>
        );
      })}
      {drag && !drag.moving && (
        <div
          className="annotation annotation-box drafting"
          style={{
            left: Math.min(drag.x0, drag.x1),
            top: Math.min(drag.y0, drag.y1),
            width: Math.abs(drag.x1 - drag.x0),
            height: Math.abs(drag.y1 - drag.y0),
          }}
        />
      )}
    </div>
  );
}
