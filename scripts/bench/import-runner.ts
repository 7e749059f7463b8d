/**
 * The benchmark's measuring process, one per case, so that every peak-memory figure belongs to
 * one import alone. `scripts/bench.mjs` bundles this file with Vite for plain Node (the same
 * compilation the `flamelens` command gets) and runs it with `node --expose-gc`:
 *
 *   import-runner.mjs import FILE   imports FILE the way `flamelens collapse FILE` reads it
 *   import-runner.mjs diff NODES    diffs two synthetic call trees of NODES nodes each
 *
 * It prints one JSON line: times in ms, memory in bytes.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { fileSource } from '../../node/cli/node-source';
import { diffProfiles } from '../../shared/diff/diff';
import { importProfile } from '../../shared/import/import-profile';
import { bytesSource } from '../../shared/import/io/source';
import { CallTreeBuilder, FrameTableBuilder, finishProfile } from '../../shared/model/builders';
import type { Profile } from '../../shared/model/types';
import { rng } from './synthetic.mjs';

declare const gc: (() => void) | undefined;

/** Peak resident set size so far: the kernel's high-water mark, which `maxRSS` also reports. */
function peakRss(): number {
  try {
    const m = /VmHWM:\s*(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux: fall through
  }
  return process.resourceUsage().maxRSS * 1024;
}

/**
 * The file's first 64 KiB, imported once before the clock starts (a cut-off file may fail: that
 * is fine), so that Node loading its own stream and text modules (~0.2 s) is not counted as
 * import time. The limit runner warms up the same way.
 */
async function warmUp(file: string): Promise<void> {
  const fd = openSync(file, 'r');
  const head = new Uint8Array(64 * 1024);
  const n = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  try {
    await importProfile(bytesSource(basename(file), head.subarray(0, n)));
  } catch {
    // a cut-off JSON file does not import; the modules are loaded all the same
  }
}

/**
 * A moment for the engine to finish, on its own, what the warm-up left it to do (marking its
 * garbage): a real run has no warm-up, and without the pause a full collection started by it
 * ended in the timed import in most runs (none in the `flamelens` command's own runs).
 */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * One import, timed as a user's `flamelens` run would be. No collection is forced before the
 * clock starts: a forced one leaves V8's old-space limit just above what is live, and the import
 * would then pay a full collection (5 to 14 ms at 100 MB) that no real run pays, and that the
 * limit runner's line split does not pay either.
 */
async function importCase(file: string) {
  await warmUp(file);
  await settle();
  const rssBefore = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const p = await importProfile(fileSource(file));
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    rssBefore,
    peakRss: peakRss(),
    format: p.format,
    nodes: p.tree.length,
    frames: p.frames.length,
    samples: p.samples?.length ?? 0,
    warnings: p.meta.warnings.length,
  };
}

const FILES = [
  '/srv/app/server.js',
  '/srv/app/node_modules/fastify/lib/route.js',
  'node:internal/timers',
  '/srv/app/node_modules/pino/lib/tools.js',
];
const AGENT = '/srv/app/node_modules/dd-trace/packages/dd-trace/src/plugins/plugin.js';

/** Function `i` of the synthetic program: 20,000 of them over a few files. */
function functionFrame(frames: FrameTableBuilder, i: number): number {
  return frames.intern({ name: `fn${i}`, file: FILES[i % FILES.length]!, line: 1 + (i % 500), column: 3 });
}

/**
 * The baseline's shape, exactly `nodes` nodes (node 0 the root): each new node hangs under a
 * recent node or, less often, anywhere, so there are both deep chains (up to 100) and wide
 * fan-out. Returns the parent (index) and function number of every node.
 */
function baselineShape(nodes: number): { parent: Int32Array; fn: Int32Array } {
  const rand = rng(7);
  const parent = new Int32Array(nodes).fill(-1);
  const fn = new Int32Array(nodes).fill(-1);
  const depth = new Int32Array(nodes);
  const seen = new Set<number>();
  for (let n = 1; n < nodes;) {
    let p = rand() < 0.8 ? n - 1 - Math.floor(rand() * Math.min(n, 30)) : Math.floor(rand() * n);
    if (depth[p]! >= 100) p = Math.floor(rand() * Math.min(n, 1000));
    const f = Math.floor(Math.pow(rand(), 1.5) * 20000);
    const k = p * 20000 + f;
    if (seen.has(k)) continue;
    seen.add(k);
    parent[n] = p;
    fn[n] = f;
    depth[n] = depth[p]! + 1;
    n++;
  }
  return { parent, fn };
}

/**
 * A profile of exactly `nodes` call-tree nodes. The run is the baseline without every 50th
 * node's subtree, filled up to the same size with agent frames (half) and paths of its own.
 */
function syntheticProfile(nodes: number, variant: 'baseline' | 'run'): Profile {
  const { parent, fn } = baselineShape(nodes);
  const rand = rng(99);
  const frames = new FrameTableBuilder();
  const tree = new CallTreeBuilder();
  const node = new Int32Array(nodes).fill(-1);
  node[0] = tree.root;
  const weight = () => 1 + Math.floor(Math.pow(rand(), 4) * 50);
  for (let i = 1; i < nodes; i++) {
    if (variant === 'run' && (i % 50 === 0 || node[parent[i]!]! < 0)) continue;
    node[i] = tree.child(node[parent[i]!]!, functionFrame(frames, fn[i]!));
    tree.addSelf(node[i]!, weight());
  }
  while (tree.nodeCount < nodes) {
    const at = Math.floor(rand() * tree.nodeCount);
    const f = Math.floor(rand() * 20000);
    const frame = rand() < 0.5 ? frames.intern({ name: `agent${f % 300}`, file: AGENT, line: 10 }) : functionFrame(frames, f);
    tree.addSelf(tree.child(at, frame), weight());
  }
  return finishProfile({
    name: variant,
    format: 'folded',
    kind: 'aggregated',
    unit: 'samples',
    frames,
    tree,
    meta: { producer: 'synthetic', warnings: [] },
  });
}

function diffCase(nodes: number) {
  const base = syntheticProfile(nodes, 'baseline');
  const run = syntheticProfile(nodes, 'run');
  const times: number[] = [];
  let mergedNodes = 0;
  for (let i = 0; i < 3; i++) {
    if (typeof gc === 'function') gc();
    const t0 = performance.now();
    const d = diffProfiles(base, run);
    times.push(performance.now() - t0);
    mergedNodes = d.tree.length;
  }
  return { times, baselineNodes: base.tree.length, runNodes: run.tree.length, mergedNodes, peakRss: peakRss() };
}

const [mode, arg] = process.argv.slice(2);
const result = mode === 'import' ? await importCase(arg!) : mode === 'diff' ? diffCase(Number(arg)) : undefined;
if (!result) {
  process.stderr.write('usage: import-runner (import FILE | diff NODES)\n');
  process.exitCode = 2;
} else process.stdout.write(`${JSON.stringify(result)}\n`);
