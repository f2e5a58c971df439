import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Browser tests against the built server (`pnpm run build` first). Run: vitest run --config e2e/vitest.config.ts */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/support/server.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
