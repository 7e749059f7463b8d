/** Fuzzing the .cpuprofile importer (see ./fuzz-harness for what counts as a failure). */
import fc from 'fast-check';
import { CASE_MS, fuzzSuite, gzip } from './fuzz-run';
import { seedsFor } from './fuzz-seeds';
import { deepHead, deepModernCpuprofile, deepOptionsArb, legacyCpuprofile, modernCpuprofile } from './gen-v8';
import { deepInputs, delivered, mutatedSeeds, sometimesDirect } from './delivery';

fuzzSuite('fuzz: V8 .cpuprofile', [
  { property: 'cpuprofile/mutated', arb: mutatedSeeds(seedsFor('cpuprofile'), gzip), fraction: 0.6 },
  {
    property: 'cpuprofile/generated',
    arb: sometimesDirect(
      'cpuprofile',
      delivered('x.cpuprofile', fc.oneof({ weight: 3, arbitrary: modernCpuprofile }, { weight: 1, arbitrary: legacyCpuprofile }), gzip),
    ),
    fraction: 0.4,
  },
  {
    property: 'cpuprofile/deep',
    arb: deepInputs('x.cpuprofile', deepOptionsArb, (o) =>
      o.variant % 2 === 0 ? deepModernCpuprofile({ ...o, variant: o.variant / 2 }) : deepHead('cpuprofile', o),
    ),
    fraction: 0.002,
    min: 6,
    msPerCase: 5000,
    caseMs: 6 * CASE_MS,
  },
]);
