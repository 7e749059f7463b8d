/** Help text of the `flamelens` command. Lists only commands that exist. */
import { supportedFormatsText } from '../../shared/import/import-profile';
import { DIFF_HELP } from './diff';
import { HEAP_HELP } from './heap';
import { HEATMAP_HELP } from './heatmap';
import { INFO_HELP } from './info';
import { RECORD_HELP } from './record';
import { STATS_HELP } from './stats';

export interface CommandHelp {
  name: string;
  synopsis: string;
  summary: string;
  details: string;
}

export const COMMANDS: CommandHelp[] = [
  {
    name: 'open',
    synopsis: 'flamelens open [FILE|FOLDER…]',
    summary: 'open the app on these profiles (the bundled sample comparison when none)',
    details:
      'Opens Flamelens in Electron. Where no Electron binary is available it serves the app on\n' +
      '127.0.0.1 and opens it in a Chromium or Chrome app window, or prints the address when there\n' +
      'is no display.\n\n  --no-browser   only serve and print the address\n  --port N       serve on this port (default: any free port)\n',
  },
  {
    name: 'collapse',
    synopsis: 'flamelens collapse FILE|THREAD-FILES… [--weight samples|time|bytes] [--event NAME] [--thread PID:TID|NAME|all]',
    summary: 'print folded stacks ("frame;frame;frame WEIGHT"), one line per distinct stack',
    details:
      'Lines are sorted by byte order and weights are integers. The default weight is the number of\n' +
      'samples for sampled formats, microseconds of self time for trace spans, and bytes for heap\n' +
      'profiles.\n\n' +
      '  --weight samples|time|bytes   choose the weight (time: microseconds)\n' +
      '  --event NAME                  perf script: the event type to keep (default: the first one)\n' +
      '  --thread PID:TID|NAME|all     files with samples of several threads: the thread to print\n' +
      '                                (default: the busiest main thread; stderr says which; all:\n' +
      '                                each thread under a root frame "NAME PID/TID")\n\n' +
      "THREAD-FILES: a Node.js process's per-thread .cpuprofile files (node --cpu-prof with\n" +
      'worker_threads), named together or as their folder, are one run: a thread per file.\n',
  },
  INFO_HELP,
  DIFF_HELP,
  HEATMAP_HELP,
  HEAP_HELP,
  STATS_HELP,
  RECORD_HELP,
];

export function usage(command?: string): string {
  const c = COMMANDS.find((x) => x.name === command);
  if (c) return `Usage: ${c.synopsis}\n\n${c.summary[0]!.toUpperCase()}${c.summary.slice(1)}.\n\n${c.details}`;
  const width = Math.max(...COMMANDS.map((x) => x.name.length));
  return (
    'Usage: flamelens <command> [options]\n\n' +
    'Compare Node.js profiles: baseline against agent runs.\n\nCommands:\n' +
    COMMANDS.map((x) => `  ${x.name.padEnd(width)}  ${x.summary}`).join('\n') +
    "\n  help      show this help, or a command's: flamelens help collapse\n\n" +
    `Formats (detected from content; gzip accepted): ${supportedFormatsText()}\n\n` +
    'A FILE of - is standard input (perf script | flamelens collapse -); pipes such as\n' +
    '<(perf script) are read as they come.\n'
  );
}
