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
    // The AWS SDK warns once per process that releases after January 2027 need Node 22; the lockfile pins it.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
