import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastingProfileDir, preferredPort, takeBrowserProfile } from './browser-profile';

describe("the app window's browser profile", () => {
  let dir: string;
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'flamelens-profile-test-')), 'browser-profile');
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('is the lasting one when nobody holds it, and again once let go', async () => {
    const a = takeBrowserProfile(dir);
    expect(a).toMatchObject({ dir, lasting: true });
    expect(readFileSync(join(dir, 'flamelens-open.pid'), 'utf8')).toBe(String(process.pid));
    await a.release();
    const b = takeBrowserProfile(dir);
    expect(b).toMatchObject({ dir, lasting: true });
    await b.release();
    expect(existsSync(dir)).toBe(true);
  });

  it('is a throw-away one while another running opening holds it, deleted when let go', async () => {
    const held = takeBrowserProfile(dir);
    // the holder is another process that runs
    writeFileSync(join(dir, 'flamelens-open.pid'), '999999');
    const other = takeBrowserProfile(dir, (pid) => pid === 999999);
    expect(other.lasting).toBe(false);
    expect(other.dir).not.toBe(dir);
    expect(existsSync(other.dir)).toBe(true);
    await other.release();
    expect(existsSync(other.dir)).toBe(false);
    // the holder's lock is left alone: letting go of the lasting profile removes only one's own
    await held.release();
    expect(readFileSync(join(dir, 'flamelens-open.pid'), 'utf8')).toBe('999999');
  });

  it('is taken over from an opening that has ended', async () => {
    takeBrowserProfile(dir);
    writeFileSync(join(dir, 'flamelens-open.pid'), '999999');
    const p = takeBrowserProfile(dir, () => false);
    expect(p).toMatchObject({ dir, lasting: true });
    expect(readFileSync(join(dir, 'flamelens-open.pid'), 'utf8')).toBe(String(process.pid));
    await p.release();
  });

  it.skipIf(process.platform === 'win32')('is a throw-away one while a browser still runs on it', async () => {
    const first = takeBrowserProfile(dir);
    await first.release();
    symlinkSync(`${hostname()}-424242`, join(dir, 'SingletonLock'));
    const p = takeBrowserProfile(dir, (pid) => pid === 424242);
    expect(p.lasting).toBe(false);
    await p.release();
    // (a browser that has ended leaves its link behind: the profile is the lasting one again)
    const q = takeBrowserProfile(dir, () => false);
    expect(q.lasting).toBe(true);
    await q.release();
  });

  it("lies beside the desktop app's data, or where FLAMELENS_BROWSER_PROFILE says", () => {
    expect(lastingProfileDir('linux', {}, '/home/a')).toBe('/home/a/.config/Flamelens/browser-profile');
    expect(lastingProfileDir('linux', { XDG_CONFIG_HOME: '/x' }, '/home/a')).toBe('/x/Flamelens/browser-profile');
    expect(lastingProfileDir('darwin', {}, '/Users/a')).toBe('/Users/a/Library/Application Support/Flamelens/browser-profile');
    expect(lastingProfileDir('win32', { APPDATA: 'C:\\A' }, 'C:\\U')).toBe(join('C:\\A', 'Flamelens', 'browser-profile'));
    expect(lastingProfileDir('linux', { FLAMELENS_BROWSER_PROFILE: '/p' }, '/home/a')).toBe('/p');
  });

  it("asks for the same port at every opening of an account, another for another account's", () => {
    expect(preferredPort(1000)).toBe(preferredPort(1000));
    expect(preferredPort(1000)).not.toBe(preferredPort(1001));
    for (const uid of [0, 1, 999, 1000, 65534, undefined]) {
      const p = preferredPort(uid);
      expect(p >= 1024 && p < 65536).toBe(true);
    }
  });
});
