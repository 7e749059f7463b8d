#!/usr/bin/env node
// `npm run bench`: how fast and how lean Flamelens is with big profiles, on this machine, with
// every figure compared with a limit measured in the same run (never a fixed number of ms):
//
// - import of perf script, folded, .cpuprofile and trace JSON made from the real samples
//   (scripts/bench/generate.mjs) at ~100 MB and ~1 GB: throughput, its ratio to JSON.parse of
//   the same text (JSON formats) or to a bare line split (text formats), and peak memory as a
//   multiple of the file size — each import in its own process (scripts/bench/import-runner.ts);
// - heap snapshots grown from a real one (scripts/bench/heap.mjs) at the same sizes: import
//   (parse, dominators, retained sizes) against JSON.parse of the same text, the import's and
//   `flamelens heap`'s peak memory, and memlab's time on the first size up to 200 MB;
// - diff of two 1,000,000-node call trees;
// - UI interactions on 1 and 4 panes of 500,000-node profiles in headless Chromium;
// - redraws of 4 panes of long `.cpuprofile` captures, 10 M samples each (scripts/bench/redraw.mjs):
//   click-zoom, Esc, search and a keystroke, and the time-order view's first draw, a range picked
//   on it and a wheel zoom (scripts/bench/time-order.mjs): median and max of 10, the longest task in them;
// - the app path (scripts/bench/app.mjs): `flamelens open FILE` in headless Chromium, navigation
//   until the flamegraph is drawn, against `flamelens collapse FILE` on the same file (its wall
//   time and peak RSS) and the machine's limit (JSON.parse or a line split of the file), with the
//   longest main-thread task in the 10 s after the draw and the renderer's peak memory, for every
//   format at the first size and, in full runs, a long `.cpuprofile` capture (10 M samples per
//   100 MB), perf script at 280 MB and folded stacks as a collapser writes them (each stack once).
//
//   node scripts/bench.mjs [--sizes 100,1000] [--quick] [--repeat N] [--only perf,folded,cpuprofile,trace,heap]
//                          [--no-import] [--no-ui] [--no-redraw] [--no-diff] [--no-app] [--port N]
//                          [--json test-results/bench.json]
//
// --port: where the app path serves the app (else a free one). --only heap: the heap snapshots
// alone (no diff, UI, redraw or app parts).
//
// --quick: ~20 MB inputs and 1 M-sample redraw panes (a minute or two), for trying it out. Needs
// `npm run build` first (the UI part serves the built app); `npm run bench` does both. Inputs go
// to a temporary folder that is removed at the end (each file as soon as it is measured: ~1 GB of
// disk at a time).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, tmpdir, totalmem, type as osType } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'vite';
import { GENERATORS, generateCollapsedFolded, generateLongCpuprofile } from './bench/generate.mjs';
import { syntheticFolded } from './bench/synthetic.mjs';
import { benchApp } from './bench/app.mjs';
import { appTargets } from './bench/app-report.mjs';
import { benchHeap, heapTargets } from './bench/heap.mjs';
import { benchText } from './bench/report.mjs';
import { benchRedraw } from './bench/redraw.mjs';
import { benchUi, CHROMIUM } from './bench/ui.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const MB = 1e6;

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100,1000' },
    quick: { type: 'boolean', default: false },
    repeat: { type: 'string' },
    only: { type: 'string' },
    'no-ui': { type: 'boolean', default: false },
    'no-redraw': { type: 'boolean', default: false },
    'no-diff': { type: 'boolean', default: false },
    'no-app': { type: 'boolean', default: false },
    'no-import': { type: 'boolean', default: false },
    port: { type: 'string' },
    json: { type: 'string', default: 'test-results/bench.json' },
  },
});
const sizes = values.quick ? [20] : values.sizes.split(',').map(Number);
if (sizes.some((s) => !(s > 0))) throw new Error(`--sizes takes sizes in MB, like 100,1000; got "${values.sizes}"`);
const FORMAT_KEYS = { perf: 'perf script', folded: 'folded', cpuprofile: 'cpuprofile', trace: 'trace JSON', heap: 'heap snapshot' };
const only = values.only ? values.only.split(',').map((f) => FORMAT_KEYS[f] ?? f) : Object.values(FORMAT_KEYS);
for (const f of only)
  if (!Object.values(FORMAT_KEYS).includes(f)) throw new Error(`--only: unknown format "${f}" (${Object.keys(FORMAT_KEYS)})`);
const formats = only.filter((f) => GENERATORS[f]);
const withHeap = only.includes('heap snapshot');
// `--only heap`: the heap snapshots alone (the other parts measure other formats)
const heapOnly = formats.length === 0;
const withUi = !values['no-ui'] && !heapOnly;
const withRedraw = !values['no-redraw'] && !heapOnly;
/** Samples per pane of the redraw benchmark: the 4 × 10 M. */
const REDRAW_SAMPLES = values.quick ? 1_000_000 : 10_000_000;
const withDiff = !values['no-diff'] && !heapOnly;
const withApp = !values['no-app'] && !heapOnly;
/**
 * Each import and each limit is measured this many times, alternating, and the best time of each
 * is kept: on a shared machine a slow run says more about the neighbours than about the code.
 */
const repeatFor = (size) => (values.repeat ? Number(values.repeat) : size <= 200 ? 3 : 2);

if (!existsSync(join(ROOT, 'out/cli/flamelens.js')) || !existsSync(join(ROOT, 'out/renderer/index.html')))
  throw new Error('build first: npm run build (npm run bench does it)');

const work = mkdtempSync(join(tmpdir(), 'flamelens-bench-'));
const cleanUp = () => rmSync(work, { recursive: true, force: true });
process.on('exit', cleanUp);
process.on('SIGINT', () => process.exit(130));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const best = (xs) => Math.min(...xs);

function log(s) {
  process.stderr.write(`${s}\n`);
}

/** The measuring process, bundled for plain Node the way the CLI is (Vite, SSR, everything inlined). */
async function buildRunner() {
  await build({
    configFile: false,
    logLevel: 'warn',
    root: ROOT,
    build: {
      ssr: join(ROOT, 'scripts/bench/import-runner.ts'),
      outDir: join(work, 'runner'),
      target: 'node20',
      minify: false,
      emptyOutDir: true,
      rollupOptions: { output: { entryFileNames: 'import-runner.mjs' } },
    },
    ssr: { noExternal: true },
  });
  return join(work, 'runner/import-runner.mjs');
}

/** Runs a measuring child; returns its JSON line. */
function child(args) {
  const r = spawnSync(process.execPath, ['--expose-gc', ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status ?? r.signal}):\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

/** What `flamelens collapse` prints for the perf sample: the folded input the benchmark scales. */
function foldedSample() {
  const r = spawnSync(process.execPath, ['bin/flamelens.mjs', 'collapse', 'fixtures/samples/ddtrace/perf.F999.script.txt.gz'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`flamelens collapse failed: ${r.stderr}`);
  return r.stdout;
}

function machine(chromiumVersion) {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  let chromium = chromiumVersion;
  if (!chromium) {
    const r = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' });
    chromium = (r.stdout ?? '').trim() || 'not found';
  }
  return {
    cores: availableParallelism(),
    cpu,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${osType()} ${release()}`,
    node: process.version,
    chromium: /^\d/.test(chromium) ? `Chromium ${chromium}` : chromium,
  };
}

// ---------------------------------------------------------------------------------------------

const results = {
  date: new Date().toISOString(),
  machine: undefined,
  loadBefore: loadavg()[0],
  loadAfter: 0,
  import: [],
  diff: undefined,
  ui: [],
  redraw: undefined,
  app: [],
  heap: [],
  targets: [],
};
const runner = await buildRunner();
const folded = formats.includes('folded') ? foldedSample() : '';

for (const size of values['no-import'] ? [] : sizes) {
  for (const format of formats) {
    const g = GENERATORS[format];
    const path = join(work, g.file);
    log(`generating ${format}, ${size} MB…`);
    const input = g.make(path, size * MB, folded);
    const piecesFile = `${path}.pieces.json`;
    if (input.kind === 'json') writeFileSync(piecesFile, JSON.stringify(input.pieces));
    const limits = [];
    const imports = [];
    for (let r = 0; r < repeatFor(size); r++) {
      log(`  ${format} ${size} MB: limit, import (${r + 1}/${repeatFor(size)})`);
      limits.push(child([join(ROOT, 'scripts/bench/limit-runner.mjs'), input.kind === 'json' ? 'json' : 'lines', path, piecesFile]));
      imports.push(child([runner, 'import', path]));
    }
    const importMs = best(imports.map((x) => x.ms));
    const limitMs = best(limits.map((x) => x.ms));
    const peak = Math.max(...imports.map((x) => x.peakRss));
    const last = imports[imports.length - 1];
    results.import.push({
      format,
      kind: input.kind,
      sizeMB: size,
      bytes: input.bytes,
      importMBps: input.bytes / MB / (importMs / 1000),
      limit: input.kind === 'json' ? 'JSON.parse' : 'line split',
      limitMBps: limits[0].bytes / MB / (limitMs / 1000),
      limitPieces: limits[0].pieces,
      ratio: limitMs / importMs,
      peakRssBytes: peak,
      peakPerFile: peak / input.bytes,
      startRssBytes: last.rssBefore,
      runs: imports.length,
      importMs: imports.map((x) => x.ms),
      limitMs: limits.map((x) => x.ms),
      profile: { nodes: last.nodes, frames: last.frames, samples: last.samples },
    });
    rmSync(path, { force: true });
    rmSync(piecesFile, { force: true });
  }
}

if (withHeap && !values['no-import']) results.heap = benchHeap({ sizes, repeatFor, work, runner, root: ROOT, child, log });

if (withDiff) {
  log('diffing two 1,000,000-node trees…');
  const d = child([runner, 'diff', '1000000']);
  results.diff = { nodes: 1_000_000, ...d, medianMs: median(d.times), maxMs: Math.max(...d.times) };
}

if (withUi) {
  const nodes = 500_000;
  log(`writing 4 synthetic ${nodes.toLocaleString('en-US')}-node profiles…`);
  const files = [1, 2, 3, 4].map((i) => {
    const f = join(work, `ui-run${i}.folded`);
    writeFileSync(f, syntheticFolded(nodes, i));
    return f;
  });
  for (const panes of [1, 4]) {
    log(`UI: ${panes} pane(s)…`);
    results.ui.push(await benchUi({ panes, nodes, repeat: 7, files: files.slice(0, panes) }));
  }
}

if (withRedraw) {
  log(`redraws: 4 panes × ${REDRAW_SAMPLES.toLocaleString('en-US')} samples…`);
  results.redraw = await benchRedraw({ panes: 4, samples: REDRAW_SAMPLES, repeat: 10 });
}

/** The app path's inputs: every format at the first size; in full runs, a long capture and perf script at 280 MB. */
function appInputs() {
  const list = formats.map((format) => ({ format, sizeMB: sizes[0] }));
  if (!values.quick && formats.includes('cpuprofile'))
    list.push({ format: 'cpuprofile', sizeMB: sizes[0], long: true, label: `cpuprofile, ${sizes[0] / 10} M samples` });
  if (!values.quick && formats.includes('perf script')) list.push({ format: 'perf script', sizeMB: 280 });
  // what most folded files are: a collapser's output, each stack once (the other folded input
  // repeats a few stacks over and over)
  if (!values.quick && formats.includes('folded'))
    list.push({ format: 'folded', sizeMB: sizes[0], collapsed: true, label: 'folded, each stack once' });
  return list;
}

/** Writes an app-path input; returns the generator's answer and the limit's pieces file. */
function makeAppInput({ format, sizeMB, long, collapsed }) {
  const g = GENERATORS[format];
  const path = join(work, `app-${long ? 'long-' : collapsed ? 'collapsed-' : ''}${g.file}`);
  // ~10 bytes a sample: 10 M samples make ~100 MB
  const input = long
    ? generateLongCpuprofile(path, sizeMB * 100_000)
    : collapsed
      ? generateCollapsedFolded(path, sizeMB * MB)
      : g.make(path, sizeMB * MB, folded);
  const pieces = `${path}.pieces.json`;
  if (input.kind === 'json') writeFileSync(pieces, JSON.stringify(input.pieces ?? [{ from: 0, to: input.bytes, prefix: '', suffix: '' }]));
  return { path, input, pieces };
}

const appRepeat = values.repeat ? Number(values.repeat) : values.quick ? 1 : 3;
if (withApp) {
  const repeat = appRepeat;
  // The fixed costs: the app and the command on a file of three lines, where reading is nothing.
  log('app path: fixed costs (a 3-line folded file)…');
  const tiny = join(work, 'app-start.folded');
  writeFileSync(tiny, 'main;serve;handle 3\nmain;serve;parse 2\nmain;idle 1\n');
  const start = await benchApp({ files: [tiny], repeat, quietMs: 0, port: values.port ? Number(values.port) : undefined });
  results.appStart = { navigationMs: start.navigationMs, cliMs: start.cliMs, appCpuMs: start.appCpuMs, cliCpuMs: start.cliCpuMs };
  rmSync(tiny, { force: true });
  for (const spec of appInputs()) {
    log(`app path: ${spec.label ?? spec.format}, ${spec.sizeMB} MB…`);
    const { path, input, pieces } = makeAppInput(spec);
    const limits = [];
    for (let r = 0; r < repeat; r++)
      limits.push(child([join(ROOT, 'scripts/bench/limit-runner.mjs'), input.kind === 'json' ? 'json' : 'lines', path, pieces]).ms);
    const a = await benchApp({ files: [path], repeat, port: values.port ? Number(values.port) : undefined });
    results.app.push({
      ...spec,
      bytes: input.bytes,
      limit: input.kind === 'json' ? 'JSON.parse' : 'line split',
      limitMs: best(limits),
      ...a,
      rendererPerFile: a.rendererPeakBytes === undefined ? undefined : a.rendererPeakBytes / input.bytes,
      cliPerFile: a.cliPeakRssBytes === undefined ? undefined : a.cliPeakRssBytes / input.bytes,
    });
    rmSync(path, { force: true });
    rmSync(pieces, { force: true });
  }
}

results.machine = machine(results.ui[0]?.chromiumVersion ?? results.redraw?.chromiumVersion);
results.loadAfter = loadavg()[0];

// ---------------------------------------------------------------------------------------------
// Targets (from the issue), judged on the figures above.

for (const x of results.import) {
  results.targets.push({
    what: `${x.format} ${x.sizeMB} MB import ≥ 0.5× ${x.limit}`,
    value: `${x.ratio.toFixed(2)}×`,
    met: x.ratio >= 0.5,
  });
  if ((x.format === 'perf script' || x.format === 'trace JSON') && x.sizeMB >= 1000)
    results.targets.push({
      what: `${x.format} ${x.sizeMB} MB peak memory < 2× file`,
      value: `${x.peakPerFile.toFixed(2)}×`,
      met: x.peakPerFile < 2,
    });
}
if (results.diff)
  results.targets.push({
    what: 'diff of two 1,000,000-node trees < 1 s',
    value: `median ${Math.round(results.diff.medianMs)} ms (max ${Math.round(results.diff.maxMs)})`,
    met: results.diff.medianMs < 1000,
  });
for (const u of results.ui.filter((x) => x.panes === 4))
  results.targets.push({
    what: `UI first render, ${u.panes} panes × 500,000 nodes < 1 s`,
    value: `${u.firstRenderMs} ms (import ${u.importMs}, draw ${u.drawMs}; the command on the same files at once ${u.commandMs})`,
    met: u.firstRenderMs < 1000,
  });
for (const u of results.ui)
  for (const i of u.interactions)
    results.targets.push({
      what: `UI ${i.interaction}, ${u.panes} pane(s) × 500,000 nodes < 100 ms`,
      value: `median ${Math.round(i.medianMs)} ms (max ${Math.round(i.maxMs)})`,
      met: i.medianMs < 100,
    });
if (results.redraw) {
  const r = results.redraw;
  for (const i of r.interactions.filter((x) => x.interaction !== 'keystroke'))
    results.targets.push({
      what: `redraw ${i.interaction}, ${r.panes} panes × ${r.samples / 1e6} M samples < 100 ms`,
      value: `median ${Math.round(i.medianMs)} ms (max ${Math.round(i.maxMs)})`,
      met: i.medianMs < 100,
    });
}

for (const a of results.app) for (const { what, value, met } of appTargets(a)) results.targets.push({ what, value, met });
results.targets.push(...heapTargets(results.heap));

// ---------------------------------------------------------------------------------------------

const text = benchText(results, { repeats: [...new Set(sizes.map(repeatFor))].join(' / '), appRepeat });
console.log(text);

const jsonPath = resolve(ROOT, values.json);
mkdirSync(dirname(jsonPath), { recursive: true });
writeFileSync(jsonPath, JSON.stringify({ ...results, text }, null, 2));
console.log(`\nfigures written to ${values.json}`);
