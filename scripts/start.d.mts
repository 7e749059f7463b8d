// Types for the helpers scripts/start.mjs exports (its unit test is TypeScript).
export function staleReason(dir?: string): string | null;
export function openArgs(argv: readonly string[], cwd: string): string[];
