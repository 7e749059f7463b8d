/** Reading a run of several repeats (a folder of profiles of one variant) into their mean. */
import { formatImportError, toImportErrorData } from '../../../shared/import/errors';
import { meanProfile } from '../../../shared/model/mean';
import type { Profile } from '../../../shared/model/types';
import type { ImportedRepeats } from './protocol';

/**
 * Each repeat read (weighed, by `read`) in order, and their mean, the profile the pane draws. A
 * repeat that cannot be read is named with its error and left out: the others still make the
 * mean. None read: an error naming each file.
 */
export async function importRepeats<F extends { name: string }>(
  name: string,
  files: readonly F[],
  read: (file: F) => Promise<Profile>,
): Promise<{ profile: Profile; repeats: ImportedRepeats }> {
  const repeats: ImportedRepeats = { profiles: [], names: [], failed: [] };
  for (const f of files) {
    try {
      repeats.profiles.push(await read(f));
      repeats.names.push(f.name);
    } catch (e) {
      repeats.failed.push({ name: f.name, error: formatImportError(toImportErrorData(e, f.name)) });
    }
  }
  if (repeats.profiles.length === 0)
    throw new Error(`none of its ${files.length} repeats could be read: ${repeats.failed.map((f) => f.error).join('; ')}`);
  return { profile: meanProfile(name, repeats.profiles), repeats };
}
