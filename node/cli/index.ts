/**
 * The `flamelens` command: headless work on profiles for scripts and CI pipelines, and `open` to
 * launch the app. Each command is in the table (`commands.ts`); errors are one line on stderr
 * naming the file and where, exit status 1.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { supportedFormatsText } from '../../shared/import/import-profile';
import { COMMANDS, findCommand } from './commands';
import { CliError } from './errors';
import { type Output, processOutput, writeText } from './output';
import { usage } from './usage';

const HELP = new Set(['-h', '--help', 'help']);
const VERSION = new Set(['-v', '--version']);

/** Runs the command line `argv` (the arguments after `flamelens`), writing to `out`; resolves to the exit status. */
export async function main(argv: string[], out: Output = processOutput()): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (name === undefined || HELP.has(name)) return (out.stdout.write(usage(rest[0])), 0);
    if (VERSION.has(name)) return (out.stdout.write(`flamelens ${__FLAMELENS_VERSION__}\n`), 0);
    const command = findCommand(name);
    if (!command) throw new CliError(`unknown command "${name}". Commands: ${COMMANDS.map((c) => c.name).join(', ')} (flamelens --help)`);
    return await command.run(rest, out);
  } catch (e) {
    return failed(e, out);
  }
}

/** What a command threw, as the one line on stderr, and the exit status. */
function failed(e: unknown, out: Output): number {
  if (e instanceof CliError) {
    writeText(out.stderr, `flamelens: ${e.message}\n`);
    return e.status;
  }
  if (e instanceof TypeError && (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    writeText(out.stderr, `flamelens: ${e.message}\n`);
    return 1;
  }
  writeText(out.stderr, `flamelens: unexpected error: ${(e as Error).message}\n`);
  return 1;
}

export { supportedFormatsText };

declare const __FLAMELENS_VERSION__: string;

/** Runs the command line with the process's arguments (bin/flamelens.mjs calls this). */
export function run(): void {
  // Output piped into a command that stops reading (`flamelens collapse x | head`): stop quietly,
  // as Unix tools do, instead of dying with an unhandled EPIPE.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}

/** Whether this module is the script node was started with (`node out/cli/flamelens.js …`), not imported. */
function isEntryScript(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return pathToFileURL(realpathSync(script)).href === import.meta.url;
  } catch {
    return false;
  }
}

// `node out/cli/flamelens.js ARGS` runs the command line as `flamelens ARGS` does.
if (isEntryScript()) run();
