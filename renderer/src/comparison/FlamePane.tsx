import { ErrorBoundary } from '../app/ErrorBoundary';
import { cancelImport } from '../import/open';
import type { Run } from '../store/runs-slice';
import { baselineKind } from '../store/compared-with';
import { useStore } from '../store/store';
import { formatBytes } from './format';
import { PaneChart } from './PaneChart';
import { PaneHeader } from './PaneHeader';

interface Props {
  run: Run;
  index: number;
  count: number;
}

export function FlamePane({ run, index, count }: Props) {
  // (the baseline, or the baseline of this run's format: ../store/compared-with)
  const kind = useStore((s) => baselineKind(s, run.id));
  const size = usePaneSize(run.id);
  const height = useStore((s) => (s.layout === 'rows' && size === 'normal' ? s.paneHeights[run.id] : undefined));
  return (
    <section
      style={height ? { flex: `0 0 ${height}px`, minHeight: MIN_HEIGHT } : undefined}
      className={`pane pane-is-${run.status}${size === 'normal' ? '' : ` pane-${size}`}`}
      role="region"
      aria-label={`Run ${run.title}`}
      data-run-id={run.id}
      tabIndex={0}
    >
      <PaneHeader run={run} index={index} count={count} baselineKind={kind} size={size} />
      {/* The header stays outside: a failed pane can still be removed, renamed or moved. */}
      <ErrorBoundary what={`The pane of ${run.title}`} resetKey={run.profile}>
        {run.status === 'loading' && <Loading run={run} />}
        {run.status === 'error' && (
          <div className="pane-error" role="alert">
            <strong>Could not open this file.</strong>
            <p>{run.error}</p>
          </div>
        )}
        {run.status === 'ready' && run.profile && <PaneChart run={run} />}
      </ErrorBoundary>
      {size === 'normal' && <ResizeHandle run={run} />}
    </section>
  );
}

const MIN_HEIGHT = 90;

/**
 * The bottom edge of a pane in the rows layout: drag it (or Up/Down with the keyboard) to set the
 * pane's height; double-click gives the pane its share again.
 */
function ResizeHandle({ run }: { run: Run }) {
  const s = useStore.getState();
  const heightOf = (el: Element) => el.closest('section.pane')!.getBoundingClientRect().height;
  return (
    <div
      className="pane-resizer"
      role="separator"
      aria-orientation="horizontal"
      aria-label={`Resize ${run.title}`}
      title="Drag to resize; double-click for an equal share"
      tabIndex={0}
      onPointerDown={(e) => {
        const el = e.currentTarget;
        const y0 = e.clientY;
        const h0 = heightOf(el);
        el.setPointerCapture(e.pointerId);
        const move = (ev: PointerEvent) => s.paneResized(run.id, Math.max(MIN_HEIGHT, h0 + ev.clientY - y0));
        const up = () => {
          el.removeEventListener('pointermove', move);
          el.removeEventListener('pointerup', up);
        };
        el.addEventListener('pointermove', move);
        el.addEventListener('pointerup', up);
      }}
      onDoubleClick={() => s.paneResized(run.id, null)}
      onKeyDown={(e) => {
        if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
        e.preventDefault();
        e.stopPropagation();
        s.paneResized(run.id, Math.max(MIN_HEIGHT, heightOf(e.currentTarget) + (e.key === 'ArrowDown' ? 20 : -20)));
      }}
    />
  );
}

export type PaneSize = 'normal' | 'maximized' | 'strip';

/** Whether the pane has its share, fills the comparison, or is a strip beside the one that does. */
export function usePaneSize(runId: string): PaneSize {
  return useStore((s) => {
    const max = s.maximizedRunId;
    if (max === null || !s.runs.some((r) => r.id === max)) return 'normal';
    return max === runId ? 'maximized' : 'strip';
  });
}

function Loading({ run }: { run: Run }) {
  const read = run.bytesRead ?? 0;
  const size = run.size;
  return (
    <div className="pane-loading">
      <span>Reading {run.fileName}…</span>
      <progress max={size ?? undefined} value={size ? read : undefined} aria-label={`Loading ${run.fileName}`} />
      <span className="muted">
        {formatBytes(read)}
        {size ? ` of ${formatBytes(size)}` : ''}
      </span>
      <button type="button" onClick={() => cancelImport(run.id)}>
        Cancel
      </button>
    </div>
  );
}
