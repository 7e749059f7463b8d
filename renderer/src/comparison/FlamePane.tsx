import { ErrorBoundary } from '../app/ErrorBoundary';
import { cancelImport } from '../import/open';
import type { Run } from '../store/runs-slice';
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
  const baselineId = useStore((s) => s.baselineId);
  const baseline = useStore((s) => s.runs.find((r) => r.id === s.baselineId)?.profile);
  const isBaseline = baselineId === run.id;
  const size = usePaneSize(run.id);
  return (
    <section
      className={`pane pane-is-${run.status}${size === 'normal' ? '' : ` pane-${size}`}`}
      role="region"
      aria-label={`Run ${run.title}`}
      data-run-id={run.id}
      tabIndex={0}
    >
      <PaneHeader run={run} index={index} count={count} isBaseline={isBaseline} size={size} />
      {/* The header stays outside: a failed pane can still be removed, renamed or moved. */}
      <ErrorBoundary what={`The pane of ${run.title}`} resetKey={run.profile}>
        {run.status === 'loading' && <Loading run={run} />}
        {run.status === 'error' && (
          <div className="pane-error" role="alert">
            <strong>Could not open this file.</strong>
            <p>{run.error}</p>
          </div>
        )}
        {run.status === 'ready' && run.profile && <PaneChart run={run} baseline={isBaseline ? undefined : baseline} />}
      </ErrorBoundary>
    </section>
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
