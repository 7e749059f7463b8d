/**
 * Drives one fuzz property: fast-check draws inputs, the pool runs each in a worker with a hard
 * time limit, the harness's oracle judges the outcome. Node-only; used by the fuzz tests.
 *
 * Environment:
 * - `FLAMELENS_FUZZ_RUNS`: cases per format (default 3000 — what CI runs; `npm run fuzz` runs
 *   100,000). Each test file splits its share between its properties.
 * - `FLAMELENS_FUZZ_SEED`, `FLAMELENS_FUZZ_PATH`: replay a failure (both are printed with it).
 * - `FLAMELENS_FUZZ_CASE_MS`: hard limit per case (default 10,000 ms; the deep cases, files of
 *   5–15 MB, get six times as long). Typical cases take milliseconds and the slowest well under
 *   a second even with three workers sharing two cores; a quadratic step on the 200,000-character
 *   lines the generators make takes tens of seconds.
 * - `FLAMELENS_FUZZ_REPORT`: a file to which every property appends a JSON line of statistics
 *   (its outcomes by kind, its slowest case, which is also saved as below).
 *
 * A failing input is also written to `$TMPDIR/flamelens-fuzz/` so it can be opened in the app or
 * turned into a regression test.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { type FuzzInput, type Outcome, judge, outcomeClass } from './fuzz-harness';
import { FuzzPool } from './fuzz-pool';

export const gzip = (b: Uint8Array): Uint8Array => new Uint8Array(gzipSync(b));

function envInt(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v.trim() === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`${name}=${v} is not a number`);
  return Math.trunc(n);
}

/** Cases per format. */
export const RUNS = envInt('FLAMELENS_FUZZ_RUNS', 3000);
export const CASE_MS = envInt('FLAMELENS_FUZZ_CASE_MS', 10_000);
/** Time spent shrinking a failing case before the smallest one found so far is reported. */
export const SHRINK_MS = envInt('FLAMELENS_FUZZ_SHRINK_MS', 60_000);

/** A share of the per-format runs, at least `min`. */
export function share(fraction: number, min = 1): number {
  return Math.max(min, Math.round(RUNS * fraction));
}

/** vitest timeout for a property of `runs` cases averaging up to `msPerCase`. */
export function timeoutFor(runs: number, msPerCase = 60): number {
  return 120_000 + runs * msPerCase;
}

export interface FuzzStats {
  property: string;
  runs: number;
  ms: number;
  /** outcome classes and how many cases ended in each */
  outcomes: Record<string, number>;
  /** the slowest case */
  slowest: { ms: number; bytes: number; label: string };
  /** total input bytes */
  bytes: number;
  restarts: number;
}

function describeOutcome(o: Outcome): string {
  switch (o.kind) {
    case 'profile':
      return `a ${o.format} profile (${o.nodes} nodes, total ${o.total})`;
    case 'import-error':
      return `ImportError ${JSON.stringify(o.message.slice(0, 300))}`;
    case 'thrown':
      return `${o.name}: ${o.message}`;
    default:
      return o.kind;
  }
}

/** Writes an input's bytes to `$TMPDIR/flamelens-fuzz/`; returns the path. */
function save(what: string, input: FuzzInput): string {
  const dir = join(tmpdir(), 'flamelens-fuzz');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${what.replace(/[^\w.-]+/g, '_')}.bin`);
  writeFileSync(path, input.bytes);
  return path;
}

/**
 * Runs `runs` cases of `arb` and throws, with the seed, the replay path, the shrunk input's
 * description and where its bytes were saved, when any outcome fails the oracle.
 */
export async function fuzz(property: string, arb: fc.Arbitrary<FuzzInput>, runs: number, caseMs = CASE_MS): Promise<FuzzStats> {
  const p = new FuzzPool({ timeoutMs: caseMs });
  const stats: FuzzStats = { property, runs: 0, ms: 0, outcomes: {}, slowest: { ms: -1, bytes: 0, label: '' }, bytes: 0, restarts: 0 };
  let failed = false;
  // Shrinking re-runs failing cases, each up to the time limit: bound it.
  let failedAt = 0;
  const t0 = Date.now();
  let lastFailure: Outcome | undefined;
  let slowestInput: FuzzInput | undefined;
  const prop = fc.asyncProperty(arb, async (input) => {
    if (failed && Date.now() - failedAt > SHRINK_MS) return true;
    const out = await p.run({
      name: input.name,
      bytes: input.bytes,
      chunk: input.chunk,
      label: input.label,
      ...(input.direct ? { direct: input.direct } : {}),
    });
    const verdict = judge(input, out);
    if (!failed) {
      stats.runs++;
      stats.bytes += input.bytes.length;
      const k = outcomeClass(out);
      stats.outcomes[k] = (stats.outcomes[k] ?? 0) + 1;
      if (out.ms > stats.slowest.ms) {
        stats.slowest = { ms: out.ms, bytes: input.bytes.length, label: input.label };
        slowestInput = input;
      }
    }
    if (verdict !== undefined) {
      if (!failed) failedAt = Date.now();
      failed = true;
      lastFailure = out;
      throw new Error(verdict);
    }
    return true;
  });
  const params: fc.Parameters<[FuzzInput]> = { numRuns: runs };
  const seed = process.env.FLAMELENS_FUZZ_SEED;
  if (seed !== undefined && seed !== '') params.seed = Number(seed);
  const path = process.env.FLAMELENS_FUZZ_PATH;
  if (path !== undefined && path !== '') params.path = path;
  const result = await fc.check(prop, params).finally(() => p.close());
  stats.ms = Date.now() - t0;
  stats.restarts = p.restarts;
  const report = process.env.FLAMELENS_FUZZ_REPORT;
  if (report) {
    appendFileSync(report, `${JSON.stringify(stats)}\n`);
    // The slowest input is kept too, for a look at where time goes.
    if (slowestInput) save(`${property}-slowest`, slowestInput);
  }
  if (!result.failed) {
    if (result.interrupted) throw new Error(`${property}: interrupted after ${result.numRuns} runs`);
    return stats;
  }
  const input = result.counterexample?.[0];
  const saved = input ? save(`${property}-${result.seed}-${result.counterexamplePath ?? ''}`, input) : '';
  const out = lastFailure;
  const lines = [
    `fuzz property "${property}" failed after ${result.numRuns} case(s) (${result.numShrinks} shrinks)`,
    `  replay: FLAMELENS_FUZZ_SEED=${result.seed} FLAMELENS_FUZZ_PATH=${result.counterexamplePath ?? ''} node_modules/.bin/vitest run test/fuzz -t "${property}"`,
    input
      ? `  input: ${input.label}; name ${JSON.stringify(input.name)}; ${input.bytes.length} bytes; chunks of ${input.chunk}${input.direct ? `; parsed as ${input.direct} whatever its head says` : ''}; saved to ${saved}`
      : '',
    input && input.bytes.length <= 400 ? `  bytes (latin1): ${JSON.stringify(Buffer.from(input.bytes).toString('latin1'))}` : '',
    out ? `  outcome: ${describeOutcome(out)}` : '',
    `  verdict: ${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}`,
  ];
  throw new Error(lines.filter((l) => l !== '').join('\n'));
}

/** One summary line per property, for the test log. */
export function summarize(s: FuzzStats): string {
  const kinds = Object.entries(s.outcomes)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  return `${s.property}: ${s.runs} cases, ${(s.bytes / 1e6).toFixed(1)} MB, ${(s.ms / 1000).toFixed(1)} s; slowest ${s.slowest.ms} ms (${s.slowest.bytes} bytes: ${s.slowest.label.slice(0, 120)}); ${kinds}`;
}

export interface SuiteProperty {
  /** shown in the test name and the statistics */
  property: string;
  arb: fc.Arbitrary<FuzzInput>;
  /** share of the per-format runs */
  fraction: number;
  /** at least this many cases */
  min?: number;
  /** expected cost of one case, for the test timeout */
  msPerCase?: number;
  /** hard limit per case, when not `CASE_MS` */
  caseMs?: number;
}

/**
 * A describe block with one test per property, each with its own worker. The properties run
 * concurrently: Vitest runs one test file at a time on a two-core machine, and the workers are
 * where the work is.
 */
export function fuzzSuite(title: string, properties: SuiteProperty[]): void {
  describe.concurrent(title, () => {
    for (const p of properties) {
      const runs = share(p.fraction, p.min);
      it(
        `${p.property}: ${runs} cases`,
        async () => {
          const stats = await fuzz(p.property, p.arb, runs, p.caseMs);
          console.log(summarize(stats));
        },
        timeoutFor(runs, p.msPerCase) + SHRINK_MS,
      );
    }
  });
}
