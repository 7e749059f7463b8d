import { useEffect, useRef, useState } from 'react';
import { type Cell, type Heatmap, cellRange, hasCell } from '../../../shared/heatmap/heatmap';
import type { Profile } from '../../../shared/model/types';
import { heatmapFor } from '../store/derived';
import { useStore } from '../store/store';
import { heatColor, paintHeatmap } from './paint';
import { cellText } from './cell-text';
import { Modal } from '../app/Modal';

const ROW_CHOICES = [25, 50, 100];

/**
 * FlameScope's subsecond-offset heatmap of one run: a column per second, a row per slice of a
 * second, darker where more samples were taken. Drag from one cell to another (or click a start
 * cell and then an end cell) to show only those samples in the run's pane.
 */
export function HeatmapDialog() {
  const runId = useStore((s) => s.heatmapRunId);
  const run = useStore((s) => s.runs.find((r) => r.id === s.heatmapRunId));
  if (!runId || !run?.profile) return null;
  // Keyed by run: the cells picked or hovered in one run's grid mean nothing in another's.
  return <RunHeatmap key={runId} runId={runId} title={run.title} profile={run.profile} />;
}

function RunHeatmap({ runId, title, profile }: { runId: string; title: string; profile: Profile }) {
  const [rows, setRows] = useState(50);
  const [includeIdle, setIncludeIdle] = useState(false);
  const [anchorCell, setAnchor] = useState<Cell | null>(null);
  const [hoverCell, setHover] = useState<Cell | null>(null);
  const [dragging, setDragging] = useState(false);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const close = () => useStore.getState().heatmapOpened(undefined);
  const hm: Heatmap = heatmapFor(profile, rows, includeIdle);
  // Cells of a grid with more rows than this one are not in it.
  const anchor = anchorCell && hasCell(hm, anchorCell) ? anchorCell : null;
  const hover = hoverCell && hasCell(hm, hoverCell) ? hoverCell : null;
  const cell = Math.max(4, Math.min(22, Math.floor(1100 / Math.max(1, hm?.columns ?? 1))));
  const cellH = Math.max(3, Math.floor(400 / rows));

  useEffect(() => {
    if (canvasRef.current) paintHeatmap(canvasRef.current, hm, cell, cellH, anchor, hover);
  }, [hm, cell, cellH, anchor, hover]);

  const cellAt = (ev: React.MouseEvent): Cell | null => {
    const r = canvasRef.current!.getBoundingClientRect();
    const column = Math.floor((ev.clientX - r.left) / cell);
    const row = Math.floor((ev.clientY - r.top) / cellH);
    return column >= 0 && column < hm.columns && row >= 0 && row < rows ? { column, row } : null;
  };
  const select = (a: Cell, b: Cell) => {
    const ra = cellRange(hm, a);
    const rb = cellRange(hm, b);
    useStore.getState().rangeSelected(runId, {
      start: Math.min(ra.start, rb.start),
      end: Math.max(ra.end, rb.end),
      cells: { a, b, rows, includeIdle },
    });
    setAnchor(null);
    close();
  };
  const hovered = hover
    ? (() => {
        const r = cellRange(hm, hover);
        const n = hm.values[hover.column]![hover.row]!;
        return cellText(r, (profile.meta.startTime ?? hm.start * 1e6) / 1e6, n);
      })()
    : undefined;
  // Once a first cell is picked, the hint says what to do next, with the cell under the pointer.
  const tip = anchor
    ? `Now click the last cell of the range${hovered ? ` · ${hovered}` : ''}`
    : (hovered ?? 'Drag across cells, or click a start cell and then an end cell');
  return (
    <Modal className="heatmap-dialog" label={`Heatmap of ${title}`} onClose={close}>
      <header>
        <h2>Heatmap — {title}</h2>
        <label>
          rows
          <select aria-label="Rows per second" value={rows} onChange={(e) => setRows(Number(e.currentTarget.value))}>
            {ROW_CHOICES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={includeIdle} onChange={(e) => setIncludeIdle(e.currentTarget.checked)} />
          show idle samples
        </label>
        <span className="spacer" />
        <button type="button" onClick={() => useStore.getState().rangeCleared(runId)}>
          Clear range
        </button>
        <button type="button" aria-label="Close heatmap" onClick={close}>
          ✕
        </button>
      </header>
      <p className="muted">
        {hm.sampleCount.toLocaleString('en-US')} samples in {hm.columns} s
        {hm.idleCount ? `, ${hm.idleCount.toLocaleString('en-US')} idle left out` : ''}
        {hm.untimedCount ? `, ${hm.untimedCount} without time` : ''}. Each column is one second, time runs up; each cell is{' '}
        {(1000 / rows).toFixed(0)} ms.
      </p>
      <div className="heatmap-scroll">
        <canvas
          ref={canvasRef}
          data-testid="heatmap-canvas"
          data-cell-width={cell}
          data-cell-height={cellH}
          data-start={hm.start}
          aria-label={`Samples per second and slice of a second in ${title}`}
          onMouseMove={(e) => setHover(cellAt(e))}
          onMouseLeave={() => setHover(null)}
          onMouseDown={(e) => {
            const c = cellAt(e);
            if (!c) return;
            if (anchor) select(anchor, c);
            else {
              setAnchor(c);
              setDragging(true);
            }
          }}
          onMouseUp={(e) => {
            const c = cellAt(e);
            setDragging(false);
            if (dragging && anchor && c && (c.column !== anchor.column || c.row !== anchor.row)) select(anchor, c);
          }}
        />
      </div>
      <footer>
        <span role="status" title={tip}>
          {tip}
        </span>
        <span className="scale">
          0{' '}
          <span
            className="scale-bar"
            style={{ background: `linear-gradient(to right, ${heatColor(0.05)}, ${heatColor(0.5)}, ${heatColor(1)})` }}
          />{' '}
          {hm.maxCount} samples per cell
        </span>
      </footer>
    </Modal>
  );
}
