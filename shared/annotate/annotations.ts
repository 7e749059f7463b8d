/**
 * Annotations of a comparison, as plain data: notes pinned to a frame or to a spot of a pane,
 * highlight boxes, and the comparison's title and caption. A frame is named by its key path (the
 * normalized frame keys from the root down, as `ViewOptions.focus` names the focused frame), not by
 * a node id or a position, so a note stays on its function through zoom and re-sorting and lands on
 * the same call path in every pane that has it.
 *
 * Changes go through one pure reducer (`reduceAnnotations`) so that the undo history (./history)
 * can keep whole snapshots: the documents are small and immutable, so a snapshot costs a few
 * pointers, and undo can never drift from what was done.
 */
import { type History, commit } from './history';

/** A rectangle in fractions (0…1) of a pane's chart drawing: x, y from its top-left corner. */
export interface Region {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Where an annotation sits: on a frame (its key path from the root, non-empty) or on an area of a pane. */
export type Anchor = { keyPath: string[] } | { region: Region };

export type AnnotationKind = 'note' | 'box';

export interface Annotation {
  id: string;
  /** 'note': a callout with text; 'box': an outline around a frame or region, with an optional label */
  kind: AnnotationKind;
  text: string;
  anchor: Anchor;
  /** only on this run's pane; absent: on every pane where the anchor exists */
  runId?: string;
  /** milliseconds since the epoch */
  createdAt: number;
}

export interface AnnotationDoc {
  /** title of the comparison ('' when none) */
  title: string;
  /** a sentence or two under the title ('' when none) */
  caption: string;
  items: Annotation[];
}

export const EMPTY_ANNOTATIONS: AnnotationDoc = { title: '', caption: '', items: [] };

/** Longest text kept: a note is a remark, not a report; also bounds what a hostile workspace can make us draw. */
export const MAX_TEXT = 2000;
/** Smallest box side, so that a drag that barely moved still leaves something to see and grab. */
export const MIN_REGION_SIDE = 0.005;

export type AnnotationAction =
  | { type: 'added'; annotation: Annotation }
  | { type: 'edited'; id: string; text: string }
  /** a new anchor (dragged to another frame or area); `runId` null pins to every pane, undefined keeps it */
  | { type: 'moved'; id: string; anchor: Anchor; runId?: string | null }
  | { type: 'deleted'; id: string }
  | { type: 'titled'; title: string }
  | { type: 'captioned'; caption: string }
  /** a run left the comparison: its pane-only annotations go with it */
  | { type: 'runRemoved'; runId: string };

export function isKeyAnchor(a: Anchor): a is { keyPath: string[] } {
  return 'keyPath' in a;
}

const clamp01 = (v: number) => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);

/** A region inside the pane whatever was dragged: negative sizes flipped, sides clamped to the pane. */
export function normalizeRegion(r: Region): Region {
  let { x, y, w, h } = r;
  if (w < 0) [x, w] = [x + w, -w];
  if (h < 0) [y, h] = [y + h, -h];
  x = clamp01(x);
  y = clamp01(y);
  w = Math.max(MIN_REGION_SIDE, Math.min(clamp01(w), 1 - x));
  h = Math.max(MIN_REGION_SIDE, Math.min(clamp01(h), 1 - y));
  // A box dropped at the very edge keeps its minimum size by moving in.
  return { x: Math.min(x, 1 - w), y: Math.min(y, 1 - h), w, h };
}

function cleanText(s: string): string {
  return s.length > MAX_TEXT ? s.slice(0, MAX_TEXT) : s;
}

function cleanAnchor(a: Anchor): Anchor {
  return isKeyAnchor(a) ? { keyPath: [...a.keyPath] } : { region: normalizeRegion(a.region) };
}

/** The next free id of the form `a<n>`; ids only need to be unique within one document. */
export function nextAnnotationId(doc: AnnotationDoc): string {
  let max = 0;
  for (const a of doc.items) {
    const m = /^a(\d+)$/.exec(a.id);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return `a${max + 1}`;
}

/** A new annotation with the next free id; `now` is passed in so that the model stays pure. */
export function createAnnotation(
  doc: AnnotationDoc,
  fields: { kind: AnnotationKind; text: string; anchor: Anchor; runId?: string },
  now: number,
): Annotation {
  const a: Annotation = {
    id: nextAnnotationId(doc),
    kind: fields.kind,
    text: cleanText(fields.text),
    anchor: cleanAnchor(fields.anchor),
    createdAt: now,
  };
  if (fields.runId !== undefined) a.runId = fields.runId;
  return a;
}

/** Where an annotation being written goes, and on which pane it was started. */
export interface AnnotationDraft {
  kind: AnnotationKind;
  anchor: Anchor;
  runId?: string;
}

/**
 * The fields of the annotation a draft becomes. An area (a region anchor) is a place in the
 * drawing of the pane it was drawn on and means nothing on another, so it stays on that pane; a
 * note or box on a frame shows on every pane that has the frame, unless `onePane` is asked.
 */
export function draftFields(
  draft: AnnotationDraft,
  text: string,
  onePane: boolean,
): { kind: AnnotationKind; text: string; anchor: Anchor; runId?: string } {
  const fields: { kind: AnnotationKind; text: string; anchor: Anchor; runId?: string } = { kind: draft.kind, text, anchor: draft.anchor };
  if (draft.runId !== undefined && (onePane || !isKeyAnchor(draft.anchor))) fields.runId = draft.runId;
  return fields;
}

function replace(doc: AnnotationDoc, id: string, fn: (a: Annotation) => Annotation): AnnotationDoc {
  const i = doc.items.findIndex((a) => a.id === id);
  if (i < 0) return doc;
  const items = doc.items.slice();
  items[i] = fn(items[i]!);
  return { ...doc, items };
}

/**
 * Applies one action. Returns the same object when nothing changes (unknown id, same text), so a
 * caller — and the history — can tell a no-op by identity.
 */
export function reduceAnnotations(doc: AnnotationDoc, action: AnnotationAction): AnnotationDoc {
  switch (action.type) {
    case 'added': {
      const a = action.annotation;
      if (isKeyAnchor(a.anchor) && a.anchor.keyPath.length === 0) return doc; // the root is not a frame
      if (doc.items.some((x) => x.id === a.id)) return doc;
      return { ...doc, items: [...doc.items, { ...a, text: cleanText(a.text), anchor: cleanAnchor(a.anchor) }] };
    }
    case 'edited': {
      const text = cleanText(action.text);
      const a = doc.items.find((x) => x.id === action.id);
      if (!a || a.text === text) return doc;
      return replace(doc, action.id, (x) => ({ ...x, text }));
    }
    case 'moved': {
      if (isKeyAnchor(action.anchor) && action.anchor.keyPath.length === 0) return doc;
      return replace(doc, action.id, (x) => {
        const moved: Annotation = { ...x, anchor: cleanAnchor(action.anchor) };
        if (action.runId === null) delete moved.runId;
        else if (action.runId !== undefined) moved.runId = action.runId;
        return moved;
      });
    }
    case 'deleted': {
      const items = doc.items.filter((x) => x.id !== action.id);
      return items.length === doc.items.length ? doc : { ...doc, items };
    }
    case 'titled':
      return doc.title === action.title ? doc : { ...doc, title: cleanText(action.title) };
    case 'captioned':
      return doc.caption === action.caption ? doc : { ...doc, caption: cleanText(action.caption) };
    case 'runRemoved': {
      const items = doc.items.filter((x) => x.runId !== action.runId);
      return items.length === doc.items.length ? doc : { ...doc, items };
    }
  }
}

/**
 * What consecutive actions count as one undo step: typing into one note (or the title) is a
 * stream of 'edited' actions and should undo as a whole, not letter by letter.
 */
export function coalesceKey(action: AnnotationAction): string | undefined {
  switch (action.type) {
    case 'edited':
      return `edit:${action.id}`;
    case 'titled':
      return 'title';
    case 'captioned':
      return 'caption';
    default:
      return undefined;
  }
}

/** The annotations a pane shows: its own and those on every pane. */
export function annotationsForRun(doc: AnnotationDoc, runId: string): Annotation[] {
  return doc.items.filter((a) => a.runId === undefined || a.runId === runId);
}

/** True when `path` is the annotation's frame (a key-path anchor with exactly these keys). */
export function isAnchoredAt(a: Annotation, path: readonly string[]): boolean {
  if (!isKeyAnchor(a.anchor)) return false;
  const k = a.anchor.keyPath;
  return k.length === path.length && k.every((key, i) => key === path[i]);
}

/** One user action on the annotation history: applied, recorded as an undo step (typing coalesced). */
export function annotationStep(h: History<AnnotationDoc>, action: AnnotationAction, limit?: number): History<AnnotationDoc> {
  const tag = coalesceKey(action);
  const opts: { tag?: string; limit?: number } = {};
  if (tag !== undefined) opts.tag = tag;
  if (limit !== undefined) opts.limit = limit;
  return commit(h, reduceAnnotations(h.present, action), opts);
}
