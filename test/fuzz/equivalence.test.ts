/**
 * The same file must import the same whatever its delivery: read in chunks of any size (every
 * byte a chunk boundary included), re-encoded as UTF-16 LE/BE with or without a byte-order mark,
 * given a UTF-8 BOM, CRLF line ends or gzip. Differential fuzzing of the streaming layer (source,
 * JSON scanner, line reader) and of every importer on the real seed files: the outcome — format,
 * node count, total, warnings, or the error and its location — must equal the plain read's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzSeedsAll } from './fuzz-seeds';
import { CASE_MS, RUNS, gzip, timeoutFor } from './fuzz-run';
import { FuzzPool } from './fuzz-pool';
import type { Outcome } from './fuzz-harness';
import { type Encoding, encode } from './delivery';

/** What must not change with the delivery. */
function essence(o: Outcome): unknown {
  switch (o.kind) {
    case 'profile':
      return { kind: o.kind, format: o.format, nodes: o.nodes, total: o.total, warnings: o.warnings, problems: o.problems };
    case 'import-error':
      return { kind: o.kind, error: o.error };
    case 'thrown':
      return { kind: o.kind, name: o.name, message: o.message };
    default:
      return { kind: o.kind };
  }
}

const ENCODINGS: Encoding[] = ['utf-8', 'utf-8-bom', 'utf-16le', 'utf-16le-bom', 'utf-16be', 'utf-16be-bom', 'crlf'];

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return !bytes.includes(0);
  } catch {
    return false;
  }
}

describe('fuzz: the same file, any delivery', () => {
  const seeds = fuzzSeedsAll();
  const runs = Math.max(50, Math.round(RUNS / 6));
  it(
    `chunk sizes, UTF-16, BOM, CRLF and gzip change nothing: ${runs} cases`,
    async () => {
      const pool = new FuzzPool({ timeoutMs: CASE_MS });
      const reference = new Map<number, unknown>();
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.nat({ max: seeds.length - 1 }),
            fc.nat({ max: ENCODINGS.length - 1 }),
            fc.boolean(),
            fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 65, max: 70_000 })),
            async (i, e, zip, chunk) => {
              const seed = seeds[i]!;
              const text = isUtf8(seed.bytes);
              // Re-encoding binary (pprof) or UTF-16 seeds would change their content, not their delivery.
              const enc = text ? ENCODINGS[e]! : 'utf-8';
              // CRLF changes text inside a line-oriented file's frames only at line ends, which readers strip.
              let bytes = encode(seed.bytes, enc);
              if (zip) bytes = gzip(bytes);
              if (bytes.length > 20_000 && chunk < 64) chunk += 512;
              let ref = reference.get(i);
              if (ref === undefined) {
                ref = essence(await pool.run({ name: seed.name, bytes: seed.bytes, chunk: 1 << 20, label: 'reference' }));
                reference.set(i, ref);
              }
              const got = essence(
                await pool.run({ name: seed.name, bytes, chunk, label: `${enc}${zip ? ' gzip' : ''} chunks of ${chunk}` }),
              );
              expect(got, `${seed.name} as ${enc}${zip ? ', gzipped' : ''}, in chunks of ${chunk}`).toEqual(ref);
            },
          ),
          {
            numRuns: runs,
            ...(process.env.FLAMELENS_FUZZ_SEED ? { seed: Number(process.env.FLAMELENS_FUZZ_SEED) } : {}),
            ...(process.env.FLAMELENS_FUZZ_PATH ? { path: process.env.FLAMELENS_FUZZ_PATH } : {}),
          },
        );
      } finally {
        await pool.close();
      }
    },
    timeoutFor(runs),
  );
});
