/**
 * The formats a window reads itself even where the local server could parse the file for it
 * (node/server/parse-file.ts): for them, carrying the parsed profile saves the window little.
 *  - A heap snapshot's profile is its whole object graph, as large as the file, and the window
 *    rebuilds the dominator tree from it when it reads it: that work would be done twice.
 *  - A `.cpuprofile`'s samples and their times are most of the file (80 MB of a 100 MB capture),
 *    and the window parses the file as it arrives, where the server's parse and then the
 *    transfer come one after the other: measured, the window reading the file itself was ~15%
 *    faster (docs/performance.md).
 */
import type { FormatId } from '../model/types';
import { IMPORTERS } from './registry';

export const READ_IN_WINDOW: ReadonlySet<FormatId> = new Set<FormatId>(['heapsnapshot', 'cpuprofile']);

const ENDINGS = IMPORTERS.filter((i) => READ_IN_WINDOW.has(i.id)).flatMap((i) => i.extensions);

/**
 * Whether `name` says the file is of such a format (`.cpuprofile`, `.heapsnapshot.gz`…): the
 * window then reads it without asking the server first. Only a hint: the server tells a file's
 * format by its content, and declines these whatever their names.
 */
export function namedAsReadInWindow(name: string): boolean {
  const bare = name.toLowerCase().replace(/\.gz$/, '');
  return ENDINGS.some((e) => bare.endsWith(e));
}
