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
import { type History, createHistory, redo, resetHistory, undo } from '../../../shared/annotate/history';
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
  annotationsUndone: () => set((s) => ({ annotationHistory: undo(s.annotationHistory) })),
  annotationsRedone: () => set((s) => ({ annotationHistory: redo(s.annotationHistory) })),
  annotationsReplaced: (doc) => set({ annotationHistory: resetHistory(doc) }),
  pointerModeChosen: (pointerMode) => set({ pointerMode, draft: undefined }),
  draftStarted: (draft) => set({ draft }),
});
