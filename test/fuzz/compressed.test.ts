/**
 * Compressed inputs that inflate far beyond their size or claim sizes they do not hold: gzip bombs
 * of every text format and of random bytes, gzipped pprof bombs and pprof fields claiming up to
 * 2^62 bytes (./gen-compressed). Beyond the harness's oracle, a bomb that gzip's budget cannot
 * allow must be refused, not read whole (see `FuzzInput.inflates`).
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';
import { CASE_MS, fuzzSuite, gzip } from './fuzz-run';
import { type Deflater, gzipBombs, pprofClaims } from './gen-compressed';

const zlib: Deflater = {
  deflateRaw: (bytes) => new Uint8Array(deflateRawSync(bytes, { level: 9, finishFlush: constants.Z_SYNC_FLUSH })),
  crc32: (bytes) => crc32(bytes),
  gzip,
};

fuzzSuite('fuzz: compressed', [
  { property: 'compressed/gzip-bombs', arb: gzipBombs(zlib), fraction: 0.005, min: 12, msPerCase: 1500, caseMs: 3 * CASE_MS },
  { property: 'compressed/pprof', arb: pprofClaims(zlib), fraction: 0.005, min: 12, msPerCase: 1500, caseMs: 3 * CASE_MS },
]);
