import { describe, expect, it } from 'vitest';
import {
  type AnnotationDoc,
  EMPTY_ANNOTATIONS,
  MAX_TEXT,
  annotationStep,
  annotationsForRun,
  createAnnotation,
  draftFields,
  isAnchoredAt,
  nextAnnotationId,
  normalizeRegion,
  reduceAnnotations,
} from './annotations';
import { canRedo, canUndo, commit, createHistory, redo, undo } from './history';

const path = ['main\tapp.js', 'handler\tapp.js'];

function withNote(doc: AnnotationDoc = EMPTY_ANNOTATIONS, text = 'slow here', runId?: string): AnnotationDoc {
  const fields =
    runId === undefined
      ? { kind: 'note' as const, text, anchor: { keyPath: path } }
      : { kind: 'note' as const, text, anchor: { keyPath: path }, runId };
  return reduceAnnotations(doc, { type: 'added', annotation: createAnnotation(doc, fields, 1000) });
}

describe('annotation reducer', () => {
  it('adds, edits, moves and deletes', () => {
    let doc = withNote();
    expect(doc.items).toHaveLength(1);
    const a = doc.items[0]!;
    expect(a).toMatchObject({ id: 'a1', kind: 'note', text: 'slow here', anchor: { keyPath: path }, createdAt: 1000 });
    expect(a.runId).toBeUndefined();

    doc = reduceAnnotations(doc, { type: 'edited', id: 'a1', text: 'agent overhead' });
    expect(doc.items[0]!.text).toBe('agent overhead');

    doc = reduceAnnotations(doc, { type: 'moved', id: 'a1', anchor: { keyPath: ['main\tapp.js'] }, runId: 'r2' });
    expect(doc.items[0]!.anchor).toEqual({ keyPath: ['main\tapp.js'] });
    expect(doc.items[0]!.runId).toBe('r2');
    doc = reduceAnnotations(doc, { type: 'moved', id: 'a1', anchor: { region: { x: 0.1, y: 0.2, w: 0.3, h: 0.1 } }, runId: null });
    expect(doc.items[0]!.runId).toBeUndefined();
    expect(doc.items[0]!.anchor).toEqual({ region: { x: 0.1, y: 0.2, w: 0.3, h: 0.1 } });

    doc = reduceAnnotations(doc, { type: 'deleted', id: 'a1' });
    expect(doc.items).toEqual([]);
  });

  it('returns the same document for actions that change nothing', () => {
    const doc = withNote();
    expect(reduceAnnotations(doc, { type: 'edited', id: 'a1', text: 'slow here' })).toBe(doc);
    expect(reduceAnnotations(doc, { type: 'edited', id: 'nope', text: 'x' })).toBe(doc);
    expect(reduceAnnotations(doc, { type: 'deleted', id: 'nope' })).toBe(doc);
    expect(reduceAnnotations(doc, { type: 'titled', title: '' })).toBe(doc);
    // a note on the root (empty key path) is not a frame
    expect(reduceAnnotations(doc, { type: 'moved', id: 'a1', anchor: { keyPath: [] } })).toBe(doc);
    // duplicate ids are refused
    expect(reduceAnnotations(doc, { type: 'added', annotation: { ...doc.items[0]! } })).toBe(doc);
  });

  it('does not share arrays with the caller', () => {
    const keyPath = ['a'];
    const doc = reduceAnnotations(EMPTY_ANNOTATIONS, {
      type: 'added',
      annotation: { id: 'x', kind: 'box', text: '', anchor: { keyPath }, createdAt: 0 },
    });
    keyPath.push('b');
    expect(doc.items[0]!.anchor).toEqual({ keyPath: ['a'] });
    expect(EMPTY_ANNOTATIONS.items).toEqual([]);
  });

  it('sets title and caption, and caps text length', () => {
    let doc = reduceAnnotations(EMPTY_ANNOTATIONS, { type: 'titled', title: 'dd-trace costs 12%' });
    doc = reduceAnnotations(doc, { type: 'captioned', caption: 'Fastify hello world, 30 s of autocannon' });
    expect(doc).toMatchObject({ title: 'dd-trace costs 12%', caption: 'Fastify hello world, 30 s of autocannon' });
    doc = withNote(doc, 'x'.repeat(MAX_TEXT + 50));
    expect(doc.items[0]!.text).toHaveLength(MAX_TEXT);
  });

  it('numbers ids past the largest one', () => {
    let doc = withNote();
    doc = withNote(doc);
    expect(doc.items.map((a) => a.id)).toEqual(['a1', 'a2']);
    doc = reduceAnnotations(doc, { type: 'deleted', id: 'a1' });
    expect(nextAnnotationId(doc)).toBe('a3');
  });

  it('filters per pane and drops a removed run’s own notes', () => {
    let doc = withNote(EMPTY_ANNOTATIONS, 'everywhere');
    doc = withNote(doc, 'only r2', 'r2');
    expect(annotationsForRun(doc, 'r1').map((a) => a.text)).toEqual(['everywhere']);
    expect(annotationsForRun(doc, 'r2').map((a) => a.text)).toEqual(['everywhere', 'only r2']);
    doc = reduceAnnotations(doc, { type: 'runRemoved', runId: 'r2' });
    expect(doc.items.map((a) => a.text)).toEqual(['everywhere']);
    expect(isAnchoredAt(doc.items[0]!, path)).toBe(true);
    expect(isAnchoredAt(doc.items[0]!, path.slice(0, 1))).toBe(false);
  });

  it('keeps an area on the pane it was drawn on; a frame note on every pane unless asked', () => {
    const region = { x: 0.1, y: 0.1, w: 0.2, h: 0.2 };
    let doc = EMPTY_ANNOTATIONS;
    const add = (f: ReturnType<typeof draftFields>) =>
      (doc = reduceAnnotations(doc, { type: 'added', annotation: createAnnotation(doc, f, 0) }));
    add(draftFields({ kind: 'box', anchor: { region }, runId: 'r1' }, 'slow start', false));
    add(draftFields({ kind: 'note', anchor: { keyPath: ['main'] }, runId: 'r1' }, 'everywhere', false));
    add(draftFields({ kind: 'note', anchor: { keyPath: ['main'] }, runId: 'r1' }, 'only here', true));
    expect(annotationsForRun(doc, 'r1').map((a) => a.text)).toEqual(['slow start', 'everywhere', 'only here']);
    expect(annotationsForRun(doc, 'r2').map((a) => a.text)).toEqual(['everywhere']);
  });

  it('normalizes dragged regions into the pane', () => {
    expect(normalizeRegion({ x: 0.5, y: 0.5, w: -0.2, h: -0.3 })).toEqual({ x: 0.3, y: 0.2, w: 0.2, h: 0.3 });
    const r = normalizeRegion({ x: 0.9, y: -1, w: 0.5, h: NaN });
    expect(r.x + r.w).toBeLessThanOrEqual(1);
    expect(r.y).toBe(0);
    expect(r.h).toBeGreaterThan(0);
    const edge = normalizeRegion({ x: 1, y: 1, w: 0, h: 0 });
    expect(edge.x + edge.w).toBeLessThanOrEqual(1);
    expect(edge.w).toBeGreaterThan(0);
  });
});

describe('history', () => {
  it('undoes and redoes annotation steps', () => {
    let h = createHistory(EMPTY_ANNOTATIONS);
    expect(canUndo(h)).toBe(false);
    h = annotationStep(h, {
      type: 'added',
      annotation: createAnnotation(h.present, { kind: 'note', text: 'n', anchor: { keyPath: path } }, 1),
    });
    h = annotationStep(h, { type: 'titled', title: 'T' });
    expect(h.present.title).toBe('T');
    h = undo(h);
    expect(h.present.title).toBe('');
    expect(h.present.items).toHaveLength(1);
    expect(canRedo(h)).toBe(true);
    h = undo(h);
    expect(h.present.items).toHaveLength(0);
    expect(undo(h)).toBe(h);
    h = redo(redo(h));
    expect(h.present).toMatchObject({ title: 'T' });
    expect(redo(h)).toBe(h);
  });

  it('coalesces typing into one note into one step, but not across notes', () => {
    let h = createHistory(withNote(withNote()));
    for (const text of ['a', 'ag', 'age', 'agent']) h = annotationStep(h, { type: 'edited', id: 'a1', text });
    expect(h.past).toHaveLength(1);
    h = annotationStep(h, { type: 'edited', id: 'a2', text: 'b' });
    expect(h.past).toHaveLength(2);
    h = undo(h);
    expect(h.present.items[0]!.text).toBe('agent');
    h = undo(h);
    expect(h.present.items[0]!.text).toBe('slow here');
    // after an undo, typing starts a new step
    h = annotationStep(h, { type: 'edited', id: 'a1', text: 'x' });
    h = annotationStep(h, { type: 'edited', id: 'a1', text: 'xy' });
    expect(h.future).toEqual([]);
    expect(undo(h).present.items[0]!.text).toBe('slow here');
  });

  it('adds no step for a no-op and drops the oldest beyond the limit', () => {
    let h = createHistory(0);
    expect(commit(h, 0)).toBe(h);
    for (let i = 1; i <= 10; i++) h = commit(h, i, { limit: 3 });
    expect(h.past).toEqual([7, 8, 9]);
    expect(h.present).toBe(10);
  });

  it('a new step clears what could be redone', () => {
    let h = commit(commit(createHistory('a'), 'b'), 'c');
    h = undo(h);
    expect(h.future).toEqual(['c']);
    h = commit(h, 'd');
    expect(h).toEqual({ past: ['a', 'b'], present: 'd', future: [] });
  });
});
