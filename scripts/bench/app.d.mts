// Types for scripts/bench/app.mjs (its unit test is TypeScript).
import type { Page } from 'playwright-core';

export function watchDrawn(panes: number): void;
export function timeUntilDrawn(page: Page, url: string, timeoutMs?: number): Promise<{ navigationMs: number; drawnAt: number }>;
export function benchApp(opts: { files: string[]; repeat?: number; quietMs?: number; port?: number }): Promise<{
  navigationMs: number;
  cliMs: number;
  ratio: number;
  longestTaskMs: number;
  rendererPeakBytes: number | undefined;
  cliPeakRssBytes: number;
  runs: unknown[];
}>;
/** The pid of the browser process launched with `mark` on its command line (Linux), or undefined. */
export function browserPid(mark: string): number | undefined;
