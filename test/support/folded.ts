/** Builds a profile from tiny folded text (`"a;b;c 3\na;d 1"`) for algorithm tests. */
import { importProfile } from '../../shared/import/import-profile';
import { foldedImporter } from '../../shared/import/formats/folded/folded';
import { bytesSource } from '../../shared/import/io/source';
import type { Profile } from '../../shared/model/types';

export function folded(text: string, name = 'test.folded'): Promise<Profile> {
  return importProfile(bytesSource(name, text.split('\n').map((l) => l.trim()).join('\n')), { importers: [foldedImporter] });
}
