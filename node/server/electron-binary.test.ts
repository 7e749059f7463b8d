import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { downloadFailure, findElectron, hasDisplay } from './electron-binary';

describe('hasDisplay', () => {
  it('needs DISPLAY or WAYLAND_DISPLAY on Linux only', () => {
    expect(hasDisplay({}, 'linux')).toBe(false);
    expect(hasDisplay({ DISPLAY: ':99' }, 'linux')).toBe(true);
    expect(hasDisplay({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBe(true);
    expect(hasDisplay({}, 'darwin')).toBe(true);
    expect(hasDisplay({}, 'win32')).toBe(true);
  });
});

describe('findElectron', () => {
  /** A project folder with an electron package, with or without its binary. */
  function project(withBinary: boolean): { dir: string; binary: string } {
    const dir = mkdtempSync(join(tmpdir(), 'flamelens-electron-'));
    const pkg = join(dir, 'node_modules', 'electron');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"name":"flamelens"}');
    writeFileSync(join(pkg, 'package.json'), '{"name":"electron","main":"index.js"}');
    if (withBinary) {
      writeFileSync(join(pkg, 'path.txt'), 'electron');
      writeFileSync(join(pkg, 'dist', 'electron'), '');
    }
    return { dir, binary: join(pkg, 'dist', 'electron') };
  }
  const cleanup: string[] = [];
  afterAll(() => cleanup.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('finds a binary an earlier install left, without running anything', () => {
    const { dir, binary } = project(true);
    cleanup.push(dir);
    expect(findElectron(dir, { env: { DISPLAY: ':0' }, platform: 'linux' })).toEqual({ path: binary });
    expect(findElectron(dir, { env: {}, platform: 'linux' })).toEqual({ reason: 'no display' });
    expect(findElectron(dir, { env: { FLAMELENS_NO_ELECTRON: '1', DISPLAY: ':0' }, platform: 'linux' })).toEqual({
      reason: 'FLAMELENS_NO_ELECTRON is set',
    });
  });

  it('says where the binary is missing, and does not download when told not to or pointless', () => {
    const { dir } = project(false);
    cleanup.push(dir);
    const dist = join(dir, 'node_modules', 'electron', 'dist');
    expect(findElectron(dir, { env: { DISPLAY: ':0' }, platform: 'linux', download: false })).toEqual({
      reason: `no Electron binary in ${dist}`,
    });
    expect(findElectron(dir, { env: {}, platform: 'linux' })).toEqual({ reason: `no Electron binary in ${dist}` });
  });

  it('reports a failed download with its cause', () => {
    const { dir } = project(false);
    cleanup.push(dir);
    // This stand-in package fails the way @electron/get does without network.
    writeFileSync(
      join(dir, 'node_modules', 'electron', 'index.js'),
      "console.log('Downloading Electron binary...'); console.error('TypeError: fetch failed\\n    at x (y:1:1)'); process.exit(1);",
    );
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const r = findElectron(dir, { env: { DISPLAY: ':0', PATH: process.env.PATH }, platform: 'linux' });
    stderr.mockRestore();
    expect(r).toEqual({
      reason: `no Electron binary in ${join(dir, 'node_modules', 'electron', 'dist')}, and downloading it failed: fetch failed`,
    });
  });

  it('reports a missing electron package', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flamelens-noelectron-'));
    cleanup.push(dir);
    writeFileSync(join(dir, 'package.json'), '{"name":"flamelens"}');
    expect(findElectron(dir, { env: { DISPLAY: ':0' }, platform: 'linux' })).toEqual({ reason: 'the electron package is not installed' });
  });
});

describe('downloadFailure', () => {
  it('picks the telling line out of @electron/get’s output', () => {
    const out = [
      'Downloading Electron binary...',
      'TypeError: fetch failed',
      '    at node:internal/deps/undici/undici:14976:13',
      '    at async FetchDownloader.download (file:///x/FetchDownloader.js:46:30)',
    ].join('\n');
    expect(downloadFailure(out)).toBe('fetch failed');
    expect(downloadFailure('Error: getaddrinfo ENOTFOUND github.com')).toBe('getaddrinfo ENOTFOUND github.com');
    expect(downloadFailure('HTTPError: Response code 404 (Not Found)')).toBe('Response code 404 (Not Found)');
    expect(downloadFailure('')).toBe('unknown error');
  });
});
