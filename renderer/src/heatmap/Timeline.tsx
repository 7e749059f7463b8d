import { memo, useRef, useState } from 'react';
import type { Profile } from '../../../shared/model/types';
import { densityBucketsNear } from '../../../shared/heatmap/heatmap';
import { densityFor } from '../store/derived';
import { useStore } from '../store/store';
import { barPaths } from './timeline-bars';

const HEIGHT = 26;

/**
 * Sample density over a run's time, above its pane: drag across it to show only the samples of
 * that stretch (warm-up left out, a GC burst picked out); double-click clears. Drawn again only
 * when its own props or range change, not on every redraw of its pane (a zoom, a search).
 */
export const Timeline = memo(function Timeline({
  runId,
  title,
  profile,
  width,
}: {
  runId: string;
  title: string;
  profile: Profile;
  width: number;
}) {
  const range = useStore((s) => s.ranges[runId]);
  const [drag, setDrag] = useState<{ x0: number; x1: number } | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  // about one bar per 4 px, as many as divide the worked-out density evenly
  const buckets = densityBucketsNear(Math.max(10, Math.min(400, Math.floor(width / 4))));
  if (width <= 0) return null;
  const d = densityFor(profile, buckets);
  const span = Math.max(d.end - d.start, 1e-9);
  const max = Math.max(1, d.maxCount, ...d.idleCounts);
  const bars = barPaths(d.counts, d.idleCounts, max, width, HEIGHT);
  const xOf = (t: number) => ((t - d.start) / span) * width;
  const tOf = (x: number) => d.start + (Math.max(0, Math.min(width, x)) / width) * span;
  const localX = (ev: React.PointerEvent) => ev.clientX - svgRef.current!.getBoundingClientRect().left;
  const shown = drag
    ? { a: Math.min(drag.x0, drag.x1), b: Math.max(drag.x0, drag.x1) }
    : range
      ? { a: xOf(range.start), b: xOf(range.end) }
      : null;
  return (
    <svg
      ref={svgRef}
      className="timeline"
      width={width}
      height={HEIGHT}
      role="img"
      aria-label={`Samples over time in ${title}; drag to pick a time range, double-click to clear`}
      onPointerDown={(ev) => {
        (ev.target as Element).setPointerCapture?.(ev.pointerId);
        const x = localX(ev);
        setDrag({ x0: x, x1: x });
      }}
      onPointerMove={(ev) => drag && setDrag({ ...drag, x1: localX(ev) })}
      onPointerUp={() => {
        if (!drag) return;
        const a = Math.min(drag.x0, drag.x1);
        const b = Math.max(drag.x0, drag.x1);
        setDrag(null);
        if (b - a >= 3) useStore.getState().rangeSelected(runId, { start: tOf(a), end: tOf(b) + (b >= width ? 1e-6 : 0) });
      }}
      onDoubleClick={() => useStore.getState().rangeCleared(runId)}
    >
      <title>{`${d.counts.reduce((s, c) => s + c, 0).toLocaleString('en-US')} samples over ${span.toFixed(2)} s`}</title>
      <path className="timeline-idle" d={bars.idle} />
      <path className="timeline-busy" d={bars.busy} />
      {shown && <rect className="timeline-range" x={shown.a} y={0} width={Math.max(1, shown.b - shown.a)} height={HEIGHT} />}
    </svg>
  );
});
