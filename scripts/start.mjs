#!/usr/bin/env node
// `npm start [-- FILE|FOLDER…]`: builds when out/ is missing or older than the sources, then runs
// `flamelens open` on the files — Electron where its binary exists (the first run tries to
// download it), else the same UI served on 127.0.0.1 in a Chromium app window, or just its
// address when there is no display. With no files, the bundled sample comparison opens.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const OUTPUTS = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'out/cli/flamelens.js'];
const SOURCE_DIRS = ['electron', 'renderer', 'shared', 'assets'];
const SOURCE_FILES = ['package.json', 'electron.vite.config.ts', 'vite.cli.config.ts'];

/** Newest modification time under `path`, ignoring tests (they are not part of the build). */
function newest(path) {
  let st;
  try {
    st = statSync(path);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : st.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    max = Math.max(max, newest(join(path, entry)));
  }
  return max;
}

/** Why a build is needed, or null when out/ is up to date. */
export function staleReason(dir = root) {
  const missing = OUTPUTS.filter((o) => !existsSync(join(dir, o)));
  if (missing.length > 0) return `${missing[0]} is missing`;
  const built = Math.min(...OUTPUTS.map((o) => statSync(join(dir, o)).mtimeMs));
  const changed = Math.max(...SOURCE_DIRS.map((d) => newest(join(dir, d))), ...SOURCE_FILES.map((f) => newest(join(dir, f))));
  return changed > built ? 'the sources changed since the last build' : null;
}

/**
 * The arguments for `flamelens open`: paths made absolute against the folder `npm start` was run
 * from (npm itself runs scripts in the package folder and says where it was called in INIT_CWD).
 */
export function openArgs(argv, cwd) {
  const out = [];
  let onlyPaths = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!onlyPaths && a === '--') {
      onlyPaths = true;
    } else if (!onlyPaths && a.startsWith('-')) {
      out.push(a);
      if (a === '--port' && i + 1 < argv.length) out.push(argv[++i]);
    } else {
      out.push(resolve(cwd, a));
    }
  }
  return out;
}

function main() {
  const reason = staleReason();
  if (reason) {
    console.log(`flamelens: building first (${reason}): npm run build`);
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
    if (build.status !== 0) {
      console.error('flamelens: the build failed; see above.');
      process.exit(build.status ?? 1);
    }
  }
  const args = ['open', ...openArgs(process.argv.slice(2), process.env.INIT_CWD ?? process.cwd())];
  const child = spawn(process.execPath, [join(root, 'bin', 'flamelens.mjs'), ...args], { cwd: root, stdio: 'inherit' });
  // Ctrl+C reaches the child through the terminal; we only wait for it to finish.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
