/** Fuzzing the 0x importer: ticks.json, the v8 log JSON and flamegraph.html (see ./fuzz-harness). */
import fc from 'fast-check';
import { CASE_MS, fuzzSuite, gzip } from './fuzz-run';
import { seedsFor } from './fuzz-seeds';
import { deepOptionsArb } from './gen-v8';
import { deepZeroEx, zeroExHtml, zeroExTicks, zeroExV8Json } from './gen-zeroex';
import { deepInputs, delivered, mutatedSeeds, sometimesDirect } from './delivery';

const generated = fc.oneof(
  delivered('ticks.json', zeroExTicks, gzip),
  delivered('isolate-0x1-v8.log.json', zeroExV8Json, gzip),
  delivered('flamegraph.html', zeroExHtml, gzip),
);

fuzzSuite('fuzz: 0x', [
  { property: '0x/mutated', arb: mutatedSeeds(seedsFor('0x'), gzip), fraction: 0.6 },
  { property: '0x/generated', arb: sometimesDirect('0x', generated), fraction: 0.4 },
  {
    property: '0x/deep',
    arb: deepInputs('ticks.json', deepOptionsArb, deepZeroEx),
    fraction: 0.002,
    min: 6,
    msPerCase: 5000,
    caseMs: 6 * CASE_MS,
  },
]);
