/**
 * `flamelens info FILE [--json]`: what a file holds before anything is compared — its format,
 * unit, duration, sample count, and every thread with samples, so that no thread is left out
 * unseen.
 */
import { basename } from 'node:path';
import { threadLabel } from '../../shared/model/threads';
import type { Profile, ThreadInfo } from '../../shared/model/types';
import { type CommandHelp, defineCommand, helpText, parseCommandArgs } from './command';
import { type Output, writeJson, writeText } from './output';
import { load } from './load';
import { expectRuns, readThreadFiles } from './runs';

export const INFO_HELP: CommandHelp = {
  name: 'info',
  synopsis: 'flamelens info FILE|THREAD-FILES… [--json] [--event NAME]',
  summary: 'say what a profile holds: format, unit, duration, samples and its threads',
  details:
    'Threads are those with samples, as counted in the file: every thread of a trace with CPU\n' +
    'samples or a perf capture (the one the other commands use by default first), or the one\n' +
    "thread of other files. A Node.js process's per-thread .cpuprofile files, named together or\n" +
    'as their folder, are one run: a thread per file, the main thread first.\n\n' +
    '  --json         print {"file","format","producer","unit","seconds","samples","shown",\n' +
    '                 "threads":[{"pid","tid","name","samples","seconds"}]}\n' +
    '  --event NAME   perf script: the event type to read (default: the first one)\n',
};

/** `node --cpu-prof` names its files `CPU.<date>.<time>.<pid>.<tid>.<seq>.cpuprofile`. */
const CPU_PROF_NAME = /^CPU\.\d+\.\d+\.(\d+)\.(\d+)\.\d+\.cpuprofile(\.gz)?$/;

/** The samples of a profile: its sample table, or for aggregated sample counts their sum. */
function sampleCount(p: Profile): number | null {
  if (p.samples) return p.samples.length;
  return p.unit === 'samples' ? p.tree.total[0]! : null;
}

/** The profile's duration in seconds, from its first to its last timestamp. */
function seconds(p: Profile): number | null {
  const { startTime, endTime } = p.meta;
  return startTime !== undefined && endTime !== undefined && endTime >= startTime ? (endTime - startTime) / 1e6 : null;
}

/** Every thread with samples: the trace's list, or the file's one thread. */
function threadsOf(path: string, p: Profile): ThreadInfo[] {
  if (p.meta.threads) return p.meta.threads;
  const count = sampleCount(p);
  if (count === null || count === 0) return [];
  const ids = CPU_PROF_NAME.exec(basename(path));
  const named = p.meta.thread ? /^(.*) \((\S+)\/(\S+)\)$/.exec(p.meta.thread) : null;
  const thread: ThreadInfo = { pid: '', tid: '', name: '', samples: count, seconds: seconds(p) ?? 0 };
  if (named) Object.assign(thread, { name: named[1], pid: named[2], tid: named[3] });
  else if (ids) Object.assign(thread, { pid: ids[1], tid: ids[2], name: ids[2] === '0' ? 'main' : '' });
  return [thread];
}

const int = new Intl.NumberFormat('en-US');

async function run(args: string[], out: Output): Promise<number> {
  const parsed = parseCommandArgs('info', args, {
    json: { type: 'boolean' },
    event: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  const { values, positionals } = parsed;
  if (values.help) return (out.stdout.write(helpText(INFO_HELP)), 0);
  const [run] = expectRuns(positionals, 1, 'info', "exactly one FILE (or one process's per-thread .cpuprofile files)");
  const path = run!.label;
  const p = run!.files ? await readThreadFiles({ ...run!, files: run!.files }) : await load(path, values.event);
  const threads = threadsOf(path, p);
  // a process's files: the main thread is shown by default
  const shown = run!.files ? threadLabel(threads[0]!) : (p.meta.thread ?? null);
  const samples = p.meta.threads ? threads.reduce((n, t) => n + t.samples, 0) : sampleCount(p);
  const info = {
    file: path,
    format: p.format,
    producer: p.meta.producer,
    unit: p.unit,
    seconds: seconds(p),
    samples,
    shown,
    threads,
  };
  if (values.json) {
    writeJson(out.stdout, `${JSON.stringify(info, null, 2)}\n`);
    return 0;
  }
  const lines = [
    path,
    `  format    ${p.format} (${p.meta.producer})`,
    `  unit      ${p.unit}`,
    ...(info.seconds !== null ? [`  duration  ${info.seconds.toFixed(2)} s`] : []),
    ...(samples !== null ? [`  samples   ${int.format(samples)}`] : []),
    `  threads   ${threads.length} with samples${p.meta.threads && shown ? `; shown by default: ${shown}` : ''}`,
  ];
  if (threads.length > 0) {
    const rows = threads.map((t) => [t.pid, t.tid, t.name, int.format(t.samples), t.seconds.toFixed(2)]);
    const head = ['pid', 'tid', 'name', 'samples', 'seconds'];
    const width = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
    const line = (r: string[]) =>
      `    ${r.map((cell, c) => (c >= 3 ? cell.padStart(width[c]!) : cell.padEnd(width[c]!))).join('  ')}`.trimEnd();
    lines.push(line(head), ...rows.map(line));
  }
  writeText(out.stdout, `${lines.join('\n')}\n`);
  return 0;
}

export const infoCommand = defineCommand(INFO_HELP, run);
