/**
 * Is there an Electron binary to run Flamelens in, and if not, why not — in one short phrase for
 * the "Electron is not available here (…)" line. Electron's npm package downloads its binary on
 * the first `require('electron')`; that attempt runs in a child process so that its progress
 * output and stack traces stay out of the terminal and a hung download cannot hang us forever.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type ElectronLookup = { path: string } | { reason: string };

export interface LookupEnv {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** how long the download attempt may take */
  timeoutMs?: number;
  /** false: only look for an installed binary, never try to download one */
  download?: boolean;
}

/** A graphical session to show a window in (always, on macOS and Windows). */
export function hasDisplay(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

export function findElectron(appRoot: string, ctx: LookupEnv = { env: process.env, platform: process.platform }): ElectronLookup {
  if (ctx.env.FLAMELENS_NO_ELECTRON) return { reason: 'FLAMELENS_NO_ELECTRON is set' };
  let pkgDir: string;
  try {
    pkgDir = dirname(createRequire(join(appRoot, 'package.json')).resolve('electron/package.json'));
  } catch {
    return { reason: 'the electron package is not installed' };
  }
  const display = hasDisplay(ctx.env, ctx.platform);
  const installed = installedBinary(pkgDir, ctx.env);
  if (installed) return display ? { path: installed } : { reason: 'no display' };
  const dist = join(pkgDir, 'dist');
  // Without a display the binary could not show a window anyway: not worth a download (the
  // caller says "no display" itself).
  if (!display || ctx.download === false) return { reason: `no Electron binary in ${dist}` };

  process.stderr.write("flamelens: Electron's binary is not installed yet; trying to download it…\n");
  const result = spawnSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], {
    cwd: appRoot,
    encoding: 'utf8',
    timeout: ctx.timeoutMs ?? 300_000,
    env: ctx.env,
  });
  const path = result.status === 0 ? result.stdout.trim() : '';
  if (path && existsSync(path)) return { path };
  const why = result.error?.message ?? downloadFailure(`${result.stderr}\n${result.stdout}`);
  return { reason: `no Electron binary in ${dist}, and downloading it failed: ${why}` };
}

/** The binary an earlier install left, if it is there (what `require('electron')` would return). */
function installedBinary(pkgDir: string, env: NodeJS.ProcessEnv): string | null {
  try {
    const rel = readFileSync(join(pkgDir, 'path.txt'), 'utf8').trim();
    const full = env.ELECTRON_OVERRIDE_DIST_PATH ? join(env.ELECTRON_OVERRIDE_DIST_PATH, rel) : join(pkgDir, 'dist', rel);
    return existsSync(full) ? full : null;
  } catch {
    return null;
  }
}

/** The telling line of a failed download ("TypeError: fetch failed" → "fetch failed"). */
export function downloadFailure(output: string): string {
  const lines = output.split('\n').map((l) => l.trim());
  const line =
    lines.find((l) => /fetch failed|ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|HTTPError|checksum/i.test(l)) ??
    lines.find((l) => /^\w*Error\b/.test(l)) ??
    lines.find((l) => l !== '' && !l.startsWith('at ') && !/^Downloading/.test(l)) ??
    'unknown error';
  return line.replace(/^\w*Error:\s*/, '').slice(0, 200);
}
