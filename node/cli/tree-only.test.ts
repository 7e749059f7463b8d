/**
 * `flamelens collapse` reads a .cpuprofile without its table of individual samples (import option
 * `samples: false`): the call tree, its weights, the frames and `meta` must be what a full import
 * gives, on every real .cpuprofile the project has, and the folded output the same.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importProfile } from '../../shared/import/import-profile';
import { collapse } from '../../shared/model/collapse';
import { FIXTURES, fileSource } from '../../test/support/files';

/** Every .cpuprofile under fixtures (the corpus's and the sample runs'). */
function cpuprofiles(dir = FIXTURES): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...cpuprofiles(p));
    else if (/\.cpuprofile(\.gz)?$/.test(name)) out.push(p);
  }
  return out;
}

describe('a .cpuprofile read for its call tree only', () => {
  const files = cpuprofiles();

  it('finds the real profiles', () => {
    expect(files.length).toBeGreaterThanOrEqual(8);
  });

  it.each(files.map((f) => [f.slice(FIXTURES.length + 1), f]))('%s: the same tree, frames and meta, no samples', async (_, f) => {
    const full = await importProfile(fileSource(f));
    const tree = await importProfile(fileSource(f), { options: { samples: false } });
    expect(tree.samples).toBeUndefined();
    expect(tree.tree).toEqual(full.tree);
    expect(tree.frames).toEqual(full.frames);
    expect(tree.meta).toEqual(full.meta);
    expect({ ...tree, tree: undefined, frames: undefined, meta: undefined }).toEqual({
      ...full,
      samples: undefined,
      tree: undefined,
      frames: undefined,
      meta: undefined,
    });
    expect(collapse(tree, tree.tree.self)).toEqual(collapse(full, full.tree.self));
  });
});
