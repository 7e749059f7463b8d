import { useState } from 'react';
import { draftFields } from '../../../shared/annotate/annotations';
import { Modal } from '../app/Modal';
import type { AnnotationsSlice } from '../store/annotations-slice';
import { useStore } from '../store/store';

/** Asks for a note's text (or a box's label) once the user picked where it goes. */
export function NoteDialog() {
  const draft = useStore((s) => s.draft);
  if (!draft) return null;
  return <DraftDialog draft={draft} />;
}

type Draft = NonNullable<AnnotationsSlice['draft']>;

function DraftDialog({ draft }: { draft: Draft }) {
  const runTitle = useStore((s) => s.runs.find((r) => r.id === s.draft?.runId)?.title);
  const [onePane, setOnePane] = useState(false);
  const s = useStore.getState();
  const close = () => s.draftStarted(undefined);
  return (
    <Modal
      className="note-dialog"
      label={draft.kind === 'note' ? 'Add a note' : 'Add a highlight box'}
      onClose={close}
      onSubmit={(e) => {
        e.preventDefault();
        const text = String(new FormData(e.currentTarget).get('text') ?? '').trim();
        if (draft.kind === 'note' && !text) return;
        s.annotationAdded(draftFields(draft, text, onePane));
        setOnePane(false);
      }}
    >
      <h2>{draft.kind === 'note' ? `Note on ${draft.label}` : `Box around ${draft.label}`}</h2>
      <textarea
        name="text"
        aria-label={draft.kind === 'note' ? 'Note text' : 'Box label (optional)'}
        autoFocus
        rows={3}
        placeholder={draft.kind === 'note' ? 'What should the team see here?' : 'Label (optional)'}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) e.currentTarget.form?.requestSubmit();
        }}
      />
      {draft.runId && 'keyPath' in draft.anchor && (
        <label className="check">
          <input type="checkbox" checked={onePane} onChange={(e) => setOnePane(e.currentTarget.checked)} />
          only on {runTitle ?? 'this pane'} (otherwise on every pane that has this frame)
        </label>
      )}
      <div className="dialog-buttons">
        <button type="button" onClick={close}>
          Cancel
        </button>
        <button type="submit">Add</button>
      </div>
    </Modal>
  );
}
