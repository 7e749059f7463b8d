/**
 * The packaging configuration (electron-builder.json): the files it registers with the system
 * are ones Flamelens opens, and the package holds what the main process loads.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { PROFILE_EXTENSIONS } from './dialogs';
import { parseLaunchArgs } from './launch-args';

vi.mock('electron', () => ({ dialog: {} }));

interface Association {
  ext: string | string[];
  name: string;
  mimeType: string;
  role: string;
}
const config = JSON.parse(readFileSync(new URL('../../electron-builder.json', import.meta.url), 'utf8')) as {
  files: string[];
  fileAssociations: Association[];
};
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { main: string };

describe('electron-builder.json', () => {
  const associated = config.fileAssociations.flatMap((a) => (Array.isArray(a.ext) ? a.ext : [a.ext]));

  it('registers the .flamelens workspace as Flamelens’s own document type', () => {
    const ws = config.fileAssociations.find((a) => a.ext === 'flamelens');
    expect(ws).toMatchObject({ role: 'Editor', mimeType: 'application/x-flamelens' });
  });

  it('registers only extensions the open dialog offers, and no generic ones', () => {
    for (const ext of associated) expect(PROFILE_EXTENSIONS).toContain(ext);
    for (const generic of ['json', 'txt', 'log', 'html', 'gz']) expect(associated).not.toContain(generic);
    for (const a of config.fileAssociations) expect(a.mimeType).toMatch(/^[a-z]+\/[\w.+-]+$/);
  });

  it('packages the main process, the renderer and the bundled samples', () => {
    expect(pkg.main).toBe('out/main/index.js');
    expect(config.files).toEqual(expect.arrayContaining(['out/**', 'assets/**', 'package.json']));
  });

  it('a file the system opens with the packaged app reaches the window', () => {
    // Linux and Windows start `Flamelens <file>`; macOS sends 'open-file' (see index.test.ts).
    expect(parseLaunchArgs(['/opt/Flamelens/flamelens', '/home/me/run.flamelens'], { defaultApp: false, cwd: '/home/me' })).toEqual([
      '/home/me/run.flamelens',
    ]);
  });
});
