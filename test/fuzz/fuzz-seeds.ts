/**
 * Seed files for mutation fuzzing, per format: small real files from `fixtures/` as they are, and
 * real large files cut down to a few dozen KiB with their structure intact (the first ticks, events
 * or samples and what they reference), so that each fuzz case stays fast. Node-only.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Seed } from './mutations';
import { CORPUS, SAMPLES, fixturePath } from '../support/files';

const SPEEDSCOPE = join(CORPUS, 'speedscope/sample/profiles');

function read(path: string): Uint8Array {
  const b = readFileSync(path);
  return new Uint8Array(path.endsWith('.gz') ? gunzipSync(b) : b);
}

function seed(path: string, name = basename(path).replace(/\.gz$/, '')): Seed {
  return { name, bytes: read(path) };
}

const text = (name: string, s: string): Seed => ({ name, bytes: new TextEncoder().encode(s) });

type Json = Record<string, unknown>;

/** A Node `--cpu-prof` profile cut to its first `n` samples and the nodes on their stacks. */
function cropCpuprofile(path: string, n: number): Seed {
  const p = JSON.parse(new TextDecoder().decode(read(path))) as Json & { nodes: Json[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(p.nodes.map((node) => [node.id as number, node]));
  const parent = new Map<number, number>();
  for (const node of p.nodes) for (const c of (node.children as number[] | undefined) ?? []) parent.set(c, node.id as number);
  const keep = new Set<number>();
  const samples = p.samples.slice(0, n);
  for (const s of samples) for (let id: number | undefined = s; id !== undefined && !keep.has(id); id = parent.get(id)) keep.add(id);
  const nodes = p.nodes
    .filter((node) => keep.has(node.id as number))
    .map((node) => ({ ...node, children: ((node.children as number[] | undefined) ?? []).filter((c) => keep.has(c) && byId.has(c)) }));
  return text(basename(path), JSON.stringify({ ...p, nodes, samples, timeDeltas: p.timeDeltas.slice(0, n) }));
}

/** A trace cut to its first `n` events, in the object form Node writes. */
function cropTrace(path: string, n: number): Seed {
  const p = JSON.parse(new TextDecoder().decode(read(path))) as { traceEvents: unknown[] };
  return text(basename(path).replace(/\.gz$/, ''), JSON.stringify({ traceEvents: p.traceEvents.slice(0, n) }));
}

/** Text cut at the last `sep` before `max` bytes. */
function cropText(path: string, max: number, sep: string): Seed {
  const s = new TextDecoder().decode(read(path));
  const cut = s.lastIndexOf(sep, max);
  return text(basename(path).replace(/\.gz$/, ''), s.slice(0, cut < 0 ? max : cut + sep.length));
}

/** 0x ticks.json cut to its first `n` ticks. */
function cropTicks(path: string, n: number): Seed {
  const ticks = JSON.parse(new TextDecoder().decode(read(path))) as unknown[];
  return text('ticks.json', JSON.stringify(ticks.slice(0, n)));
}

/** 0x's v8 log JSON cut to its first `n` ticks and the code entries they use. */
function cropV8Json(path: string, n: number): Seed {
  const p = JSON.parse(new TextDecoder().decode(read(path))) as { code: unknown[]; ticks: { tm: number; vm: number; s: number[] }[] };
  const ticks = p.ticks.slice(0, n);
  const index = new Map<number, number>();
  const code: unknown[] = [];
  for (const t of ticks) {
    for (let i = 0; i < t.s.length; i += 2) {
      const c = t.s[i]!;
      if (c < 0 || c >= p.code.length) continue;
      if (!index.has(c)) {
        index.set(c, code.length);
        code.push(p.code[c]);
      }
    }
  }
  const remapped = ticks.map((t) => ({ ...t, s: t.s.map((v, i) => (i % 2 === 0 ? (index.get(v) ?? -1) : v)) }));
  return text(basename(path).replace(/\.gz$/, ''), JSON.stringify({ code, ticks: remapped }));
}

interface ZeroExNode {
  children?: ZeroExNode[];
  [k: string]: unknown;
}

/** Keeps the first `breadth` children per level, `depth` levels (iteratively). */
function pruneTree(root: ZeroExNode, breadth: number, depth: number): ZeroExNode {
  const out: ZeroExNode = { ...root, children: [] };
  const stack: [ZeroExNode, ZeroExNode, number][] = [[root, out, 0]];
  while (stack.length > 0) {
    const [from, to, d] = stack.pop()!;
    if (d >= depth) {
      delete to.children;
      continue;
    }
    for (const c of (from.children ?? []).slice(0, breadth)) {
      const copy: ZeroExNode = { ...c, children: [] };
      to.children!.push(copy);
      stack.push([c, copy, d + 1]);
    }
  }
  return out;
}

/** A 0x flamegraph.html: the page's real opening, then its trees pruned, then the call's end. */
function cropHtml(path: string): Seed {
  const page = new TextDecoder().decode(read(path));
  const at = page.indexOf('visualizer({"merged":');
  const start = at + 'visualizer('.length;
  // The call's first argument is one JSON object; find its end by counting brackets outside strings.
  let depth = 0;
  let end = start;
  for (let i = start, inString = false; i < page.length; i++) {
    const c = page[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      end = i + 1;
      break;
    }
  }
  const trees = JSON.parse(page.slice(start, end)) as { merged: ZeroExNode; unmerged: ZeroExNode };
  const small = { merged: pruneTree(trees.merged, 4, 6), unmerged: pruneTree(trees.unmerged, 4, 6) };
  const head = page.slice(0, page.indexOf('</style>') + '</style>'.length).slice(0, 2000);
  return text('flamegraph.html', `${head}\n<script>visualizer(${JSON.stringify(small)}${page.slice(end, end + 200)}`);
}

function dir(path: string, filter: (f: string) => boolean): Seed[] {
  return readdirSync(path)
    .filter(filter)
    .sort()
    .map((f) => seed(join(path, f)));
}

export type SeedFormat = 'cpuprofile' | 'heapprofile' | 'trace-events' | 'perf-script' | 'folded' | '0x' | 'pprof';

/** Seeds for one format (read from `fixtures/`, a few hundred KiB in all). */
export function seedsFor(format: SeedFormat): Seed[] {
  switch (format) {
    case 'cpuprofile':
      return [
        seed(join(SPEEDSCOPE, 'Chrome/65/simple.cpuprofile')),
        seed(join(SPEEDSCOPE, 'node/10.11.0/example.cpuprofile')),
        seed(join(CORPUS, '0x/test/inline-data/exampleProfile.cpuprofile.json')),
        seed(join(CORPUS, '0x/test/inline-data/exampleCpuProfProfile.cpuprofile.json')),
        cropCpuprofile(join(SAMPLES, 'baseline/CPU.20261121.233005.6118.0.001.cpuprofile'), 40),
      ];
    case 'heapprofile':
      return [
        seed(join(SPEEDSCOPE, 'node/10.11.0/Heap-20181003T105432.heapprofile')),
        seed(join(SAMPLES, 'baseline/Heap.20261121.233010.6213.0.001.heapprofile')),
      ];
    case 'trace-events':
      return [
        ...dir(join(SPEEDSCOPE, 'trace-event'), (f) => f.endsWith('.json') && !f.includes('.expected')),
        seed(join(SPEEDSCOPE, 'Chrome/141/no-arg-data.json')),
        cropTrace(join(SAMPLES, 'baseline/node_trace.1.log.gz'), 120),
      ];
    case 'perf-script':
      return [
        seed(join(CORPUS, 'FlameGraph/test/perf-dd-stacks-01.txt')),
        seed(join(CORPUS, 'FlameGraph/test/perf-java-stacks-02.txt')),
        seed(join(CORPUS, 'FlameGraph/test/perf-js-stacks-01.txt')),
        seed(join(CORPUS, 'FlameGraph/test/perf-java-faults-01.txt')),
        seed(join(SPEEDSCOPE, 'linux-perf/simple.linux-perf.txt')),
        cropText(join(SPEEDSCOPE, 'linux-perf/simple-with-header.linux-perf.txt'), 12_000, '\n\n'),
        cropText(join(SAMPLES, 'baseline/perf.script.txt'), 16_000, '\n\n'),
      ];
    case 'folded':
      return [
        ...dir(join(SPEEDSCOPE, 'stackcollapse'), (f) => f.endsWith('.txt') && !f.startsWith('perf-vertx')),
        seed(join(CORPUS, '0x/test/fixtures/crypto-ticks.merged-tree-as-folded.txt')),
        cropText(join(SPEEDSCOPE, 'stackcollapse/perf-vertx-stacks-01-collapsed-all.txt'), 12_000, '\n'),
      ];
    case '0x':
      return [
        seed(join(CORPUS, '0x/test/fixtures/crypto-ticks.json'), 'ticks.json'),
        cropTicks(join(SAMPLES, 'baseline/0x/ticks.json.gz'), 26),
        cropV8Json(join(SAMPLES, 'baseline/0x/isolate-0x33817a80-6265-6265-v8.log.json.gz'), 60),
        cropHtml(join(SAMPLES, 'baseline/0x/flamegraph.html')),
      ];
    case 'pprof':
      return [seed(fixturePath('pprof/datadog-node20-time.pb.gz')), seed(fixturePath('pprof/datadog-node20-heap.pb.gz'))];
  }
}

/** The seeds of every format. */
export function fuzzSeedsAll(): Seed[] {
  return (['cpuprofile', 'heapprofile', 'trace-events', 'perf-script', 'folded', '0x', 'pprof'] as const).flatMap((f) => seedsFor(f));
}
