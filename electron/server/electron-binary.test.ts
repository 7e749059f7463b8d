import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
  it('gives a reason instead of a binary when there is nothing to show it on, or when told not to', () => {
    expect(findElectron('/nowhere', { env: {}, platform: 'linux' })).toEqual({ reason: 'no display' });
    expect(findElectron('/nowhere', { env: { FLAMELENS_NO_ELECTRON: '1', DISPLAY: ':0' }, platform: 'linux' })).toEqual({
      reason: 'FLAMELENS_NO_ELECTRON is set',
    });
  });

  it('reports a missing electron package', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flamelens-noelectron-'));
    writeFileSync(join(dir, 'package.json'), '{"name":"flamelens"}');
    try {
      expect(findElectron(dir, { env: { DISPLAY: ':0' }, platform: 'linux' })).toEqual({ reason: 'the electron package is not installed' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds a binary an earlier install left, without running anything', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flamelens-electron-'));
    const pkg = join(dir, 'node_modules', 'electron');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"name":"flamelens"}');
    writeFileSync(join(pkg, 'package.json'), '{"name":"electron","main":"index.js"}');
    writeFileSync(join(pkg, 'path.txt'), 'electron');
    writeFileSync(join(pkg, 'dist', 'electron'), '');
    try {
      expect(findElectron(dir, { env: { DISPLAY: ':0' }, platform: 'linux' })).toEqual({ path: join(pkg, 'dist', 'electron') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
