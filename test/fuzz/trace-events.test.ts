/** Fuzzing the trace-event importer (see ./fuzz-harness for what counts as a failure). */
import { CASE_MS, fuzzSuite, gzip } from './fuzz-run';
import { seedsFor } from './fuzz-seeds';
import { deepTrace, traceEvents } from './gen-trace';
import { deepOptionsArb } from './gen-v8';
import { deepInputs, delivered, mutatedSeeds, sometimesDirect } from './delivery';

fuzzSuite('fuzz: trace events', [
  { property: 'trace-events/mutated', arb: mutatedSeeds(seedsFor('trace-events'), gzip), fraction: 0.6 },
  { property: 'trace-events/generated', arb: sometimesDirect('trace-events', delivered('trace.json', traceEvents, gzip)), fraction: 0.4 },
  {
    property: 'trace-events/deep',
    arb: deepInputs('trace.json', deepOptionsArb, deepTrace),
    fraction: 0.002,
    min: 6,
    msPerCase: 5000,
    caseMs: 6 * CASE_MS,
  },
]);
