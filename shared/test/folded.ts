/** Builds a profile from tiny folded text (`"a;b;c 3\na;d 1"`) for algorithm tests. */
import { importProfile } from '../import/import-profile';
import { foldedImporter } from '../import/formats/folded';
import { bytesSource } from '../import/source';
import type { Profile } from '../model/types';

export function folded(text: string, name = 'test.folded'): Promise<Profile> {
  return importProfile(bytesSource(name, text.split('\n').map((l) => l.trim()).join('\n')), { importers: [foldedImporter] });
}
