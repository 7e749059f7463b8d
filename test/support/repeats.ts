/** Generated repeated runs of one load, with run-to-run noise and planted changes, as folded text (for the repeats tests). */

/** A seeded generator (mulberry32) and normal draws from it (Box–Muller). */
export function random(seed: number): { uniform(): number; normal(): number } {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { uniform, normal: () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform()) };
}

export const FUNCTIONS = 80;
/** each function's expected samples per run: a long tail, as real profiles have */
export const BASE_WEIGHT = Array.from({ length: FUNCTIONS }, (_, i) => Math.round(40_000 / (1 + i * 0.35)));

/**
 * Run-to-run variation, larger than sampling noise for all but the lightest functions: a factor
 * the whole run shares (load, CPU frequency; sd 1.5%) and each function's own drift in each run
 * (GC and JIT timing; sd 1.5%).
 */
const RUN_SD = 0.015;
const DRIFT_SD = 0.015;

export interface Plan {
  /** factor on a function's weight (by index) in this variant */
  factor?: Record<number, number>;
  /** a function the variant adds, with its weight */
  extra?: number;
  /**
   * a factor of each repeat, drawn uniformly from [1 − swing, 1 + swing], on every function of
   * it (a loaded machine scaling a run's CPU time as a whole); none by default
   */
  swing?: number;
  /** the added function's own drift from run to run (sd of its log; default that of every function) */
  extraDrift?: number;
  /** how many more functions the run has of about one sample each (Poisson, mean 1), as real profiles have hundreds */
  tiny?: number;
}

/**
 * One repeat's folded profile: each function's samples are its weight × a factor the whole run
 * shares (load, CPU frequency; with `swing`, a wide one) × its own drift in this run (GC, JIT
 * timing) × the planted change, plus sampling (Poisson) noise.
 */
export function repeat(rng: ReturnType<typeof random>, plan: Plan): string {
  const swing = plan.swing ? 1 + plan.swing * (2 * rng.uniform() - 1) : 1;
  const runFactor = swing * Math.exp(RUN_SD * rng.normal());
  const lines: string[] = [];
  BASE_WEIGHT.forEach((w, i) => {
    const mean = w * runFactor * Math.exp(DRIFT_SD * rng.normal()) * (plan.factor?.[i] ?? 1);
    const n = Math.max(0, Math.round(mean + Math.sqrt(mean) * rng.normal()));
    if (n > 0) lines.push(`main;handler;f${i} ${n}`);
  });
  if (plan.extra)
    lines.push(
      `main;handler;agentWrap;newFn ${Math.round(plan.extra * runFactor * Math.exp((plan.extraDrift ?? DRIFT_SD) * rng.normal()))}`,
    );
  for (let i = 0; i < (plan.tiny ?? 0); i++) {
    const n = poisson(rng, 1);
    if (n > 0) lines.push(`main;handler;tiny${i} ${n}`);
  }
  return lines.join('\n');
}

/** A Poisson draw of a small mean (Knuth's method). */
function poisson(rng: ReturnType<typeof random>, mean: number): number {
  const limit = Math.exp(-mean);
  let n = 0;
  for (let p = rng.uniform(); p > limit; p *= rng.uniform()) n++;
  return n;
}
