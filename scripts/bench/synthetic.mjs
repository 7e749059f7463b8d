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
 * Folded text whose call tree has exactly `nodes` nodes besides the root. Each line extends a
 * random existing stack by a few frames, so the tree branches everywhere; `seed` varies the runs.
 * Only frames that make a new tree node count (a frame repeating an existing path does not).
 */
export function syntheticFolded(nodes, seed = 1) {
  const rand = rng(seed);
  const names = Array.from({ length: 6000 }, (_, i) => `fn${i}_${MODULES[i % MODULES.length].replace(/[/:]/g, '_')}`);
  // tree nodes by (parent node, name index); node 0 is the root
  const child = new Map();
  let count = 0;
  const stacks = [{ names: [], ids: [0] }];
  const lines = [];
  while (count < nodes) {
    const base = stacks[Math.floor(Math.pow(rand(), 1.5) * stacks.length)];
    const extra = 1 + Math.floor(rand() * 4);
    const keep = Math.max(1, Math.floor(rand() * (base.names.length + 1)));
    const s = { names: base.names.slice(0, keep), ids: base.ids.slice(0, keep + 1) };
    for (let i = 0; i < extra && s.names.length < 60 && count < nodes; i++) {
      const name = Math.floor(Math.pow(rand(), 2) * names.length);
      const key = s.ids[s.ids.length - 1] * names.length + name;
      let id = child.get(key);
      if (id === undefined) child.set(key, (id = ++count));
      s.names.push(names[name]);
      s.ids.push(id);
    }
    if (s.names.length === 0) continue;
    stacks.push(s);
    lines.push(`${s.names.join(';')} ${1 + Math.floor(Math.pow(rand(), 4) * 200)}`);
  }
  return lines.join('\n') + '\n';
}
