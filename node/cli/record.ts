/**
 * `flamelens record`: the overhead experiment in one command. Each variant (a command that starts
 * the server, the baseline first or named so) is started, loaded with autocannon and stopped,
 * `--repeat` times, interleaved (baseline, a, b, baseline, a, b…) so that drift hits all alike;
 * then once more each with profilers on, in runs apart from the timed ones because profilers
 * change the timings. DIR gets each variant's profiles and `summary.json`: every run's figures,
 * the medians, and the overhead against the baseline with a 95% bootstrap interval.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { VARIANT_NAME } from '../../shared/ipc/contract';
import { meanProfile } from '../../shared/model/mean';
import { weighByDefault } from '../../shared/model/weigh';
import type { Measured } from '../../shared/runs/measured';
import { DEFAULT_VIEW, type Workspace, type WorkspaceRun } from '../../shared/workspace/workspace';
import { encodeWorkspace } from '../../shared/workspace/workspace-file';
import { CliError } from './errors';
import { importAt } from './load';
import { fileSource } from './node-source';
import { type Output, writeJson, writeText } from './output';
import { LIMITS, type Load, RecordError, type RunFigures, freePort, runOnce, running } from './record-run';
import { type CommandHelp, defineCommand } from './command';
import {
  CAPTURES,
  type Capture,
  captureDirs,
  exitHook,
  perfUnavailable,
  profilerEnv,
  profilerFlags,
  underPerf,
  writePerfScript,
} from './record-capture';

export const RECORD_HELP: CommandHelp = {
  name: 'record',
  synopsis:
    'flamelens record --out DIR --variant NAME=COMMAND --variant NAME=COMMAND… [--requests N | --duration S] [--connections C] [--repeat R] [--profile-repeat K] [--url-path /] [--port P] [--capture cpu,trace,heap,perf] [--json]',
  summary: 'run the overhead experiment: each variant started, loaded, stopped, timed and profiled',
  details:
    'COMMAND starts the server on the port in $PORT (e.g. "node server.js", "node -r dd-trace/init\n' +
    'server.js", "npm start"); the first variant, or the one named baseline, is the baseline. Each\n' +
    'repetition runs every variant once, in turn; then each runs once more with the profilers on\n' +
    '(flags in NODE_OPTIONS). Load goes to 127.0.0.1 only. A variant that fails is reported and the\n' +
    'others are recorded.\n\n' +
    '  --out DIR            where profiles and summary.json go (created; nothing is written elsewhere)\n' +
    '  --requests N         requests per run (default 10000), or --duration S seconds per run\n' +
    '  --connections C      concurrent connections (default 10)\n' +
    '  --repeat R           timed runs per variant (default 3)\n' +
    '  --profile-repeat K   profiled runs per variant, interleaved (default 1); with more than\n' +
    '                       one, each kind goes into DIR/VARIANT/cpu, trace, heap or perf, a folder\n' +
    '                       of repeats that flamelens diff compares with intervals\n' +
    '  --url-path PATH      what to request (default /)\n' +
    '  --port P             the port to give $PORT (default: a free one each run)\n' +
    '  --capture LIST       profiled run: cpu (.cpuprofile), trace (trace events), heap (a\n' +
    '                       heap snapshot right after the load), perf (perf script, where perf\n' +
    '                       may record; JIT map files in /tmp are removed after); default\n' +
    '                       cpu,trace; none for timing only\n' +
    '  --json               print summary.json\n',
};

interface Variant {
  name: string;
  command: string;
}

interface VariantSummary {
  name: string;
  command: string;
  runs: RunFigures[];
  median?: { seconds: number; rps: number };
  overhead?: { median: number; low: number; high: number };
  /** why a run of it failed */
  error?: string;
  files: string[];
}

function variantsOf(specs: string[]): Variant[] {
  const variants = specs.map((s) => {
    const eq = s.indexOf('=');
    if (eq <= 0) throw new CliError(`--variant "${s}": write NAME=COMMAND, e.g. --variant baseline="node server.js"`);
    const name = s.slice(0, eq);
    if (!VARIANT_NAME.test(name))
      throw new CliError(`--variant "${name}": a name is letters, digits, ".", "_" and "-" (it names a folder)`);
    return { name, command: s.slice(eq + 1) };
  });
  if (variants.length < 2) throw new CliError('record compares at least two variants: give --variant twice or more');
  const names = new Set(variants.map((v) => v.name));
  if (names.size !== variants.length) throw new CliError('two variants have the same name');
  const base = variants.findIndex((v) => v.name === 'baseline');
  if (base > 0) variants.unshift(...variants.splice(base, 1));
  return variants;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Seconds per request of a run: what the overhead compares, whether runs are counted in requests or in seconds. */
const costOf = (r: RunFigures) => r.seconds / Math.max(1, r.requests);

/**
 * The overhead of `runs` against `base` (ratio of median cost per request, minus one) with a 95%
 * interval from 4,000 bootstrap resamples of the runs of each side (seeded: the same runs give the
 * same interval).
 */
export function overhead(base: RunFigures[], runs: RunFigures[]): { median: number; low: number; high: number } {
  const b = base.map(costOf);
  const r = runs.map(costOf);
  let seed = 0x9e3779b9;
  const next = () => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return seed / 4294967296;
  };
  const resample = (xs: number[]) => xs.map(() => xs[Math.floor(next() * xs.length)]!);
  const ratios: number[] = [];
  for (let i = 0; i < 4000; i++) ratios.push(median(resample(r)) / median(resample(b)) - 1);
  ratios.sort((x, y) => x - y);
  return {
    median: median(r) / median(b) - 1,
    low: ratios[Math.floor(0.025 * ratios.length)]!,
    high: ratios[Math.ceil(0.975 * ratios.length) - 1]!,
  };
}

function parse(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      out: { type: 'string' },
      variant: { type: 'string', multiple: true },
      requests: { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string' },
      repeat: { type: 'string' },
      'profile-repeat': { type: 'string' },
      'url-path': { type: 'string' },
      port: { type: 'string' },
      capture: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const int = (name: string, v: string | undefined, dflt: number, min = 1) => {
    if (v === undefined) return dflt;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new CliError(`--${name} must be a whole number of at least ${min}, not "${v}"`);
    return n;
  };
  if (values.help) return { help: true as const };
  if (!values.out) throw new CliError('record needs --out DIR (see flamelens record --help)');
  if (values.requests && values.duration) throw new CliError('give --requests or --duration, not both');
  const path = values['url-path'] ?? '/';
  if (!path.startsWith('/')) throw new CliError(`--url-path must start with "/", not "${path}"`);
  const capture = new Set<Capture>();
  for (const c of (values.capture ?? 'cpu,trace').split(',').filter((x) => x && x !== 'none')) {
    if (!(CAPTURES as readonly string[]).includes(c)) throw new CliError(`--capture: unknown "${c}" (${CAPTURES.join(', ')}, none)`);
    capture.add(c as Capture);
  }
  const load: Load = {
    connections: int('connections', values.connections, 10),
    urlPath: path,
    ...(values.duration ? { duration: int('duration', values.duration, 10) } : { requests: int('requests', values.requests, 10_000) }),
  };
  return {
    help: false as const,
    out: resolve(values.out),
    variants: variantsOf(values.variant ?? []),
    load,
    repeat: int('repeat', values.repeat, 3),
    profileRepeat: int('profile-repeat', values['profile-repeat'], 1),
    port: values.port === undefined ? undefined : int('port', values.port, 1),
    capture,
    json: !!values.json,
  };
}

type Options = Exclude<ReturnType<typeof parse>, { help: true }>;

/**
 * Runs `flamelens record` with these arguments, writing as the command does; `signal` cancels it
 * (every server started is killed and no further run starts).
 */
export async function record(args: string[], out: Output, signal?: AbortSignal): Promise<number> {
  const o = parse(args);
  if (o.help) return (void out.stdout.write(`Usage: ${RECORD_HELP.synopsis}\n\n${RECORD_HELP.details}`), 0);
  if (existsSync(o.out) && readdirSync(o.out).length > 0)
    throw new CliError(`${o.out} is not empty: record writes into a new or empty folder`);
  mkdirSync(o.out, { recursive: true });
  const notes: string[] = [];
  const noPerf = o.capture.has('perf') ? perfUnavailable(o.out) : undefined;
  if (noPerf) {
    o.capture.delete('perf');
    notes.push(`perf: not captured (${noPerf})`);
    writeText(out.stderr, `flamelens: ${notes[0]}\n`);
  }
  const hook = join(o.out, '.flamelens-exit-on-signal.cjs');
  writeFileSync(hook, exitHook(o.capture));
  const say = (s: string) => writeText(out.stderr, `${s}\n`);
  const summaries: VariantSummary[] = o.variants.map((v) => ({ name: v.name, command: v.command, runs: [], files: [] }));
  const stopAll = () => {
    for (const s of running) s.signal('SIGKILL');
    process.exit(130);
  };
  process.once('SIGINT', stopAll);
  const cancel = () => {
    for (const s of running) s.signal('SIGKILL');
  };
  signal?.addEventListener('abort', cancel);
  const go = () => {
    if (signal?.aborted) throw new CliError('the recording was cancelled');
  };
  try {
    for (let rep = 1; rep <= o.repeat; rep++)
      for (const [i, v] of o.variants.entries()) {
        const s = summaries[i]!;
        go();
        if (s.error) continue;
        say(`run ${rep}/${o.repeat}: ${v.name}`);
        try {
          s.runs.push(await runOnce({ variant: v.name, command: v.command, port: o.port ?? (await freePort()), load: o.load }));
        } catch (e) {
          if (!(e instanceof RecordError)) throw e;
          s.error = e.message;
          say(`flamelens: ${e.message}`);
        }
      }
    if (o.capture.size > 0)
      for (let k = 1; k <= o.profileRepeat; k++)
        for (const [i, v] of o.variants.entries()) {
          go();
          if (!summaries[i]!.error) await profiledRun(o, v, summaries[i]!, hook, say, k);
        }
    go();
  } finally {
    process.removeListener('SIGINT', stopAll);
    signal?.removeEventListener('abort', cancel);
  }
  const summary = { ...summarize(summaries), ...(notes.length ? { notes } : {}) };
  writeFileSync(join(o.out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  if (o.capture.has('cpu')) await writeComparison(o.out, summary, table(summary));
  if (o.json) writeJson(out.stdout, `${JSON.stringify(summary, null, 2)}\n`);
  else writeText(out.stdout, table(summary));
  return summaries.some((s) => s.error) ? 1 : 0;
}

export const recordCommand = defineCommand(RECORD_HELP, (args, out) => record(args, out));

/**
 * The variant's `k`th run with the profilers on, apart from the timed ones; its files listed in
 * `s.files`. With repeated profiled runs each kind goes into a folder of its own (captureDirs).
 */
async function profiledRun(o: Options, v: Variant, s: VariantSummary, hook: string, say: (s: string) => void, k: number): Promise<void> {
  const repeated = o.profileRepeat > 1;
  const dir = join(o.out, v.name);
  const dirs = captureDirs(dir, repeated);
  for (const c of o.capture) mkdirSync(dirs[c], { recursive: true });
  say(repeated ? `profiled run ${k}/${o.profileRepeat}: ${v.name}` : `profiled run: ${v.name}`);
  const started = Date.now();
  const perf = o.capture.has('perf');
  try {
    await runOnce({
      variant: v.name,
      command: perf ? underPerf(v.command, dirs.perf) : v.command,
      port: o.port ?? (await freePort()),
      load: o.load,
      nodeOptions: profilerFlags(dirs, o.capture, hook, repeated),
      env: profilerEnv(dirs, o.capture),
    });
  } catch (e) {
    if (!(e instanceof RecordError)) throw e;
    s.error = `profiled run${repeated ? ` ${k}` : ''}: ${e.message}`;
    say(`flamelens: ${e.message}`);
  }
  const perfNote = perf ? writePerfScript(dirs.perf, started, repeated ? `perf.${k}.script.txt` : undefined) : undefined;
  if (perfNote) say(`flamelens: ${v.name}: ${perfNote}`);
  s.files = filesUnder(o.out, dir);
}

/** Every file under `dir`, as paths relative to `root`, sorted. */
function filesUnder(root: string, dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort();
}

/**
 * `DIR/comparison.flamelens`: a workspace of every variant's CPU profile (with `--profile-repeat`,
 * the mean of its repeats, and each repeat; the baseline first and marked), its caption the measured figures, so that `flamelens open DIR/comparison.flamelens`
 * opens the whole experiment.
 */
async function writeComparison(out: string, summary: ReturnType<typeof summarize>, figures: string): Promise<void> {
  const runs: WorkspaceRun[] = [];
  for (const v of summary.variants) {
    const files = v.files.filter((f) => f.endsWith('.cpuprofile'));
    if (files.length === 0) continue;
    const profiles = [];
    for (const file of files) profiles.push(weighByDefault(await importAt(join(out, file), fileSource(join(out, file)))));
    // Repeated profiled runs: the pane shows their mean, and keeps each so that the diff has intervals.
    const repeated = files.length > 1;
    const path = join(out, repeated ? dirname(files[0]!) : files[0]!);
    const profile = repeated ? meanProfile(v.name, profiles) : profiles[0]!;
    const repeats = repeated ? { repeats: { profiles, names: files.map((f) => basename(f)), failed: [] } } : {};
    runs.push({ id: v.name, title: v.name, fileName: basename(path), path, profile, ...repeats, ...measuredOf(v) });
  }
  if (runs.length === 0) return;
  const ws: Workspace = {
    savedAt: '',
    runs,
    baselineIndex: runs.findIndex((r) => r.id === summary.baseline),
    view: DEFAULT_VIEW,
    annotations: {
      title: `Recorded: ${summary.variants.map((v) => v.name).join(' vs ')}`,
      caption: figures.trim().replace(/\n\s*/g, '; '),
      items: [],
    },
    ranges: [],
  };
  writeFileSync(join(out, 'comparison.flamelens'), await encodeWorkspace(ws));
}

/** The figures the app shows beside the variant's pane (shared/runs/measured). */
function measuredOf(v: VariantSummary): { measured?: Measured } {
  if (!v.median || v.runs.length === 0) return {};
  const m: Measured = { runs: v.runs.length, requests: median(v.runs.map((r) => r.requests)), seconds: v.median.seconds };
  if (v.overhead) m.overhead = v.overhead;
  return { measured: m };
}

function summarize(summaries: VariantSummary[]) {
  const base = summaries[0]!;
  const variants = summaries.map((s) => {
    const out: VariantSummary = { ...s };
    if (s.runs.length > 0) out.median = { seconds: median(s.runs.map((r) => r.seconds)), rps: median(s.runs.map((r) => r.rps)) };
    if (s !== base && s.runs.length > 0 && base.runs.length > 0) out.overhead = overhead(base.runs, s.runs);
    return out;
  });
  return { baseline: base.name, limits: LIMITS, variants };
}

function table(summary: ReturnType<typeof summarize>): string {
  const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
  const lines = summary.variants.map((v) => {
    const figures = v.median
      ? `${v.runs.length} runs, median ${v.median.seconds.toFixed(2)} s, ${Math.round(v.median.rps)} req/s`
      : 'no run';
    const o = v.overhead
      ? `, overhead ${pct(v.overhead.median)} (95%: ${pct(v.overhead.low)} to ${pct(v.overhead.high)})`
      : v.name === summary.baseline
        ? ' (baseline)'
        : '';
    return `${v.name}: ${figures}${o}${v.error ? `\n  failed: ${v.error}` : ''}`;
  });
  return `${lines.join('\n')}\n`;
}
