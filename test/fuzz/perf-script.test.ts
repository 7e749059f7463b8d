/** Fuzzing the perf script importer (see ./fuzz-harness for what counts as a failure). */
import { CASE_MS, fuzzSuite, gzip } from './fuzz-run';
import { seedsFor } from './fuzz-seeds';
import { deepPerf, perfScript } from './gen-text';
import { deepOptionsArb } from './gen-v8';
import { deepInputs, delivered, mutatedSeeds, sometimesDirect } from './delivery';

fuzzSuite('fuzz: perf script', [
  { property: 'perf-script/mutated', arb: mutatedSeeds(seedsFor('perf-script'), gzip), fraction: 0.6 },
  { property: 'perf-script/generated', arb: sometimesDirect('perf-script', delivered('perf.script.txt', perfScript, gzip)), fraction: 0.4 },
  {
    property: 'perf-script/deep',
    arb: deepInputs('perf.script.txt', deepOptionsArb, deepPerf),
    fraction: 0.002,
    min: 4,
    msPerCase: 5000,
    caseMs: 6 * CASE_MS,
  },
]);
