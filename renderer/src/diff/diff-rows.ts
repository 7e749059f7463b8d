/** The rows of the diff table: a run's functions ranked by change, as the table's controls select them. */
import type { DiffStatus, FunctionDiff, ProfileDiff } from '../../../shared/diff/diff';
import { rankFunctions } from '../../../shared/diff/diff-query';
import { compileQuery } from '../../../shared/search/matcher';

export const MAX_ROWS = 300;

export function rankedRows(
  d: ProfileDiff | undefined,
  status: DiffStatus | 'all',
  measure: 'total' | 'self',
  query: string,
): FunctionDiff[] {
  if (!d) return [];
  const statuses: DiffStatus[] = status === 'all' ? ['new', 'removed', 'changed'] : [status];
  let list = rankFunctions(d, { by: measure, status: statuses });
  const q = compileQuery(query);
  if (q && !q.error) list = list.filter((f) => q.match(f.name, f.file));
  return list.slice(0, MAX_ROWS);
}
