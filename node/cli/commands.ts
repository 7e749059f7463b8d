/**
 * The commands of `flamelens`, in the order `flamelens --help` lists them. A new command is a file
 * that exports a `Command` (`defineCommand(HELP, run)`), added here.
 */
import type { Command } from './command';
import { collapseCommand } from './collapse';
import { diffCommand } from './diff';
import { heapCommand } from './heap';
import { heatmapCommand } from './heatmap';
import { infoCommand } from './info';
import { openCommand } from './open';
import { recordCommand } from './record';
import { statsCommand } from './stats';

export const COMMANDS: readonly Command[] = [
  openCommand,
  collapseCommand,
  infoCommand,
  diffCommand,
  heatmapCommand,
  heapCommand,
  statsCommand,
  recordCommand,
];

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}
