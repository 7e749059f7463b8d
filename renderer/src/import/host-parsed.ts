/**
 * A host file parsed by the host (`Host.parsedUrl`): the worker fetches the profile instead of
 * the file. Where the host does not parse it (no such address, a format the window reads
 * itself, a failure of the host's own, an answer cut short), the worker reads the file as
 * before; where the file does not import, the importers' error stands, as if read here.
 */
import { ImportError } from '../../../shared/import/errors';
import type { Profile } from '../../../shared/model/types';
import { readParsedProfile } from '../../../shared/workspace/parsed-profile';

/**
 * The profile at `url`, every thread kept where `keepThreads` (as ImportOptions.keepThreads);
 * undefined where the file is to be read here instead.
 */
export async function parsedByHost(
  url: string,
  name: string,
  keepThreads: boolean,
  onProgress?: (read: number, size: number | undefined) => void,
): Promise<Profile | undefined> {
  try {
    const res = await fetch(keepThreads ? `${url}?threads=all` : url, { cache: 'no-store' });
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      return undefined;
    }
    const answer = await readParsedProfile(res.body, name, onProgress);
    return 'profile' in answer ? answer.profile : undefined;
  } catch (e) {
    if (e instanceof ImportError) throw e;
    return undefined;
  }
}
