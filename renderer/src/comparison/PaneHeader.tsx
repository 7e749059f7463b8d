import { useState } from 'react';
import { hasTimestamps } from '../../../shared/heatmap/heatmap';
import { cancelImport } from '../import/open';
import type { Run } from '../store/runs-slice';
import { useStore } from '../store/store';
import type { PaneSize } from './FlamePane';
import { RepeatPicker } from './RepeatPicker';

interface Props {
  run: Run;
  index: number;
  count: number;
  /** the run is the baseline, or the baseline of its format (../store/compared-with) */
  baselineKind: 'baseline' | 'format' | undefined;
  size: PaneSize;
}

export function PaneHeader({ run, index, count, baselineKind, size }: Props) {
  const [editing, setEditing] = useState(false);
  const s = useStore.getState();
  return (
    <header className="pane-header">
      {editing ? (
        <input
          className="pane-title-input"
          aria-label="Run name"
          defaultValue={run.title}
          autoFocus
          onBlur={(e) => {
            s.runRenamed(run.id, e.currentTarget.value);
            setEditing(false);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') e.currentTarget.blur();
            if (e.key === 'Escape') setEditing(false);
            e.stopPropagation();
          }}
        />
      ) : (
        <h2 className="pane-title" title={`${run.title} (double-click to rename)`} onDoubleClick={() => setEditing(true)}>
          {run.title}
        </h2>
      )}
      <RepeatPicker run={run} />
      {baselineKind === 'format' && (
        <span
          className="badge baseline"
          title={`The baseline of the ${run.profile?.format} runs: they are compared with this run, from the baseline's folder, not with the baseline of another format`}
        >
          baseline · {run.profile?.format}
        </span>
      )}
      {baselineKind === 'baseline' ? (
        <span className="badge baseline">baseline</span>
      ) : (
        run.status === 'ready' && (
          <button type="button" className="link" onClick={() => s.baselineChosen(run.id)}>
            Make baseline
          </button>
        )
      )}
      <span className="spacer" />
      {run.profile && hasTimestamps(run.profile) && (
        <button type="button" onClick={() => s.heatmapOpened(run.id)} title="Subsecond heatmap: pick a time range">
          Heatmap
        </button>
      )}
      <button
        type="button"
        aria-label={size === 'maximized' ? `Restore ${run.title}` : `Maximise ${run.title}`}
        aria-pressed={size === 'maximized'}
        title={size === 'maximized' ? 'Give every pane its share again (M)' : 'Maximise this pane; the others shrink to their figures (M)'}
        onClick={() => s.paneMaximized(size === 'maximized' ? null : run.id)}
      >
        {size === 'maximized' ? '⤡' : '⤢'}
      </button>
      <button type="button" aria-label={`Rename ${run.title}`} title="Rename" onClick={() => setEditing(true)}>
        ✎
      </button>
      <button
        type="button"
        aria-label={`Move ${run.title} earlier`}
        title="Move earlier"
        disabled={index === 0}
        onClick={() => s.runMoved(run.id, -1)}
      >
        ◀
      </button>
      <button
        type="button"
        aria-label={`Move ${run.title} later`}
        title="Move later"
        disabled={index === count - 1}
        onClick={() => s.runMoved(run.id, 1)}
      >
        ▶
      </button>
      <button
        type="button"
        aria-label={`Remove ${run.title}`}
        title="Remove"
        onClick={() => (run.status === 'loading' ? cancelImport(run.id) : s.runRemoved(run.id))}
      >
        ✕
      </button>
    </header>
  );
}
