/** `flamelens collapse FILE [--weight samples|time|bytes]`: folded stacks on standard output. */
import { parseArgs } from 'node:util';
import { collapsedBytes } from '../../shared/model/collapse';
import { hasSampleTimes, sampleTimeSelf } from '../../shared/model/sample-time';
import { terminalText } from '../../shared/model/visible-text';
import type { Profile } from '../../shared/model/types';
import { type CommandHelp, defineCommand, helpText } from './command';
import { CliError } from './errors';
import { type Output, type Sink, writeBytesInTurn } from './output';
import { expectRuns, loadRun } from './runs';

export const COLLAPSE_HELP: CommandHelp = {
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
};

export type WeightChoice = 'samples' | 'time' | 'bytes';

/**
 * Weights for folded output. The profile's own weights are the default (sample counts for sampled
 * formats, span self time for traces, bytes for heap profiles); `time` turns sample counts into
 * microseconds from the samples' timestamps, by the model's rule (model/sample-time.ts).
 */
export function weightsFor(p: Profile, choice: WeightChoice | undefined): Float64Array {
  if (!choice) return p.tree.self;
  if (choice === 'bytes') {
    if (p.unit !== 'bytes') throw new CliError(`--weight bytes needs an allocation profile; ${p.name} is measured in ${p.unit}`);
    return p.tree.self;
  }
  if (choice === 'samples') {
    if (p.unit === 'samples' || p.unit === 'events') return p.tree.self;
    if (p.samples) {
      const w = new Float64Array(p.tree.length);
      for (let i = 0; i < p.samples.length; i++) w[p.samples.node[i]!]! += 1;
      return w;
    }
    throw new CliError(`--weight samples: ${p.name} has no individual samples (it is measured in ${p.unit})`);
  }
  // time
  if (p.unit === 'microseconds') return p.tree.self;
  if (p.unit === 'nanoseconds') return p.tree.self.map((v) => v / 1000);
  if (hasSampleTimes(p.samples)) return sampleTimeSelf(p)!;
  throw new CliError(`--weight time: ${p.name} has no timestamps to measure time with`);
}

/** Bytes of output (about) written at once: the whole text of a large profile is never held. */
const PIECE = 1 << 20;

/**
 * Writes the folded stacks of `p` to `sink`, a piece at a time, each once the sink is ready for
 * it; a piece the sink has let go of holds the next (a stream's output is a megabyte at a time,
 * over its high-water mark: it holds each piece until it drains).
 */
export async function writeCollapsed(sink: Sink, p: Profile, choice: WeightChoice | undefined): Promise<void> {
  const pieces = collapsedBytes(p, weightsFor(p, choice), PIECE, terminalText);
  for (let next = pieces.next(); !next.done;) next = pieces.next(await writeBytesInTurn(sink, next.value));
}

async function run(args: string[], out: Output): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { weight: { type: 'string' }, event: { type: 'string' }, thread: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return (out.stdout.write(helpText(COLLAPSE_HELP)), 0);
  const [r] = expectRuns(positionals, 1, 'collapse', "exactly one FILE (or one process's per-thread .cpuprofile files)");
  const weight = values.weight as WeightChoice | undefined;
  if (weight && !['samples', 'time', 'bytes'].includes(weight))
    throw new CliError(`--weight must be samples, time or bytes, not "${weight}"`);
  // Folded stacks need only the call tree, unless samples are to be counted or timed.
  const p = await loadRun(r!, out.stderr, values.event, values.thread, { samples: weight === 'samples' || weight === 'time' });
  await writeCollapsed(out.stdout, p, weight);
  return 0;
}

export const collapseCommand = defineCommand(COLLAPSE_HELP, run);
