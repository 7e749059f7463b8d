/** Help text of the `flamelens` command, built from the table of commands: it lists only commands that exist. */
import { supportedFormatsText } from '../../shared/import/import-profile';
import { helpText } from './command';
import { COMMANDS, findCommand } from './commands';

/** A command's help when `command` names one; else the list of commands, formats and how to read standard input. */
export function usage(command?: string): string {
  const c = command === undefined ? undefined : findCommand(command);
  if (c) return helpText(c.help);
  const width = Math.max(...COMMANDS.map((x) => x.name.length));
  return (
    'Usage: flamelens <command> [options]\n\n' +
    'Compare Node.js profiles: baseline against agent runs.\n\nCommands:\n' +
    COMMANDS.map((x) => `  ${x.name.padEnd(width)}  ${x.help.summary}`).join('\n') +
    "\n  help      show this help, or a command's: flamelens help collapse\n\n" +
    `Formats (detected from content; gzip accepted): ${supportedFormatsText()}\n\n` +
    'A FILE of - is standard input (perf script | flamelens collapse -); pipes such as\n' +
    '<(perf script) are read as they come.\n'
  );
}
