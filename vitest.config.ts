import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Builds the one shared site the browser and page tests read (skipped when none of them is selected).
    globalSetup: ['test/global-setup.ts'],
  },
});
