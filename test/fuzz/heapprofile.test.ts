/** Fuzzing the .heapprofile importer (see ./fuzz-harness for what counts as a failure). */
import { CASE_MS, fuzzSuite, gzip } from './fuzz-run';
import { seedsFor } from './fuzz-seeds';
import { deepHead, deepOptionsArb, heapprofile } from './gen-v8';
import { deepInputs, delivered, mutatedSeeds, sometimesDirect } from './delivery';

fuzzSuite('fuzz: V8 .heapprofile', [
  { property: 'heapprofile/mutated', arb: mutatedSeeds(seedsFor('heapprofile'), gzip), fraction: 0.6 },
  { property: 'heapprofile/generated', arb: sometimesDirect('heapprofile', delivered('x.heapprofile', heapprofile, gzip)), fraction: 0.4 },
  {
    property: 'heapprofile/deep',
    arb: deepInputs('x.heapprofile', deepOptionsArb, (o) => deepHead('heapprofile', o)),
    fraction: 0.002,
    min: 4,
    msPerCase: 5000,
    caseMs: 6 * CASE_MS,
  },
]);
