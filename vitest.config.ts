import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The Worker's Durable Object classes run in Node in test/support/worker-inprocess.ts.
    alias: { 'cloudflare:workers': fileURLToPath(new URL('test/support/cloudflare-workers.ts', import.meta.url)) },
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Builds the one shared site the browser and page tests read (skipped when none of them is selected).
    globalSetup: ['test/global-setup.ts'],
  },
});
