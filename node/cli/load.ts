/**
 * Reading a profile named on the command line, shared by the commands: a file or a folder (a
 * `<pid>.0x` directory), any error turned into one `CliError` line naming the path.
 */
import { formatImportError, toImportErrorData } from '../../shared/import/errors';
import { importProfile } from '../../shared/import/import-profile';
import type { ImportOptions } from '../../shared/import/importer';
import type { ImportSource } from '../../shared/import/io/source';
import type { Profile } from '../../shared/model/types';
import { type Sink, writeText } from './output';
import { CliError } from './errors';
import { pathSource, pipeSource } from './node-source';

/** The path that stands for standard input. */
export const STDIN = '-';

/** A `CliError` when standard input is named more than once among `paths` (it can be read once). */
export function stdinOnce(paths: readonly string[]): void {
  if (paths.filter((p) => p === STDIN).length > 1) throw new CliError('-: standard input can be read only once');
}

/** `path` as an import source (`-`: standard input); a missing path is a `CliError`. */
export function sourceOf(path: string): ImportSource {
  if (path === STDIN) return pipeSource('stdin', () => process.stdin);
  try {
    return pathSource(path);
  } catch (e) {
    throw new CliError(`${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (e as Error).message}`);
  }
}

/**
 * Imports `source` (read from `path`); import errors become a `CliError` naming `path`. `more`:
 * further import options (`samples: false` for a command that needs only the call tree).
 */
export async function importAt(
  path: string,
  source: ImportSource,
  perfEvent?: string,
  thread?: string,
  more?: ImportOptions,
): Promise<Profile> {
  const options: ImportOptions = { ...more };
  if (perfEvent) options.perfEvent = perfEvent;
  if (thread) options.thread = thread;
  try {
    return await importProfile(source, { options });
  } catch (e) {
    const data = toImportErrorData(e, path);
    data.file = path === STDIN ? 'stdin' : path;
    throw new CliError(formatImportError(data));
  }
}

/**
 * Reads the profile at `path`; `perfEvent` picks the event type of a perf script file, `thread`
 * the thread of a trace (`PID:TID`, a name or `all`).
 */
export async function load(path: string, perfEvent?: string, thread?: string, more?: ImportOptions): Promise<Profile> {
  return importAt(path, sourceOf(path), perfEvent, thread, more);
}

/** `load`, then says on `stderr` which thread was used when the file has several (`sayThread`). */
export async function loadThread(path: string, stderr: Sink, perfEvent?: string, thread?: string, more?: ImportOptions): Promise<Profile> {
  const p = await load(path, perfEvent, thread, more);
  sayThread(path, p, stderr);
  if (thread !== undefined && !p.meta.threads)
    writeText(stderr, `flamelens: ${path}: --thread ${thread}: the file has one thread (or none) with samples; all of it was read\n`);
  return p;
}

/**
 * One line on `stderr` when the file has samples of several threads and the command read one of
 * them: which, and how many others there are (nothing is left out silently).
 */
export function sayThread(path: string, p: Profile, stderr: Sink): void {
  const threads = p.meta.threads;
  if (!threads || threads.length < 2 || !p.meta.thread || p.meta.thread.startsWith('all ')) return;
  writeText(
    stderr,
    `flamelens: ${path}: thread ${p.meta.thread}; ${threads.length - 1} other thread(s) with samples (flamelens info lists them, --thread chooses)\n`,
  );
}
