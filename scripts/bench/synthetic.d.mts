// Types for scripts/bench/synthetic.mjs (the import runner, TypeScript, uses its generator).
export function rng(seed: number): () => number;
export function syntheticFolded(nodes: number, seed?: number): string;
