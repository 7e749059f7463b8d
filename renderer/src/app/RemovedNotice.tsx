import { useEffect, useState } from 'react';
import { type RemovedRun, undoableRemoval } from '../store/run-removal';
import { useStore } from '../store/store';

/** How long the notice stays; Ctrl/Cmd+Z keeps working after it goes. */
const SHOWN_MS = 12_000;

/** "Removed otel — Undo" while the last step is a removal that undo would take back. */
export function RemovedNotice() {
  const removal = useStore(undoableRemoval);
  const [dismissed, setDismissed] = useState<RemovedRun | undefined>(undefined);
  useEffect(() => {
    if (!removal) return;
    const t = setTimeout(() => setDismissed(removal), SHOWN_MS);
    return () => clearTimeout(t);
  }, [removal]);
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
