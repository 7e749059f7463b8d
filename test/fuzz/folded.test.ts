/** Fuzzing the folded-stacks importer (see ./fuzz-harness for what counts as a failure). */
import { CASE_MS, fuzzSuite, gzip } from './fuzz-run';
import { seedsFor } from './fuzz-seeds';
import { deepFolded, folded } from './gen-text';
import { deepOptionsArb } from './gen-v8';
import { deepInputs, delivered, mutatedSeeds, sometimesDirect } from './delivery';

fuzzSuite('fuzz: folded stacks', [
  { property: 'folded/mutated', arb: mutatedSeeds(seedsFor('folded'), gzip), fraction: 0.6 },
  { property: 'folded/generated', arb: sometimesDirect('folded', delivered('stacks.folded', folded, gzip)), fraction: 0.4 },
  {
    property: 'folded/deep',
    arb: deepInputs('stacks.folded', deepOptionsArb, deepFolded),
    fraction: 0.002,
    min: 4,
    msPerCase: 5000,
    caseMs: 6 * CASE_MS,
  },
]);
