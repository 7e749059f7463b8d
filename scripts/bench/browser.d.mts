// Types for scripts/bench/browser.mjs (unit tests are TypeScript).
import type { ChildProcess } from 'node:child_process';
import type { Page } from 'playwright-core';

export const CHROMIUM: string;
export const SECRET: string;
export function recordLongTasks(page: Page): Promise<void>;
export function serve(files: string[], port: number, secret?: string): Promise<ChildProcess>;
