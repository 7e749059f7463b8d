/**
 * One run of one variant for `flamelens record`: start the server command with `PORT` set (and
 * profiler flags in `NODE_OPTIONS`), wait until the port takes connections, put the load on it
 * with autocannon, stop it (SIGINT, then SIGTERM, then SIGKILL, to its own process group), and
 * say what happened. Every failure is an error naming the variant and quoting the server's output.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
// Loaded by `record` alone, when it first puts a load on a server: its modules cost every other
// command ~35 MB of memory and a third of the command's start-up.
import type autocannon from 'autocannon';

export interface Load {
  connections: number;
  /** requests to send, or seconds to load for */
  requests?: number;
  duration?: number;
  urlPath: string;
}

export interface RunFigures {
  seconds: number;
  requests: number;
  errors: number;
  rps: number;
  latency: { p50: number; p99: number };
}

export class RecordError extends Error {}

/** autocannon's own summing up of raw results (exported, not in its type definitions) */
interface Aggregating {
  aggregateResult(results: unknown[], options: autocannon.Options): autocannon.Result;
}

/** How long a server may take to listen, and each stop signal to take effect. */
export const LIMITS = { listenMs: 20_000, stopMs: 5_000 };

/** A free port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect({ port, host: '127.0.0.1' });
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

/** The last lines of what the server printed, for an error message. */
class OutputTail {
  private text = '';
  take(chunk: Buffer): void {
    this.text = (this.text + chunk.toString('utf8')).slice(-2000);
  }
  toString(): string {
    const lines = this.text.trim().split('\n').slice(-6).join(' | ');
    return lines ? `; it printed: ${lines}` : '; it printed nothing';
  }
}

/** A started server: its process, its output, and how it ended (once it did). */
class Server {
  readonly output = new OutputTail();
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exited: Promise<void>;

  constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (b: Buffer) => this.output.take(b));
    child.stderr?.on('data', (b: Buffer) => this.output.take(b));
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve();
      });
      child.once('error', (e) => {
        this.output.take(Buffer.from(e.message));
        this.exit ??= { code: null, signal: null };
        resolve();
      });
    });
  }

  ended(ms: number): Promise<boolean> {
    return Promise.race([this.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
  }

  /** Signals the server's whole process group (a shell, npm and node alike). */
  signal(sig: NodeJS.Signals): void {
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, sig);
    } catch {
      // already gone
    }
  }

  /** SIGINT, then SIGTERM, then SIGKILL, each after the one before had `LIMITS.stopMs` to work. */
  async stop(): Promise<void> {
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGKILL'] as const) {
      if (this.exit) return;
      this.signal(sig);
      if (await this.ended(LIMITS.stopMs)) return;
    }
  }

  describeExit(): string {
    const e = this.exit!;
    return e.signal ? `was killed by ${e.signal}` : e.code === null ? 'could not be started' : `exited with code ${e.code}`;
  }
}

/** Servers still running, stopped if the recording is interrupted. */
export const running = new Set<Server>();

export interface RunOptions {
  variant: string;
  command: string;
  port: number;
  load: Load;
  /** extra `NODE_OPTIONS` (the profilers' flags) */
  nodeOptions?: string;
  /** more environment for the server */
  env?: Record<string, string>;
  cwd?: string;
}

/** Starts the variant's server, loads it, stops it; the load's figures, or a RecordError. */
export async function runOnce(o: RunOptions): Promise<RunFigures> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...o.env, PORT: String(o.port) };
  if (o.nodeOptions) env.NODE_OPTIONS = [process.env.NODE_OPTIONS, o.nodeOptions].filter(Boolean).join(' ');
  const server = new Server(spawn(o.command, { shell: true, detached: true, env, cwd: o.cwd, stdio: ['ignore', 'pipe', 'pipe'] }));
  running.add(server);
  try {
    await listening(o, server);
    const options: autocannon.Options = {
      url: `http://127.0.0.1:${o.port}${o.load.urlPath}`,
      connections: o.load.connections,
      ...(o.load.requests ? { amount: o.load.requests } : { duration: o.load.duration ?? 10 }),
    };
    // The run's time is until its last response, measured here: autocannon's `duration` counts
    // whole seconds of its sampling ticks, and its promise settles at the next tick.
    const t0 = performance.now();
    let last = t0;
    const { default: autocannon } = await import('autocannon');
    const loading = autocannon(options) as unknown as Promise<autocannon.Result> & NodeJS.EventEmitter;
    loading.on('response', () => (last = performance.now()));
    const raw = await loading;
    const seconds = Math.max(1e-3, (last - t0) / 1000);
    // Run from a worker thread (as test runners do), autocannon leaves its result to be summed up
    const result = raw.latency ? raw : (autocannon as unknown as Aggregating).aggregateResult([raw], options);
    if (server.exit) throw new RecordError(`${o.variant}: the server ${server.describeExit()} under load${server.output}`);
    return {
      seconds,
      requests: result.requests.total,
      errors: result.errors + result.timeouts + result.non2xx,
      rps: result.requests.total / seconds,
      latency: { p50: result.latency.p50, p99: result.latency.p99 },
    };
  } finally {
    await server.stop();
    running.delete(server);
  }
}

async function listening(o: RunOptions, server: Server): Promise<void> {
  const until = Date.now() + LIMITS.listenMs;
  for (;;) {
    if (server.exit)
      throw new RecordError(`${o.variant}: the server ${server.describeExit()} before it listened on port ${o.port}${server.output}`);
    if (await accepts(o.port)) return;
    if (Date.now() > until)
      throw new RecordError(`${o.variant}: the server did not listen on port ${o.port} within ${LIMITS.listenMs / 1000} s${server.output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
