/**
 * What `flamelens record` captures in a variant's profiled run, and how: the profilers' flags go
 * through `NODE_OPTIONS` (so that `npm start` or `node -r dd-trace/init server.js` works
 * unchanged), a small preloaded hook makes SIGINT and SIGTERM a normal exit (V8 writes `--cpu-prof`
 * and trace files only then) and, with `heap`, first writes a heap snapshot of the process that
 * serves (right after the load, since the server is stopped as soon as the load ends), and `perf`
 * wraps the command in `perf record` where perf is present and permitted.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const CAPTURES = ['cpu', 'trace', 'heap', 'perf'] as const;
export type Capture = (typeof CAPTURES)[number];

/** The environment variable that tells the hook where a heap snapshot goes. */
const HEAP_DIR = 'FLAMELENS_RECORD_HEAP_DIR';

/** Where each kind of capture of a profiled run goes. */
export type CaptureDirs = Record<Capture, string>;

/**
 * The folders of a variant's captures: the variant's folder itself, or with repeated profiled
 * runs one folder per kind (`cpu/`, `trace/`, `heap/`, `perf/`), so that each holds the repeats of
 * one kind, which `flamelens diff` reads as a variant of that many repeats.
 */
export function captureDirs(variantDir: string, perKind: boolean): CaptureDirs {
  const at = (k: Capture) => (perKind ? join(variantDir, k) : variantDir);
  return { cpu: at('cpu'), trace: at('trace'), heap: at('heap'), perf: at('perf') };
}

/** Environment of a profiled run. */
export function profilerEnv(dirs: CaptureDirs, capture: ReadonlySet<Capture>): Record<string, string> {
  return capture.has('heap') ? { [HEAP_DIR]: dirs.heap } : {};
}

/** The preloaded hook of a profiled run. */
export function exitHook(capture: ReadonlySet<Capture>): string {
  const heap = capture.has('heap')
    ? `  // a heap snapshot of the process that serves (npm or a shell in between do not listen), named as Node names them
  if (!done && process.env.${HEAP_DIR} && process.getActiveResourcesInfo().includes('TCPServerWrap')) {
    const t = new Date().toISOString().replace(/[-:]/g, '');
    const name = \`Heap.\${t.slice(0, 8)}.\${t.slice(9, 15)}.\${process.pid}.0.001.heapsnapshot\`;
    require('node:v8').writeHeapSnapshot(require('node:path').join(process.env.${HEAP_DIR}, name));
  }
`
    : '';
  return `// written by flamelens record: exit normally on SIGINT/SIGTERM so that V8 writes its profiles
let done = false;
const exit = () => {
${heap}  done = true;
  process.exit(0);
};
for (const s of ['SIGINT', 'SIGTERM']) process.once(s, exit);
`;
}

const quote = (s: string) => (/[\s"]/.test(s) ? JSON.stringify(s) : s);

/** `NODE_OPTIONS` for a profiled run; a trace file is named by its process when `perRun`, so that repeats do not overwrite it. */
export function profilerFlags(dirs: CaptureDirs, capture: ReadonlySet<Capture>, hook: string, perRun = false): string {
  const flags = [`--require=${quote(hook)}`];
  if (capture.has('cpu')) flags.push('--cpu-prof', `--cpu-prof-dir=${quote(dirs.cpu)}`);
  if (capture.has('trace'))
    flags.push(
      '--trace-event-categories=v8,node,node.async_hooks',
      `--trace-event-file-pattern=${quote(join(dirs.trace, perRun ? 'node_trace.${pid}.${rotation}.log' : 'node_trace.${rotation}.log'))}`,
    );
  // perf names JIT-compiled JavaScript from the map files V8 writes with this flag
  if (capture.has('perf')) flags.push('--perf-basic-prof');
  return flags.join(' ');
}

/** A command quoted as one argument of `sh -c`. */
const shellWord = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

const PERF_DATA = 'perf.data';
const PERF_SCRIPT = 'perf.script.txt';

/**
 * Why perf cannot record here (not installed, or not permitted), or undefined when it can: a
 * recording of `true` into `dir`, removed after.
 */
export function perfUnavailable(dir: string): string | undefined {
  const probe = join(dir, '.perf-probe.data');
  const r = spawnSync('perf', ['record', '-q', '-e', 'cpu-clock', '-o', probe, '--', 'true'], { encoding: 'utf8', timeout: 20_000 });
  rmSync(probe, { force: true });
  if (r.error)
    return (r.error as NodeJS.ErrnoException).code === 'ENOENT' ? 'perf is not installed' : `perf did not run: ${r.error.message}`;
  if (r.status !== 0) return `perf may not record here: ${r.stderr.trim().split('\n')[0] ?? `exit code ${r.status}`}`;
  return undefined;
}

/** The variant's command under `perf record` (cpu-clock at 999 Hz with call graphs) writing into `dir`. */
export function underPerf(command: string, dir: string): string {
  return `exec perf record -q -F 999 -g -e cpu-clock -o ${shellWord(join(dir, PERF_DATA))} -- sh -c ${shellWord(command)}`;
}

/**
 * After the run: `perf script` of its recording into `perf.script.txt` (the recording removed),
 * and the JIT map files V8 wrote to /tmp for the processes sampled removed. Returns a note when
 * there was nothing to write.
 */
export function writePerfScript(dir: string, startedMs: number, name = PERF_SCRIPT): string | undefined {
  const data = join(dir, PERF_DATA);
  if (!existsSync(data)) return 'perf wrote no recording';
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  let r;
  try {
    r = spawnSync('perf', ['script', '-i', data], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', timeout: 300_000 });
  } finally {
    closeSync(fd);
  }
  rmSync(data, { force: true });
  removeJitMaps(path, startedMs);
  if (r.status !== 0) return `perf script failed: ${(r.stderr ?? '').trim().split('\n')[0] ?? `exit code ${r.status}`}`;
  return undefined;
}

/**
 * What V8 wrote outside DIR for perf, for the processes in the script, since the run started:
 * /tmp/perf-PID.map (the JIT map files) and, in the directory the command ran in, the
 * `isolate-0x…-PID-v8.log` that `--perf-basic-prof` makes V8 open there (nothing is left outside DIR).
 */
function removeJitMaps(script: string, startedMs: number, cwd = process.cwd()): void {
  const pids = new Set<string>();
  // A sample header: "comm PID[/TID] [cpu] time: …"; the first 4 MiB of a large file name the processes
  const fd = openSync(script, 'r');
  const buf = Buffer.alloc(4 * 1024 * 1024);
  const head = buf.toString('utf8', 0, readSync(fd, buf, 0, buf.length, 0));
  closeSync(fd);
  for (const m of head.matchAll(/^\S.*?\s(\d+)(?:\/\d+)?\s/gm)) pids.add(m[1]!);
  const remove = (dir: string, pattern: RegExp) => {
    for (const name of readdirSync(dir)) {
      const m = pattern.exec(name);
      if (!m || !pids.has(m[1]!)) continue;
      const file = join(dir, name);
      if (statSync(file).mtimeMs >= startedMs - 1000) rmSync(file, { force: true });
    }
  };
  remove('/tmp', /^perf-(\d+)\.map$/);
  remove(cwd, /^isolate-0x[0-9a-f]+-(\d+)(?:-\d+)?-v8\.log$/);
}
