import { randomBytes } from 'node:crypto';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS } from './scripts/chromium-flags.mjs';

/**
 * End-to-end tests drive the built app as a person would. The browser project runs the same UI
 * that `npm start` opens where no Electron binary exists, served by `flamelens open --no-browser`,
 * in Debian's Chromium. The electron project launches the real app where a binary exists and
 * reports itself as skipped, with the reason, where not.
 */
const PORT = Number(process.env.FLAMELENS_E2E_PORT ?? 4517);
// The local server requires a secret in every path (node/server/serve.ts). The runner sets
// it once; its test workers inherit the environment, so all agree on the address.
process.env.FLAMELENS_SERVER_SECRET ||= `e2e-${randomBytes(18).toString('base64url')}`;
const SECRET = process.env.FLAMELENS_SERVER_SECRET;
const CHROMIUM_ARGS = CHROMIUM_FLAGS;

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}/${SECRET}/`,
    viewport: { width: 1400, height: 900 },
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'browser',
      testIgnore: /electron\.spec\.ts/,
      use: {
        browserName: 'chromium',
        launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
      },
    },
    { name: 'electron', testMatch: /electron\.spec\.ts/ },
  ],
  webServer: {
    command: `node bin/flamelens.mjs open --no-browser --port ${PORT}`,
    url: `http://127.0.0.1:${PORT}/${SECRET}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
    stdout: 'pipe',
  },
});
