import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Three tiers (decision 0189). `unit`: no database, no child process, no ffmpeg — seconds. `integration`: API tests
 * on fresh databases through the harness. `deep`: server processes, real ffmpeg, the two request sweeps — minutes.
 * `pnpm test:quick` (the inner loop) runs unit + integration; `pnpm test:unit` (and so `pnpm test`) runs all three.
 */
const root = import.meta.dirname;

/**
 * Files that need the machine to themselves, so they run last and one at a time (their own group, one worker): the
 * stall sweep times how long a request holds a server's event loop, and the process transcode tests wait on real
 * encodes, which run at nice 19 (decision 0162) and so all but stop while another file keeps both cores busy.
 */
const alone = ['api/test/stall-sweep.test.ts', 'api/test/processes/transcode.test.ts'];

/** Slow by nature: spawned servers, real ffmpeg encodes, and the sweeps that send thousands of requests. */
const deep = [
  'api/test/processes/**/*.test.ts',
  'api/test/bad-input-sweep.*.test.ts',
  ...alone,
  'api/src/features/transcode/transcode.test.ts',
  'api/src/features/transcode/backfill.test.ts',
  'api/src/features/transcode/s3-transcode.test.ts',
  'api/src/features/transcode/ffmpeg-guards.test.ts',
  'api/src/features/posters/posters.test.ts',
  'api/src/features/content-keys/film-encryption.test.ts',
];

function testFilesUnder(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts') && !name.includes('node_modules'))
    .map((name) => relative(root, join(root, folder, name)));
}

/**
 * An API test belongs to `integration` when it opens a database (through the harness or directly); read from the
 * file itself so a new test lands in the right tier without anyone editing a list.
 */
const opensDatabase = /\b(testDatabases|freshDatabase|createTestApp|openDatabase)\b/;
const apiTests = [...testFilesUnder('api/src'), ...testFilesUnder('api/test'), ...testFilesUnder('api/demo')];
const apiIntegration = apiTests.filter((file) => opensDatabase.test(readFileSync(join(root, file), 'utf8')));
const apiUnit = apiTests.filter((file) => !apiIntegration.includes(file));

/**
 * Test files at once. Vitest's default on two cores is one, which leaves a core idle while a test waits on Postgres, a
 * child server or ffmpeg; two keep both busy (decision 0226). TEST_WORKERS changes it.
 */
const workers = Math.max(1, Number(process.env.TEST_WORKERS ?? 2));

export default defineConfig({
  test: {
    maxWorkers: workers,
    // The AWS SDK warns once per process that releases after January 2027 need Node 22; the lockfile pins it.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ['./scripts/test-setup/console-fails.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'shared/src/**/*.test.ts',
            'pwa/src/**/*.test.{ts,tsx}',
            'scripts/test-setup/*.test.ts',
            ...apiUnit,
          ],
          exclude: deep,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: apiIntegration,
          exclude: deep,
          globalSetup: ['./api/test/template-databases.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'deep',
          include: deep,
          exclude: alone,
          globalSetup: ['./api/test/template-databases.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: alone,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
