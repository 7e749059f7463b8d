/**
 * Which files and folders Flamelens was asked to open, from a command line. Electron-free.
 *
 * The same parser serves three command lines:
 *   dev       `electron . a.cpuprofile`        → [electron, '.', 'a.cpuprofile']
 *   direct    `electron out/main/index.js a`   → [electron, 'out/main/index.js', 'a']
 *   packaged  `Flamelens a.cpuprofile b/`      → [Flamelens, 'a.cpuprofile', 'b/']
 * and the argv a second instance forwards, in which Chromium may have moved or added switches
 * (`--allow-file-access-from-files`, `--original-process-start-time=…`). So: every argument that
 * starts with `-` is a switch (macOS's `-psn_0_1234` too) until a bare `--`; when Electron runs an
 * unpackaged app (`process.defaultApp`), the first positional argument is the app itself.
 */
import { isAbsolute, join, resolve } from 'node:path';

export interface LaunchContext {
  /** `process.defaultApp`: true when run as `electron <app>` rather than packaged */
  defaultApp: boolean;
  /** directory relative paths are resolved against */
  cwd: string;
}

export function parseLaunchArgs(argv: readonly string[], ctx: LaunchContext): string[] {
  const paths: string[] = [];
  let appSkipped = !ctx.defaultApp;
  let onlyPositionals = false;
  for (const arg of argv.slice(1)) {
    if (!onlyPositionals && arg === '--') {
      onlyPositionals = true;
      continue;
    }
    if (!onlyPositionals && arg.startsWith('-')) continue;
    if (!appSkipped) {
      appSkipped = true;
      continue;
    }
    if (arg === '' || arg.includes('\0')) continue;
    paths.push(resolve(ctx.cwd, arg));
  }
  return paths;
}

/** What the first instance is told by a second one (`app.requestSingleInstanceLock(data)`). */
export interface SecondInstanceData {
  flamelensPaths: string[];
}

/**
 * The paths a second instance wants opened: its own parsed list when it sent one (immune to
 * Chromium's argv rewriting), else its argv parsed against its working directory.
 */
export function secondInstancePaths(data: unknown, argv: readonly string[], ctx: LaunchContext): string[] {
  const sent = (data as Partial<SecondInstanceData> | null | undefined)?.flamelensPaths;
  if (Array.isArray(sent) && sent.every((p) => typeof p === 'string' && isAbsolute(p) && !p.includes('\0'))) {
    return sent;
  }
  return parseLaunchArgs(argv, ctx);
}

/** The bundled sample comparison opened when no files were named. */
export function samplePaths(appRoot: string): string[] {
  const dir = join(appRoot, 'assets', 'samples');
  return [join(dir, 'baseline.cpuprofile'), join(dir, 'dd-trace.cpuprofile')];
}
