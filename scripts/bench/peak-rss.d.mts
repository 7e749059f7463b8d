// Types for scripts/bench/peak-rss.mjs (its unit test is TypeScript).
export function runWithPeak(
  args: readonly string[],
  cwd: string | URL,
): { ms: number; peakRssBytes: number | undefined; cpuMs: number | undefined; status: number | null; stderr: string };
