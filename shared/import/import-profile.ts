/**
 * The one entry point that turns a dropped, opened or named file into a Profile: open the
 * stream (gzip, encodings), pick the importer from content (the name is only a hint), parse.
 * Used by the import worker in the app and by the command line.
 */
import type { Profile } from '../model/types';
import { ImportError } from './errors';
import type { ImportOptions, Importer } from './importer';
import { IMPORTERS } from './registry';
import { type ImportSource, type OpenOptions, isFolder, openSource } from './source';

export interface ImportRequest extends OpenOptions {
  options?: ImportOptions;
  /** for tests: a different importer list */
  importers?: Importer[];
}

export function supportedFormatsText(importers: Importer[] = IMPORTERS): string {
  return importers.map((i) => i.label).join(', ');
}

/** The importer whose content test accepts `head`, in registry order. */
export function detectFormat(head: string, fileName: string, importers: Importer[] = IMPORTERS): Importer | undefined {
  return importers.find((imp) => imp.sniff(head, fileName));
}

function looksBinary(head: string): boolean {
  const sample = head.slice(0, 4096);
  if (sample.length === 0) return false;
  let odd = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c === 0 || c === 0xfffd || (c < 32 && c !== 9 && c !== 10 && c !== 13)) odd++;
  }
  return odd / sample.length > 0.05;
}

export async function importProfile(src: ImportSource, req: ImportRequest = {}): Promise<Profile> {
  const importers = req.importers ?? IMPORTERS;
  const options = req.options ?? {};
  if (isFolder(src)) {
    const names = src.files.map((f) => f.name);
    for (const imp of importers) {
      const pick = imp.pickFromFolder?.(names);
      if (pick === undefined) continue;
      const file = src.files.find((f) => f.name === pick)!;
      const source = await openSource(file, req);
      const profile = await imp.parse({ file: `${src.name}/${file.name}`, source, options });
      profile.name = src.name;
      return profile;
    }
    throw new ImportError({
      file: src.name,
      message: `this folder holds no profile Flamelens can read (looked for a 0x output folder). Drop a single file instead; supported: ${supportedFormatsText(importers)}`,
    });
  }
  const source = await openSource(src, req);
  if (source.head.trim() === '') throw new ImportError({ file: src.name, message: 'the file is empty' });
  const imp = detectFormat(source.head, src.name, importers);
  if (!imp) {
    const what = looksBinary(source.head) ? 'a binary file that is not a known profile format' : 'not a profile format Flamelens recognises';
    throw new ImportError({ file: src.name, message: `${what}. Supported: ${supportedFormatsText(importers)}` });
  }
  return imp.parse({ file: src.name, source, options });
}
