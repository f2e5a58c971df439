import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'shared/src/**/*.test.ts',
      'api/src/**/*.test.ts',
      'api/test/**/*.test.ts',
      'api/demo/**/*.test.ts',
      'pwa/src/**/*.test.{ts,tsx}',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
