/**
 * The Node side may import shared/ but never renderer/, and plain Node (node/) never reaches
 * electron/ — rules a single tsconfig `rootDir` cannot express (all live at the top of the
 * repository), so they are checked here by following the imports of every file node/tsconfig.json,
 * electron/tsconfig.json and electron/preload/tsconfig.json compile.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every project file reachable through imports from the files a tsconfig includes. */
function reachableFiles(tsconfig: string, root: string): string[] {
  const config = ts.readConfigFile(tsconfig, (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dirname(tsconfig));
  const seen = new Set<string>();
  const queue = parsed.fileNames.filter((f) => !f.endsWith('.d.ts'));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const info = ts.preProcessFile(ts.sys.readFile(file) ?? '', true, true);
    for (const ref of info.importedFiles) {
      const resolved = ts.resolveModuleName(ref.fileName, file, parsed.options, ts.sys).resolvedModule;
      if (resolved && !resolved.isExternalLibraryImport && !resolved.resolvedFileName.endsWith('.d.ts')) {
        queue.push(resolved.resolvedFileName);
      }
    }
  }
  return [...seen].map((f) => relative(root, f)).sort();
}

const outsideOf = (folders: string[], files: string[]) => files.filter((f) => !folders.some((d) => f.startsWith(`${d}${sep}`)));
const outside = (files: string[]) => outsideOf(['electron', 'node', 'shared'], files);

describe('electron/ and node/ imports', () => {
  it.each(['electron/tsconfig.json', 'electron/preload/tsconfig.json'])('%s reaches only electron/, node/ and shared/', (cfg) => {
    const files = reachableFiles(join(ROOT, cfg), ROOT);
    expect(files.length).toBeGreaterThan(0);
    expect(outside(files)).toEqual([]);
  });

  it('node/tsconfig.json (the CLI, the loopback server, host code) reaches only node/ and shared/', () => {
    const files = reachableFiles(join(ROOT, 'node/tsconfig.json'), ROOT);
    expect(files.filter((f) => f.startsWith(`node${sep}cli`)).length).toBeGreaterThan(0);
    expect(files.filter((f) => f.startsWith(`node${sep}server`)).length).toBeGreaterThan(0);
    expect(outsideOf(['node', 'shared'], files)).toEqual([]);
  });

  it('the sandboxed preload pulls in nothing from main, node/ or the server', () => {
    const files = reachableFiles(join(ROOT, 'electron/preload/tsconfig.json'), ROOT);
    expect(files.filter((f) => !f.startsWith(join('electron', 'preload')) && !f.startsWith(`shared${sep}ipc`))).toEqual([]);
  });

  it('would notice an import of renderer/', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flamelens-boundary-'));
    try {
      mkdirSync(join(dir, 'electron', 'main'), { recursive: true });
      mkdirSync(join(dir, 'renderer'));
      writeFileSync(
        join(dir, 'electron', 'tsconfig.json'),
        '{"compilerOptions":{"moduleResolution":"bundler","module":"esnext"},"include":["main/**/*.ts"]}',
      );
      writeFileSync(join(dir, 'electron', 'main', 'index.ts'), "import { x } from '../../renderer/store';\nexport const y = x;\n");
      writeFileSync(join(dir, 'renderer', 'store.ts'), 'export const x = 1;\n');
      expect(outside(reachableFiles(join(dir, 'electron', 'tsconfig.json'), dir))).toEqual([join('renderer', 'store.ts')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
