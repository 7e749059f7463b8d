// Types for scripts/bench/app-report.mjs (its unit test is TypeScript).
export interface AppRow {
  format: string;
  label?: string;
  sizeMB: number;
  bytes: number;
  limitMs?: number;
  cliMs: number;
  navigationMs: number;
  ratio: number;
  longestTaskMs: number;
  rendererPeakBytes?: number;
  rendererPerFile?: number;
  cliPeakRssBytes?: number;
  cliPerFile?: number;
  /** CPU ms from navigation until drawn, by kind of process (renderer, network, browser, gpu, server, …) */
  appCpuMs?: Record<string, number>;
  /** the command's CPU ms */
  cliCpuMs?: number;
}
export const APP_TARGETS: Record<
  'ratio' | 'longestTaskMs' | 'rendererPerFile' | 'cliPerFile',
  { limit: number; within: boolean; text: string }
>;
export function appTargets(a: AppRow): { key: string; what: string; value: string; met: boolean }[];
/** the app path on a file of three lines: its fixed costs */
export interface AppStart {
  navigationMs: number;
  cliMs: number;
}
export function appTable(rows: AppRow[], repeat: number, start?: AppStart): string[];
export function startLines(start: AppStart): string[];
export function cpuTable(rows: AppRow[]): string[];
