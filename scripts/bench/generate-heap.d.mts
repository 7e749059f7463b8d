// Types for scripts/bench/generate-heap.mjs (its unit test is TypeScript).
export function generateHeapSnapshot(
  path: string,
  target: number,
  options?: { copies?: number; pieceBytes?: number },
): {
  path: string;
  bytes: number;
  kind: 'json';
  nodes: number;
  edges: number;
  copies: number;
  pieces: { from: number; to: number; prefix: string; suffix: string }[];
};
