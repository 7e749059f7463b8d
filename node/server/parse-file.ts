/**
 * A file named on the command line, parsed by the server with the same importers as the window's
 * and as `flamelens`, and handed on as a profile block (shared/workspace/profile-block): the
 * window then carries ~2 MB for a 100 MB perf capture instead of the file. Runs in a thread of
 * its own (./parse-pool); this is the work itself, without the thread.
 */
import { ImportError, type ImportErrorData } from '../../shared/import/errors';
import { importProfile } from '../../shared/import/import-profile';
import type { Importer } from '../../shared/import/importer';
import { READ_IN_WINDOW } from '../../shared/import/read-in-window';
import { IMPORTERS } from '../../shared/import/registry';
import { declinedLine, errorLine, progressLine } from '../../shared/workspace/parsed-profile';
import { profileBlock } from '../../shared/workspace/profile-block';
import { fileSource } from '../cli/node-source';

export interface ParseRequest {
  path: string;
  /** as the window imports a file it shows: every thread kept (ImportOptions.keepThreads) */
  keepThreads: boolean;
}

export type ParseEvent =
  | { type: 'progress'; read: number; size: number | undefined }
  /** the profile block: its line, then its columns' bytes */
  | { type: 'done'; head: Uint8Array; columns: Uint8Array[] }
  /** the file does not import: the importers' own error */
  | { type: 'error'; error: ImportErrorData }
  /** not parsed here (a format the window reads better itself, or a failure of the server's own) */
  | { type: 'declined'; why: string };

/** The registry's importers, with those of formats the window reads itself declining. */
const IMPORTERS_HERE: Importer[] = IMPORTERS.map((imp) =>
  READ_IN_WINDOW.has(imp.id) ? { ...imp, parse: () => Promise.reject(new Error(`${imp.label} files are read in the window`)) } : imp,
);

/** Parses `req.path`, telling `post` how it goes; the last event is `done`, `error` or `declined`. */
export async function parseFile(req: ParseRequest, post: (e: ParseEvent) => void): Promise<void> {
  let profile;
  try {
    profile = await importProfile(fileSource(req.path), {
      options: { keepThreads: req.keepThreads },
      importers: IMPORTERS_HERE,
      onProgress: (read, size) => post({ type: 'progress', read, size }),
    });
  } catch (e) {
    if (e instanceof ImportError) return post({ type: 'error', error: e.toData() });
    // Anything else (a refused allocation, a file gone) the window meets, and words, itself.
    return post({ type: 'declined', why: e instanceof Error ? e.message : String(e) });
  }
  const { head, columns } = profileBlock(profile);
  post({ type: 'done', head, columns });
}

/** An event as the bytes of the server's answer (shared/workspace/parsed-profile). */
export function answerBytes(e: ParseEvent): Uint8Array[] {
  if (e.type === 'progress') return [progressLine(e.read, e.size)];
  if (e.type === 'error') return [errorLine(e.error)];
  if (e.type === 'declined') return [declinedLine(e.why)];
  return [e.head, ...e.columns];
}
