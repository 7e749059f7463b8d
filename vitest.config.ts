import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'renderer/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'threads',
  },
});
