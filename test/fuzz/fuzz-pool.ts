/**
 * Runs fuzz cases in a worker thread with a hard time limit. Node-only; used by the fuzz tests.
 *
 * Why a worker: a timer in the importer's own thread cannot stop a synchronous runaway loop, and
 * an out-of-memory error would take the test runner down with it. Here one long-lived worker runs
 * the cases one after another (the per-case cost is one message each way, well under a
 * millisecond); when a case passes the time limit the worker is terminated — which does stop a
 * synchronous loop — and a fresh one takes over. The worker's heap is capped so that a case that
 * allocates without bound dies alone, and its stack is 1 MiB, about what V8 gives a browser worker
 * or Node's main thread, so that a recursion too deep for the app is too deep here as well.
 *
 * The worker runs a bundle of `fuzz-worker.ts` and the shared code it imports, built with Vite
 * and kept on disk until the sources change (see `workerUrl`).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FuzzInput, Outcome } from './fuzz-harness';
import { ROOT } from '../support/files';

/** Every TypeScript source under shared/ (tests aside) and the pprof decoder's version: what the bundle is made of. */
function sourceHash(): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) h.update(path).update(readFileSync(path));
    }
  };
  walk(join(ROOT, 'shared'));
  h.update(readFileSync(join(ROOT, 'node_modules/pprof-format/package.json')));
  return h.digest('hex').slice(0, 16);
}

let bundle: Promise<URL> | undefined;

/**
 * The worker's code, built once per change of the sources: each test file runs in its own
 * context, and importing Vite and bundling costs a few seconds, so the bundle is kept in
 * `$TMPDIR/flamelens-fuzz/` under a hash of what it is made of.
 */
function workerUrl(): Promise<URL> {
  bundle ??= (async () => {
    const dir = join(tmpdir(), 'flamelens-fuzz');
    const path = join(dir, `worker-${sourceHash()}.mjs`);
    if (existsSync(path)) return pathToFileURL(path);
    const { build } = await import('vite');
    const out = await build({
      configFile: false,
      root: ROOT,
      logLevel: 'silent',
      build: { write: false, ssr: 'test/fuzz/fuzz-worker.ts', minify: false, sourcemap: 'inline', emptyOutDir: false },
      ssr: { noExternal: true },
    });
    for (const o of Array.isArray(out) ? out : [out]) {
      if (!('output' in o)) continue;
      const chunk = o.output.find((c) => c.type === 'chunk' && c.isEntry);
      if (chunk && chunk.type === 'chunk') {
        mkdirSync(dir, { recursive: true });
        // written whole under a temporary name, then renamed: concurrent test files may race
        const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
        writeFileSync(tmp, chunk.code);
        renameSync(tmp, path);
        return pathToFileURL(path);
      }
    }
    throw new Error('fuzz worker bundle: no entry chunk');
  })();
  return bundle;
}

export interface PoolOptions {
  /** hard limit per case, in milliseconds */
  timeoutMs: number;
  /** the worker's old-generation heap limit */
  memoryMb?: number;
  /** the worker's stack size */
  stackMb?: number;
}

interface Pending {
  id: number;
  started: number;
  resolve(o: Outcome): void;
  timer: NodeJS.Timeout;
}

export class FuzzPool {
  private worker: Worker | undefined;
  private starting: Promise<Worker> | undefined;
  private pending: Pending | undefined;
  private nextId = 1;
  /** workers replaced after a timeout or a crash */
  restarts = 0;

  constructor(private readonly opts: PoolOptions) {}

  private start(): Promise<Worker> {
    this.starting ??= (async () => {
      const w = new Worker(await workerUrl(), {
        resourceLimits: { maxOldGenerationSizeMb: this.opts.memoryMb ?? 1024, stackSizeMb: this.opts.stackMb ?? 1 },
        stdout: false,
        stderr: false,
      });
      await new Promise<void>((resolve, reject) => {
        const onMessage = (m: { ready?: boolean }) => {
          if (!m.ready) return;
          w.off('error', reject);
          resolve();
        };
        w.once('message', onMessage);
        w.once('error', reject);
      });
      w.on('message', (m: { id: number; outcome: Outcome }) => {
        const p = this.pending;
        if (!p || p.id !== m.id) return;
        clearTimeout(p.timer);
        this.pending = undefined;
        p.resolve(m.outcome);
      });
      const died = (message: string) => {
        if (this.worker !== w) return;
        this.worker = undefined;
        this.starting = undefined;
        this.restarts++;
        const p = this.pending;
        if (!p) return;
        clearTimeout(p.timer);
        this.pending = undefined;
        p.resolve({ kind: 'crashed', ms: Date.now() - p.started, message });
      };
      w.on('error', (e) => died(`${e.name}: ${e.message}${'code' in e ? ` (${String(e.code)})` : ''}`));
      w.on('exit', (code) => died(`exited with code ${code}`));
      this.worker = w;
      return w;
    })();
    return this.starting;
  }

  /** Runs one case; never rejects. */
  async run(input: FuzzInput): Promise<Outcome> {
    if (this.pending) throw new Error('FuzzPool runs one case at a time');
    const w = this.worker ?? (await this.start());
    return new Promise<Outcome>((resolve) => {
      const id = this.nextId++;
      const started = Date.now();
      const timer = setTimeout(() => {
        if (this.pending?.id !== id) return;
        this.pending = undefined;
        this.worker = undefined;
        this.starting = undefined;
        this.restarts++;
        void w.terminate();
        resolve({ kind: 'timeout', ms: Date.now() - started });
      }, this.opts.timeoutMs);
      this.pending = { id, started, resolve, timer };
      w.postMessage({ id, input });
    });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    this.starting = undefined;
    if (w) await w.terminate();
  }
}
