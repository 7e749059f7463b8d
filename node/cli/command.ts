/**
 * What a `flamelens` command is: its help and how it runs. Each command's file exports one
 * (`defineCommand`); `commands.ts` lists them, `usage.ts` and `index.ts` read that list. This file
 * imports no command, so that every command can use it without a loop of imports.
 */
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { CliError } from './errors';
import type { Output } from './output';

export interface CommandHelp {
  name: string;
  synopsis: string;
  summary: string;
  details: string;
}

export interface Command {
  /** what is typed after `flamelens` */
  readonly name: string;
  readonly help: CommandHelp;
  /** Runs the command on its arguments, writing to `out`; resolves to the exit status. A `CliError` it throws is printed by `main`. */
  run(args: string[], out: Output): Promise<number>;
}

export function defineCommand(help: CommandHelp, run: (args: string[], out: Output) => Promise<number>): Command {
  return { name: help.name, help, run };
}

/** A command's `--help`: synopsis, summary as a sentence, details. */
export function helpText(h: CommandHelp): string {
  return `Usage: ${h.synopsis}\n\n${h.summary[0]!.toUpperCase()}${h.summary.slice(1)}.\n\n${h.details}`;
}

/**
 * A command's arguments, read by `util.parseArgs` with positionals; an unknown or malformed option
 * is a `CliError` that points at the command's help.
 */
export function parseCommandArgs<const O extends ParseArgsOptionsConfig>(command: string, args: string[], options: O) {
  try {
    return parseArgs({ args, allowPositionals: true, options });
  } catch (e) {
    throw new CliError(`${(e as Error).message.replace(/\s*\n\s*/g, ' ')} (see flamelens ${command} --help)`);
  }
}
