/** Random binary files, and bytes of one format under the name of another (see ./fuzz-harness). */
import fc from 'fast-check';
import { fuzzSuite, gzip } from './fuzz-run';
import { fuzzSeedsAll } from './fuzz-seeds';
import { randomBinary } from './gen-binary';
import { NAMES, delivered, mutatedSeeds } from './delivery';

const allSeeds = fuzzSeedsAll();

fuzzSuite('fuzz: binary and mixed', [
  {
    property: 'binary/random',
    arb: fc
      .tuple(delivered('data.bin', randomBinary, gzip), fc.nat({ max: NAMES.length - 1 }))
      .map(([input, n]) => ({ ...input, name: NAMES[n]! })),
    fraction: 0.6,
  },
  // Seeds of every format spliced into each other (mutations draw splices from all of them).
  { property: 'binary/cross-format', arb: mutatedSeeds(allSeeds, gzip), fraction: 0.4 },
]);
