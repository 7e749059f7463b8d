import type { StateCreator } from 'zustand';
import {
  type AnnotationAction,
  type AnnotationDoc,
  type AnnotationKind,
  type Anchor,
  EMPTY_ANNOTATIONS,
  annotationStep,
  createAnnotation,
} from '../../../shared/annotate/annotations';
import { type History, createHistory, resetHistory } from '../../../shared/annotate/history';
import { redoStep, undoStep } from './run-removal';
import type { AppState } from './store';

/** What the user is doing with the pointer on the panes. */
export type PointerMode = 'inspect' | 'note' | 'box';

export interface AnnotationsSlice {
  annotationHistory: History<AnnotationDoc>;
  pointerMode: PointerMode;
  /** the note being written: where it goes, before it has text */
  draft: { kind: AnnotationKind; anchor: Anchor; runId?: string; label: string } | undefined;
  annotationChanged(action: AnnotationAction): void;
  annotationAdded(fields: { kind: AnnotationKind; text: string; anchor: Anchor; runId?: string }): void;
  annotationsUndone(): void;
  annotationsRedone(): void;
  annotationsReplaced(doc: AnnotationDoc): void;
  pointerModeChosen(m: PointerMode): void;
  draftStarted(d: AnnotationsSlice['draft']): void;
}

export const createAnnotationsSlice: StateCreator<AppState, [], [], AnnotationsSlice> = (set) => ({
  annotationHistory: createHistory(EMPTY_ANNOTATIONS),
  pointerMode: 'inspect',
  draft: undefined,
  annotationChanged: (action) => set((s) => ({ annotationHistory: annotationStep(s.annotationHistory, action) })),
  annotationAdded: (fields) =>
    set((s) => {
      const annotation = createAnnotation(s.annotationHistory.present, fields, Date.now());
      return { annotationHistory: annotationStep(s.annotationHistory, { type: 'added', annotation }), draft: undefined };
    }),
  // One history for notes and removed runs: undo brings back a run removed with ✕ (see run-removal).
  annotationsUndone: () => set(undoStep),
  annotationsRedone: () => set(redoStep),
  annotationsReplaced: (doc) => set({ annotationHistory: resetHistory(doc), removedRuns: [] }),
  pointerModeChosen: (pointerMode) => set({ pointerMode, draft: undefined }),
  draftStarted: (draft) => set({ draft }),
});
