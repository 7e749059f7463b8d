/**
 * The packaging configuration (electron-builder.json): the files it registers with the system
 * are ones Flamelens opens, and the package holds what the main process loads.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { PROFILE_EXTENSIONS } from './dialogs';
import { parseLaunchArgs } from '../../node/host/launch-args';

vi.mock('electron', () => ({ dialog: {} }));

interface Association {
  ext: string | string[];
  name: string;
  mimeType: string;
  role: string;
}
const config = JSON.parse(readFileSync(new URL('../../electron-builder.json', import.meta.url), 'utf8')) as {
  files: string[];
  asar?: boolean;
  electronFuses?: Record<string, unknown>;
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

describe('Electron fuses of the packaged app', () => {
  // Flipped in the Electron binary by electron-builder: they cannot be undone by an argument or
  // an environment variable given to the installed app.
  const wanted: Record<string, boolean> = {
    // ELECTRON_RUN_AS_NODE=1 would turn the app into a plain Node.js with its code signature
    runAsNode: false,
    // NODE_OPTIONS=--require=… would run any script inside the app's main process
    enableNodeOptionsEnvironmentVariable: false,
    // --inspect (or SIGUSR1) would open a debugger on the main process
    enableNodeCliInspectArguments: false,
    // the app's code is checked against the hash recorded at packaging…
    enableEmbeddedAsarIntegrityValidation: true,
    // …and only the checked app.asar is loaded, never a loose app/ folder placed beside it
    onlyLoadAppFromAsar: true,
    enableCookieEncryption: true,
    // the renderer is served from the flamelens:// protocol, so file:// needs no extra rights
    grantFileProtocolExtraPrivileges: false,
  };

  it.each(Object.entries(wanted))('%s is %s', (fuse, value) => {
    expect(config.electronFuses, 'electron-builder.json has no electronFuses').toBeDefined();
    expect(config.electronFuses![fuse], fuse).toBe(value);
  });

  it('names only fuses electron-builder knows (a misspelt one would be ignored)', () => {
    const scheme = JSON.parse(readFileSync(new URL('../../node_modules/app-builder-lib/scheme.json', import.meta.url), 'utf8')) as {
      definitions: { FuseOptionsV1: { properties: Record<string, unknown> } };
    };
    const known = Object.keys(scheme.definitions.FuseOptionsV1.properties);
    for (const fuse of Object.keys(config.electronFuses ?? {})) expect(known).toContain(fuse);
  });

  it('packs the app into an asar archive, the only place the fuses let it load from', () => {
    expect(config.asar ?? true).toBe(true);
  });
});
