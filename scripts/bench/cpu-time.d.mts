// Types for scripts/bench/cpu-time.mjs (its unit test is TypeScript).
export function processKind(cmdline: string): string;
export function processCpuMs(pid: number): number;
export function treeCpuMs(root: number): Record<string, number>;
export function cpuSince(before: Record<string, number>, after: Record<string, number>): Record<string, number>;
