/**
 * What a pane made for each of the last few focused paths (its view trees), so that going back to
 * one of them (Esc after a zoom, Backspace, a breadcrumb) finds what was made for it then, the same
 * object. A pane makes a new cache whenever anything else its trees depend on changes (the
 * profile, search, width…), so that nothing of those is kept.
 */
export type FocusCache<T> = Map<string, T>;

/** How many focused paths a cache keeps (the path shown and the last few before). */
const KEPT = 4;

/** The key of a focused path. */
export function focusKey(focus: readonly string[]): string {
  return focus.join('\u0001');
}

/** The value kept for a focused path, else a new one, kept (forgetting the path used longest ago beyond `KEPT`). */
export function recall<T>(cache: FocusCache<T>, key: string, make: () => T): T {
  const value = cache.has(key) ? (cache.get(key) as T) : make();
  cache.delete(key);
  cache.set(key, value);
  if (cache.size > KEPT) cache.delete(cache.keys().next().value!);
  return value;
}
