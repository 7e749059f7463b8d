/**
 * For a view's own filter box (the trace statistics' filter): `query` once it can be searched
 * for. A regular expression waits for its engine (shared/search/matcher, loaded on demand), the
 * view showing every row meanwhile and again once it has loaded; any other query is ready.
 */
import { useEffect, useState } from 'react';
import { awaitsRegexEngine, regexEngineSettled } from '../../../shared/search/matcher';

export function useSearchable(query: string): string {
  const waits = awaitsRegexEngine(query);
  const [, loaded] = useState(0);
  useEffect(() => {
    if (!waits) return;
    let live = true;
    // (where it fails to load, the query goes in all the same and says why it matches nothing)
    void regexEngineSettled().then(() => live && loaded((n) => n + 1));
    return () => void (live = false);
  }, [waits]);
  return waits ? '' : query;
}
