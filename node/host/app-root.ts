/** Where the Flamelens checkout (or packaged app) lives, found from a module's location. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Walks up from `fromDir` to the folder whose package.json is Flamelens's. Works from the
 * sources (electron/main, node/server) and from the bundles (out/main, out/cli) alike.
 */
export function findAppRoot(fromDir: string): string {
  let dir = fromDir;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: unknown }).name === 'flamelens') return dir;
      } catch {
        // not ours; keep walking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the Flamelens folder above ${fromDir}`);
    dir = parent;
  }
}

export function rendererDirOf(appRoot: string): string {
  return join(appRoot, 'out', 'renderer');
}
