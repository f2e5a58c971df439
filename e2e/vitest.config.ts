import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { E2E_WORKERS } from './support/server.ts';

/** Browser tests against the built server (`pnpm run build` first). Run: vitest run --config e2e/vitest.config.ts */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/support/server.ts'],
    // A test's own steps wait (each locator up to 30 s); the test as a whole gets room for a slow host: the same line
    // has run twice as long from one evening to the next on this machine, and a timeout is not a speed measure.
    testTimeout: 120_000,
    // What a page shows after a request (a search applied, a list refetched) can take seconds beside another file's
    // browser on two cores; vitest's default second for expect.poll measured the machine, not the app.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
    // Files run E2E_WORKERS at a time (2 by default), each worker on a server of its own (support/server.ts).
    maxWorkers: E2E_WORKERS,
  },
});
