// memlab's time on a heap snapshot, for the benchmark to print beside Flamelens' import: its
// parse of the file and its retained sizes (what `test/support/memlab-oracle.ts` runs as the
// tests' oracle). memlab is a dev dependency, run here and in the tests only, never in the app.
//
//   memlab-runner.mjs FILE   prints one JSON line: { ms, nodes, peakRss }
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const core = require('@memlab/core');
core.config.muteConsole = true;

const file = process.argv[2];
const t0 = performance.now();
const snap = await core.utils.getSnapshotFromFile(file, {});
new core.TraceFinder().calculateAllNodesRetainedSizes(snap);
const ms = performance.now() - t0;
const hwm = /VmHWM:\s*(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
process.stdout.write(`${JSON.stringify({ ms, nodes: snap.nodes.length, peakRss: hwm ? Number(hwm[1]) * 1024 : undefined })}\n`);
