/**
 * Undo/redo over immutable snapshots: `past` (oldest first), `present`, `future` (next redo
 * first). Generic and plain data, so the store can keep it as state and a workspace could carry
 * it; every operation returns a new history and leaves the old one untouched.
 *
 * Snapshots rather than inverse operations: the values kept here (annotation documents) are small
 * and structurally shared, and a snapshot cannot disagree with what the user saw.
 */

export interface History<T> {
  past: T[];
  present: T;
  future: T[];
  /**
   * Coalescing tag of the last commit: a commit with the same tag replaces the present instead of
   * adding an undo step (typing into one note undoes as one step). Cleared by undo and redo.
   */
  tag?: string;
}

/** Undo steps kept; older ones are dropped first. */
export const DEFAULT_HISTORY_LIMIT = 100;

export function createHistory<T>(present: T): History<T> {
  return { past: [], present, future: [] };
}

/**
 * Records `next` as the new present. No-op (same history back) when `next` is the present itself,
 * so a reducer that returns its input for "nothing changed" adds no empty undo step.
 */
export function commit<T>(h: History<T>, next: T, opts: { tag?: string; limit?: number } = {}): History<T> {
  if (Object.is(next, h.present)) return h;
  const out: History<T> =
    opts.tag !== undefined && opts.tag === h.tag && h.future.length === 0
      ? { past: h.past, present: next, future: [] }
      : { past: capped([...h.past, h.present], opts.limit ?? DEFAULT_HISTORY_LIMIT), present: next, future: [] };
  if (opts.tag !== undefined) out.tag = opts.tag;
  return out;
}

function capped<T>(list: T[], limit: number): T[] {
  const n = Math.max(0, Math.floor(limit));
  return list.length > n ? list.slice(list.length - n) : list;
}

export function canUndo<T>(h: History<T>): boolean {
  return h.past.length > 0;
}

export function canRedo<T>(h: History<T>): boolean {
  return h.future.length > 0;
}

export function undo<T>(h: History<T>): History<T> {
  if (h.past.length === 0) return h;
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1]!, future: [h.present, ...h.future] };
}

export function redo<T>(h: History<T>): History<T> {
  if (h.future.length === 0) return h;
  return { past: [...h.past, h.present], present: h.future[0]!, future: h.future.slice(1) };
}

/** Starts over from `present` with no undo steps (a workspace was opened: its past is not ours to undo into). */
export function resetHistory<T>(present: T): History<T> {
  return createHistory(present);
}
