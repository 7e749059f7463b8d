/**
 * The `flamelens` command: headless work on profiles for scripts and CI pipelines, and `open` to
 * launch the app. Errors are one line on stderr naming the file and where; exit status 1.
 */
import { parseArgs } from 'node:util';
import { supportedFormatsText } from '../../shared/import/import-profile';
import { type WeightChoice, collapseText } from './collapse';
import { writeText } from './output';
import { CliError } from './errors';
import { diffCommand } from './diff';
import { heapCommand } from './heap';
import { heatmapCommand } from './heatmap';
import { infoCommand } from './info';
import { openCommand } from './open';
import { recordCommand } from './record';
import { expectRuns, loadRun } from './runs';
import { statsCommand } from './stats';
import { COMMANDS, usage } from './usage';

async function collapseCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { weight: { type: 'string' }, event: { type: 'string' }, thread: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return void process.stdout.write(usage('collapse'));
  const [run] = expectRuns(positionals, 1, 'collapse', "exactly one FILE (or one process's per-thread .cpuprofile files)");
  const weight = values.weight as WeightChoice | undefined;
  if (weight && !['samples', 'time', 'bytes'].includes(weight))
    throw new CliError(`--weight must be samples, time or bytes, not "${weight}"`);
  // Folded stacks need only the call tree, unless samples are to be counted or timed.
  const p = await loadRun(run!, values.event, values.thread, { samples: weight === 'samples' || weight === 'time' });
  writeText(process.stdout, collapseText(p, weight));
}

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        process.stdout.write(usage(rest[0]));
        return 0;
      case '-v':
      case '--version':
        process.stdout.write(`flamelens ${__FLAMELENS_VERSION__}\n`);
        return 0;
      case 'collapse':
        await collapseCommand(rest);
        return 0;
      case 'open':
        return await openCommand(rest);
      case 'diff':
        return await diffCommand(rest);
      case 'heatmap':
        return await heatmapCommand(rest);
      case 'info':
        return await infoCommand(rest);
      case 'heap':
        return await heapCommand(rest);
      case 'stats':
        return await statsCommand(rest);
      case 'record':
        return await recordCommand(rest);
      default:
        throw new CliError(`unknown command "${cmd}". Commands: ${COMMANDS.map((c) => c.name).join(', ')} (flamelens --help)`);
    }
  } catch (e) {
    if (e instanceof CliError) {
      writeText(process.stderr, `flamelens: ${e.message}\n`);
      return e.status;
    }
    if (e instanceof TypeError && (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      writeText(process.stderr, `flamelens: ${e.message}\n`);
      return 1;
    }
    writeText(process.stderr, `flamelens: unexpected error: ${(e as Error).message}\n`);
    return 1;
  }
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
