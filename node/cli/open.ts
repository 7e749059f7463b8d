/**
 * `flamelens open [FILE…]`: the app in Electron where its binary exists, else the same UI served
 * on 127.0.0.1 in a Chromium/Chrome app window (or just the address when there is no display).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { findElectron } from '../server/electron-binary';
import { openInBrowser } from '../server/open';
import { type CommandHelp, defineCommand, helpText } from './command';
import { CliError } from './errors';
import type { Output } from './output';

export const OPEN_HELP: CommandHelp = {
  name: 'open',
  synopsis: 'flamelens open [FILE|FOLDER…]',
  summary: 'open the app on these profiles (the bundled sample comparison when none)',
  details:
    'Opens Flamelens in Electron. Where no Electron binary is available it serves the app on\n' +
    '127.0.0.1 and opens it in a Chromium or Chrome app window, or prints the address when there\n' +
    'is no display.\n\n  --no-browser   only serve and print the address\n  --port N       serve on this port (default: any free port)\n',
};

/** The project folder: out/cli/ is two levels below it. */
const appRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function run(args: string[], out: Output): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { 'no-browser': { type: 'boolean' }, port: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return (out.stdout.write(helpText(OPEN_HELP)), 0);
  const files = positionals.map((f) => resolve(f));
  for (const f of files) if (!existsSync(f)) throw new CliError(`${f}: no such file or folder`);
  const port = values.port !== undefined ? Number(values.port) : undefined;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536))
    throw new CliError(`--port must be a port number, not "${values.port}"`);
  const electron = values['no-browser'] ? { reason: '--no-browser was given' } : findElectron(appRoot);
  if ('path' in electron) {
    // Electron refuses to start as root on Linux without --no-sandbox (the renderer keeps its own sandbox flag).
    const asRoot = process.platform === 'linux' && process.getuid?.() === 0;
    const child = spawn(electron.path, [...(asRoot ? ['--no-sandbox'] : []), appRoot, ...files], { stdio: 'inherit' });
    return await new Promise<number>((res) => child.on('exit', (code) => res(code ?? 0)));
  }
  // FLAMELENS_SERVER_SECRET fixes the address's secret, for scripts and tests that open it themselves.
  const secret = process.env.FLAMELENS_SERVER_SECRET || undefined;
  await openInBrowser({
    files,
    electronReason: electron.reason,
    log: (line) => void out.stdout.write(`${line}\n`),
    noBrowser: values['no-browser'] === true,
    ...(port !== undefined ? { port } : {}),
    ...(secret !== undefined ? { secret } : {}),
  });
  return 0;
}

export const openCommand = defineCommand(OPEN_HELP, run);
