/**
 * The browser profile of the app window that `flamelens open` starts where Electron is missing.
 * It lasts from one opening to the next, as the desktop app's own storage does, so that the
 * comparison and its notes kept for crash recovery (IndexedDB) are offered back after the window
 * was closed or the browser crashed, not only after a reload. Storage belongs to an origin, port
 * included: the server listens on a port of this account's (`preferredPort`) where it is free.
 *
 * One browser uses a profile at a time: an opening while another holds the lasting profile gets
 * a throw-away one (deleted when it ends), as every opening did before.
 */
import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { homedir, hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

export interface BrowserProfile {
  dir: string;
  /** the lasting profile (else a throw-away one) */
  lasting: boolean;
  /** lets the lasting profile go for the next opening, or deletes the throw-away one */
  release(): Promise<void>;
}

/** Where the lasting profile is: `FLAMELENS_BROWSER_PROFILE`, else beside the desktop app's data (`Flamelens/` in the system's application-data folder). */
export function lastingProfileDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home = homedir(),
): string {
  if (env.FLAMELENS_BROWSER_PROFILE) return env.FLAMELENS_BROWSER_PROFILE;
  const appData =
    platform === 'win32'
      ? (env.APPDATA ?? join(home, 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? join(home, 'Library', 'Application Support')
        : (env.XDG_CONFIG_HOME ?? join(home, '.config'));
  return join(appData, 'Flamelens', 'browser-profile');
}

/**
 * The port the server asks for when it opens the lasting profile's window: the same at every
 * opening of one account, another for each account (two people on one machine each keep their
 * own); where it is taken, the server takes any free one, and that opening's storage is its own.
 */
export function preferredPort(uid: number | undefined = process.getuid?.()): number {
  return 47_600 + ((uid ?? 0) % 400);
}

const LOCK = 'flamelens-open.pid';
/** the lasting profiles this process holds */
const held = new Set<string>();

/** Whether a process of this id runs (one of another account's counts: it answers EPERM). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a browser runs on the profile in `dir`: Chromium's `SingletonLock` link there names its host and process (Linux, macOS). */
function browserOn(dir: string, isRunning: (pid: number) => boolean): boolean {
  let target: string;
  try {
    target = readlinkSync(join(dir, 'SingletonLock'));
  } catch {
    return false;
  }
  const m = /^(.*)-(\d+)$/.exec(target);
  return m !== null && m[1] === hostname() && isRunning(Number(m[2]));
}

/**
 * The lasting profile when no other running `flamelens open` holds it (its process id in a file
 * there says who does; one of a process that has ended is taken over), else a throw-away one.
 */
export function takeBrowserProfile(dir: string = lastingProfileDir(), isRunning: (pid: number) => boolean = running): BrowserProfile {
  const lock = join(dir, LOCK);
  const mine = String(process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(lock, mine, { flag: 'wx' });
      // A browser still running on it (one whose server was killed) would take the new window
      // over and exit at once.
      if (browserOn(dir, isRunning)) {
        unlinkSync(lock);
        break;
      }
      held.add(dir);
      return {
        dir,
        lasting: true,
        release: async () => {
          held.delete(dir);
          try {
            if (readFileSync(lock, 'utf8') === mine) unlinkSync(lock);
          } catch {
            // gone already
          }
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') break;
      let holder = Number.NaN;
      try {
        holder = Number(readFileSync(lock, 'utf8'));
      } catch {
        // removed meanwhile: try again
      }
      // (this process's own id: held if this process holds it now, else left by a process the id was reused from)
      if (holder === process.pid ? held.has(dir) : Number.isInteger(holder) && holder > 0 && isRunning(holder)) break;
      try {
        unlinkSync(lock);
      } catch {
        // removed meanwhile
      }
    }
  }
  const temp = mkdtempSync(join(tmpdir(), 'flamelens-browser-'));
  return {
    dir: temp,
    lasting: false,
    // Chromium's helper processes may still be writing their last files: retry a little.
    release: () => rm(temp, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }).catch(() => undefined),
  };
}
