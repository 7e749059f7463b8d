// Synthetic profiles for benchmarks: folded stacks whose call tree has a chosen number of nodes,
// shaped like a server profile (a few hot paths, a long tail, depths up to ~60). Deterministic.

/** A small deterministic PRNG (mulberry32), so every run measures the same input. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MODULES = ['node_modules/fastify/lib/', 'node_modules/dd-trace/src/', 'node:internal/', 'app/lib/', 'node_modules/pino/lib/'];

/**
 * Folded text whose tree has about `nodes` nodes. Each line extends a random existing stack by a
 * few frames, so the tree branches everywhere; `seed` varies the runs.
 */
export function syntheticFolded(nodes, seed = 1) {
  const rand = rng(seed);
  const names = Array.from({ length: 6000 }, (_, i) => `fn${i}_${MODULES[i % MODULES.length].replace(/[/:]/g, '_')}`);
  const stacks = [[]];
  const lines = [];
  let count = 0;
  while (count < nodes) {
    const base = stacks[Math.floor(Math.pow(rand(), 1.5) * stacks.length)];
    const extra = 1 + Math.floor(rand() * 4);
    const s = base.slice(0, Math.max(1, Math.floor(rand() * (base.length + 1))));
    for (let i = 0; i < extra && s.length < 60; i++) {
      s.push(names[Math.floor(Math.pow(rand(), 2) * names.length)]);
      count++;
    }
    stacks.push(s);
    lines.push(`${s.join(';')} ${1 + Math.floor(Math.pow(rand(), 4) * 200)}`);
  }
  return lines.join('\n') + '\n';
}
