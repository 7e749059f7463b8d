import { useState } from 'react';
import { type RemovedRun, undoableRemoval } from '../store/run-removal';
import { useStore } from '../store/store';

/** "Removed otel — Undo" while the last step is a removal that undo would take back. */
export function RemovedNotice() {
  const removal = useStore(undoableRemoval);
  const [dismissed, setDismissed] = useState<RemovedRun | undefined>(undefined);
  if (!removal || removal === dismissed) return null;
  return (
    <div className="notice" role="status" aria-label="Run removed">
      <span>
        Removed <strong>{removal.run.title}</strong>.{' '}
        <button type="button" className="link" onClick={() => useStore.getState().annotationsUndone()}>
          Undo
        </button>{' '}
        <span className="muted">(Ctrl/Cmd+Z)</span>
      </span>
      <button type="button" aria-label="Dismiss" onClick={() => setDismissed(removal)}>
        ✕
      </button>
    </div>
  );
}
