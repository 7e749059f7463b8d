/**
 * The fuzz worker's entry (bundled by `fuzz-pool.ts`): runs the cases the pool posts, one at a
 * time, and posts their outcomes back. Node-only; used by the fuzz tests alone.
 */
import { parentPort } from 'node:worker_threads';
import { type FuzzInput, runCase } from './fuzz-harness';

// Stack traces of unexpected exceptions should point into the TypeScript sources.
process.setSourceMapsEnabled(true);

parentPort!.on('message', (m: { id: number; input: FuzzInput }) => {
  void runCase(m.input).then((outcome) => parentPort!.postMessage({ id: m.id, outcome }));
});
parentPort!.postMessage({ ready: true });
