/** Reading a run of several repeats (a folder of profiles of one variant) into their mean. */
import { ImportError, formatImportError, toImportErrorData } from '../../../shared/import/errors';
import { meanProfile } from '../../../shared/model/mean';
import type { Profile } from '../../../shared/model/types';
import type { ImportedRepeats } from './protocol';

/**
 * Each repeat read (weighed, by `read`) in order, and their mean, the profile the pane draws. A
 * repeat that cannot be read is named with its error and left out: the others still make the
 * mean; so is one of another format or unit than the first read (a `.json` folder holding a trace
 * and a speedscope file), which is not a repeat of it. None read: an error naming each file.
 */
export async function importRepeats<F extends { name: string }>(
  name: string,
  files: readonly F[],
  read: (file: F) => Promise<Profile>,
): Promise<{ profile: Profile; repeats: ImportedRepeats }> {
  const repeats: ImportedRepeats = { profiles: [], names: [], failed: [] };
  for (const f of files) {
    try {
      const p = await read(f);
      const first = repeats.profiles[0];
      if (first && (p.format !== first.format || p.unit !== first.unit))
        throw new ImportError({
          file: f.name,
          message: `a ${p.format} profile in ${p.unit}, not a repeat of ${repeats.names[0]} (${first.format} in ${first.unit}); open it on its own`,
        });
      repeats.profiles.push(p);
      repeats.names.push(f.name);
    } catch (e) {
      repeats.failed.push({ name: f.name, error: formatImportError(toImportErrorData(e, f.name)) });
    }
  }
  if (repeats.profiles.length === 0)
    throw new Error(`none of its ${files.length} repeats could be read: ${repeats.failed.map((f) => f.error).join('; ')}`);
  return { profile: meanProfile(name, repeats.profiles), repeats };
}
