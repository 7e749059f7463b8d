import { canRedo, canUndo } from '../../../shared/annotate/history';
import type { PointerMode } from '../store/annotations-slice';
import { useStore } from '../store/store';

/** The comparison's title and caption, the annotation tools, undo and redo. */
export function AnnotationBar() {
  const doc = useStore((s) => s.annotationHistory.present);
  const history = useStore((s) => s.annotationHistory);
  const mode = useStore((s) => s.pointerMode);
  const s = useStore.getState();
  const modeButton = (m: PointerMode, label: string, title: string) => (
    <button type="button" aria-pressed={mode === m} title={title} onClick={() => s.pointerModeChosen(mode === m ? 'inspect' : m)}>
      {label}
    </button>
  );
  return (
    <div className="annotation-bar">
      <input
        className="comparison-title"
        aria-label="Comparison title"
        placeholder="Title of this comparison"
        value={doc.title}
        onChange={(e) => s.annotationChanged({ type: 'titled', title: e.currentTarget.value })}
      />
      <input
        className="comparison-caption"
        aria-label="Caption"
        placeholder="Caption: what this comparison shows"
        value={doc.caption}
        onChange={(e) => s.annotationChanged({ type: 'captioned', caption: e.currentTarget.value })}
      />
      <div role="group" aria-label="Annotate">
        {modeButton('note', 'Add note', 'Click a frame to pin a note to it (or right-click any frame)')}
        {modeButton('box', 'Draw box', 'Drag on a pane to draw a highlight box')}
        <button type="button" disabled={!canUndo(history)} onClick={() => s.annotationsUndone()} title="Undo (Ctrl+Z)">
          Undo
        </button>
        <button type="button" disabled={!canRedo(history)} onClick={() => s.annotationsRedone()} title="Redo (Ctrl+Shift+Z)">
          Redo
        </button>
      </div>
    </div>
  );
}
