// The heap-snapshot part of `npm run bench`: snapshots grown from a real one
// (./generate-heap.mjs) at each size, and for each, alternating, in processes of their own:
//
// - the limit: JSON.parse of the same text (in valid pieces of ≤ 256 MiB past V8's string limit);
// - the import (parse, dominators, retained sizes and the class tree: what opening it in the app
//   computes), timed by the import runner, with its peak memory (VmHWM);
// - `flamelens heap FILE --json` (the import and the summary by class), its wall time and peak
//   memory (./peak-rss.mjs);
// - once, at the first size of at most 200 MB: memlab's parse and retained sizes of the same file.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateHeapSnapshot } from './generate-heap.mjs';
import { runWithPeak } from './peak-rss.mjs';

const MB = 1e6;
const best = (xs) => Math.min(...xs);

/**
 * Measures each size (MB) in `work`; `child(args)` runs a measuring Node process and returns its
 * JSON line, `runner` is the import runner's path, `root` the project's.
 */
export function benchHeap({ sizes, repeatFor, work, runner, root, child, log }) {
  const rows = [];
  let memlabDone = false;
  for (const size of sizes) {
    const path = join(work, 'big.heapsnapshot');
    log(`generating heap snapshot, ${size} MB…`);
    const input = generateHeapSnapshot(path, size * MB);
    const piecesFile = `${path}.pieces.json`;
    writeFileSync(piecesFile, JSON.stringify(input.pieces));
    const limits = [];
    const imports = [];
    const cli = [];
    for (let r = 0; r < repeatFor(size); r++) {
      log(`  heap snapshot ${size} MB: limit, import, flamelens heap (${r + 1}/${repeatFor(size)})`);
      limits.push(child([join(root, 'scripts/bench/limit-runner.mjs'), 'json', path, piecesFile]));
      imports.push(child([runner, 'import', path]));
      const c = runWithPeak([join(root, 'bin/flamelens.mjs'), 'heap', path, '--json'], root);
      if (c.status !== 0) throw new Error(`flamelens heap ${path} failed (${c.status}):\n${c.stderr}`);
      cli.push(c);
    }
    let memlab;
    if (!memlabDone && size <= 200) {
      log(`  heap snapshot ${size} MB: memlab`);
      memlab = child(['--max-old-space-size=16384', join(root, 'scripts/bench/memlab-runner.mjs'), path]);
      memlabDone = true;
    }
    const importMs = best(imports.map((x) => x.ms));
    const limitMs = best(limits.map((x) => x.ms));
    const importPeak = Math.max(...imports.map((x) => x.peakRss));
    const cliPeak = Math.max(...cli.map((x) => x.peakRssBytes));
    rows.push({
      sizeMB: size,
      bytes: input.bytes,
      nodes: input.nodes,
      edges: input.edges,
      importMs: imports.map((x) => x.ms),
      limitMs: limits.map((x) => x.ms),
      cliMs: cli.map((x) => x.ms),
      limitPieces: limits[0].pieces,
      ratio: limitMs / importMs,
      importPeakBytes: importPeak,
      importPerFile: importPeak / input.bytes,
      cliPeakBytes: cliPeak,
      cliPerFile: cliPeak / input.bytes,
      memlabMs: memlab?.ms,
      memlabPeakBytes: memlab?.peakRss,
    });
    rmSync(path, { force: true });
    rmSync(piecesFile, { force: true });
  }
  return rows;
}

/**
 * The targets of the issue (#22), judged on each row: the import at ≥ 0.5× JSON.parse; at 1 GB
 * and more, the import's and the command's peak memory below 2× the file (on smaller files the
 * process's own ~70-80 MB weighs too much to say anything; they are printed all the same).
 */
export function heapTargets(rows) {
  return rows.flatMap((x) => [
    { what: `heap snapshot ${x.sizeMB} MB import ≥ 0.5× JSON.parse`, value: `${x.ratio.toFixed(2)}×`, met: x.ratio >= 0.5 },
    ...(x.sizeMB < 1000
      ? []
      : [
          {
            what: `heap snapshot ${x.sizeMB} MB import peak memory < 2× file`,
            value: `${x.importPerFile.toFixed(2)}×`,
            met: x.importPerFile < 2,
          },
          {
            what: `heap snapshot ${x.sizeMB} MB flamelens heap peak < 2× file`,
            value: `${x.cliPerFile.toFixed(2)}×`,
            met: x.cliPerFile < 2,
          },
        ]),
  ]);
}

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
const sec = (ms) => `${(ms / 1000).toFixed(1)} s`;

export function heapTable(rows, repeats) {
  const out = [
    'Heap snapshots (grown from the ddtrace sample; import = parse, dominators, retained sizes, class tree)',
    `${pad('size', 9)}${lpad('nodes', 12)}${lpad('import', 10)}${lpad('JSON.parse', 14)}${lpad('ratio', 7)}${lpad('peak', 10)}${lpad('× file', 8)}${lpad('heap CLI', 10)}${lpad('peak', 10)}${lpad('× file', 8)}${lpad('memlab', 10)}`,
  ];
  for (const x of rows)
    out.push(
      `${pad(`${Math.round(x.bytes / MB)} MB`, 9)}${lpad(x.nodes.toLocaleString('en-US'), 12)}${lpad(sec(best(x.importMs)), 10)}${lpad(`${sec(best(x.limitMs))}${x.limitPieces > 1 ? ` ×${x.limitPieces}` : ''}`, 14)}${lpad(x.ratio.toFixed(2), 7)}${lpad(`${Math.round(x.importPeakBytes / MB)} MB`, 10)}${lpad(x.importPerFile.toFixed(2), 8)}${lpad(sec(best(x.cliMs)), 10)}${lpad(`${Math.round(x.cliPeakBytes / MB)} MB`, 10)}${lpad(x.cliPerFile.toFixed(2), 8)}${lpad(x.memlabMs === undefined ? '' : sec(x.memlabMs), 10)}`,
    );
  out.push(
    `  (best of ${repeats} alternating runs each; peaks: the largest VmHWM of the importing process and of \`flamelens heap FILE --json\`; memlab: one run, its parse and retained sizes, wall time)`,
  );
  return out;
}
