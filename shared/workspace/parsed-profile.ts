/**
 * A file parsed by the local server, as its answer's bytes: the import's progress, then its
 * result. The window then carries a profile (a 100 MB perf capture is ~2 MB of it) instead of
 * the file.
 *
 *   `{"progress":[read, size]}` lines, as the import reads the file (size: null when unknown)
 *   then one of
 *   `{"error":{"file":…,"message":…}}`  the file does not import (the importers' own error)
 *   `{"declined":"why"}`                the server did not parse it; the window reads the file
 *   a profile block (./profile-block)   the profile, unweighed, as the import returned it
 *
 * Reading trusts the answer no more than a workspace file: the block is checked as one is.
 */
import { ImportError, type ImportErrorData } from '../import/errors';
import type { Profile } from '../model/types';
import { type Json, JsonCheck } from './json-check';
import { ByteReader, jsonLine, parseLine, readBlockBody } from './profile-block';
import { profileFromJson } from './profile-codec';

/** Largest answer read: more than any profile's columns the importers' budget lets through. */
const MAX_ANSWER_BYTES = 16 * 1024 ** 3;

export const progressLine = (read: number, size: number | undefined) => jsonLine({ progress: [read, size ?? null] });
export const errorLine = (error: ImportErrorData) => jsonLine({ error });
export const declinedLine = (why: string) => jsonLine({ declined: why });

export type ParsedAnswer = { profile: Profile } | { declined: string };

/**
 * The profile in the answer `stream`, reporting its progress lines to `onProgress`. Throws the
 * import's `ImportError` where the file does not import, and a `WorkspaceError` naming
 * `fileName` where the answer itself is damaged or cut short.
 */
export async function readParsedProfile(
  stream: ReadableStream<Uint8Array>,
  fileName: string,
  onProgress?: (read: number, size: number | undefined) => void,
): Promise<ParsedAnswer> {
  const c = new JsonCheck(fileName);
  const reader = stream.getReader();
  const r = new ByteReader(reader, MAX_ANSWER_BYTES, (why, e) =>
    c.fail('', why === 'too-large' ? 'the parsed profile is too large' : `the parsed profile did not arrive whole (${String(e)})`),
  );
  try {
    for (;;) {
      const { bytes, ended } = await r.line();
      if (ended) c.fail('', 'the parsed profile ends before its result');
      const line: Json = c.obj(parseLine(c, bytes, 'answer'), 'answer');
      if ('progress' in line) {
        const [read, size] = c.arr(line.progress, 'progress');
        const at = c.num(read, 'progress[0]', { min: 0 });
        const of = size === null ? undefined : c.num(size, 'progress[1]', { min: 0 });
        onProgress?.(at, of);
      } else if ('error' in line) {
        const e = c.obj(line.error, 'error');
        const data: ImportErrorData = { file: c.str(e.file, 'error.file'), message: c.str(e.message, 'error.message') };
        if (e.line !== undefined) data.line = c.num(e.line, 'error.line', { int: true, min: 1 });
        if (e.offset !== undefined) data.offset = c.num(e.offset, 'error.offset', { int: true, min: 0 });
        throw new ImportError(data);
      } else if ('declined' in line) {
        return { declined: c.str(line.declined, 'declined', 1000) };
      } else {
        const profile = profileFromJson(c, await readBlockBody(c, r, line, 'profile'), 'profile');
        if (!(await r.atEnd())) c.fail('', 'the parsed profile has data after its end');
        return { profile };
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
