/**
 * The arguments of `flamelens diff`: read, checked (each wrong one a one-line `CliError` naming
 * the option), and turned into what the diff and its reports need.
 */
import type { Normalize } from '../../shared/diff/diff';
import type { Weighing } from '../../shared/model/weigh';
import { CliError } from './errors';
import { stdinOnce } from './load';
import { type RunArg, expectRuns, runArgs } from './runs';
import { parseCommandArgs } from './command';

export interface Parsed {
  /** what names each side: its path (a process's files: the main thread's file) */
  base: string;
  run: string;
  /** the two runs, as named */
  sides: [RunArg, RunArg];
  match?: string;
  normalize: Normalize;
  weight?: Weighing;
  thread?: string;
  top: number;
  threshold: number;
  excludeIdle: boolean;
  matchEntry: boolean;
  output: 'text' | 'json' | 'markdown';
  failAbove?: number;
  event?: string;
}

export function parseDiffArgs(args: string[]): Parsed | 'help' {
  const parsed = parseCommandArgs('diff', args, {
    match: { type: 'string' },
    normalize: { type: 'string' },
    weight: { type: 'string' },
    thread: { type: 'string' },
    top: { type: 'string' },
    threshold: { type: 'string' },
    idle: { type: 'string' },
    // the flag of earlier versions, the same as --idle exclude
    'exclude-idle': { type: 'boolean' },
    'no-match-entry': { type: 'boolean' },
    json: { type: 'boolean' },
    markdown: { type: 'boolean' },
    'fail-above': { type: 'string' },
    event: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  const { values: v, positionals } = parsed;
  if (v.help) return 'help';
  stdinOnce(positionals);
  // Two files of one process's threads are compared with each other, as two files always were.
  const twoFiles = positionals.length === 2 && runArgs(positionals).length === 1;
  const [baseRun, runRun] = twoFiles
    ? positionals.map((label) => ({ label }))
    : expectRuns(
        positionals,
        2,
        'diff',
        "exactly two files, BASE and RUN (either may be a process's per-thread .cpuprofile files, named together or as their folder)",
      );
  const normalize = v.normalize ?? 'absolute';
  if (normalize !== 'relative' && normalize !== 'absolute')
    throw new CliError(`--normalize must be relative or absolute, not "${normalize}"`);
  if (v.idle !== undefined && v.idle !== 'include' && v.idle !== 'exclude')
    throw new CliError(`--idle must be include or exclude, not "${v.idle}"`);
  if (v.idle === 'include' && v['exclude-idle']) throw new CliError('--exclude-idle contradicts --idle include');
  if (v.weight !== undefined && v.weight !== 'time' && v.weight !== 'samples')
    throw new CliError(`--weight must be time or samples, not "${v.weight}"`);
  const top = v.top === undefined ? 20 : Number(v.top);
  if (!Number.isInteger(top) || top < 0 || v.top?.trim() === '')
    throw new CliError(`--top must be a whole number (0 for all), not "${v.top}"`);
  const threshold = v.threshold === undefined ? 0.1 : Number(v.threshold);
  if (!(threshold >= 0) || v.threshold?.trim() === '')
    throw new CliError(`--threshold must be percentage points (0 or more), not "${v.threshold}"`);
  if (v.json && v.markdown) throw new CliError('choose one of --json and --markdown');
  let failAbove: number | undefined;
  if (v['fail-above'] !== undefined) {
    const text = v['fail-above'].trim().replace(/%$/, '');
    failAbove = Number(text);
    if (text === '' || !Number.isFinite(failAbove))
      throw new CliError(`--fail-above must be a percentage such as 10, not "${v['fail-above']}"`);
  }
  if (v.match !== undefined && v.match.trim() === '') throw new CliError('--match needs a PATTERN');
  const p: Parsed = {
    base: baseRun!.label,
    run: runRun!.label,
    sides: [baseRun!, runRun!] as [RunArg, RunArg],
    normalize,
    top,
    threshold,
    excludeIdle: v.idle !== 'include',
    matchEntry: v['no-match-entry'] !== true,
    output: v.json ? 'json' : v.markdown ? 'markdown' : 'text',
  };
  if (v.match !== undefined) p.match = v.match;
  if (v.weight !== undefined) p.weight = v.weight;
  if (v.thread !== undefined) p.thread = v.thread;
  if (failAbove !== undefined) p.failAbove = failAbove;
  if (v.event !== undefined) p.event = v.event;
  return p;
}
