/** Fuzzing the pprof importer (see ./fuzz-harness for what counts as a failure). */
import fc from 'fast-check';
import { CASE_MS, fuzzSuite, gzip } from './fuzz-run';
import { seedsFor } from './fuzz-seeds';
import { deepPprof, pprofFieldSoup, pprofLikeBytes, pprofProfile } from './gen-pprof';
import { deepOptionsArb } from './gen-v8';
import { deepInputs, delivered, mutatedSeeds, sometimesDirect } from './delivery';

const generated = fc.oneof(
  { weight: 4, arbitrary: pprofProfile },
  { weight: 1, arbitrary: pprofFieldSoup },
  { weight: 1, arbitrary: pprofLikeBytes },
);

fuzzSuite('fuzz: pprof', [
  { property: 'pprof/mutated', arb: mutatedSeeds(seedsFor('pprof'), gzip), fraction: 0.6 },
  { property: 'pprof/generated', arb: sometimesDirect('pprof', delivered('cpu.pb.gz', generated, gzip)), fraction: 0.4 },
  {
    property: 'pprof/deep',
    arb: deepInputs('cpu.pb', deepOptionsArb, deepPprof),
    fraction: 0.002,
    min: 4,
    msPerCase: 5000,
    caseMs: 6 * CASE_MS,
  },
]);
