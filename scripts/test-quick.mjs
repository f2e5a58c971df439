#!/usr/bin/env node
// The inner loop (decision 0189): the whole `unit` tier, then the `integration` tests in the API folders with
// uncommitted changes, on PGlite. Every integration test reaches the whole app through the harness, so "tests that
// import a changed file" would be all of them; the folder is what a feature owns, its tests beside its code.
// `pnpm test:integration` runs the whole tier.
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname } from 'node:path';

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);
const changed = [...git('diff', '--name-only', 'HEAD'), ...git('ls-files', '--others', '--exclude-standard')];
const folders = [...new Set(changed.filter((file) => file.startsWith('api/')).map((file) => `${dirname(file)}/`))];

function vitest(args, env = {}) {
  const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...args], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return run.status ?? 1;
}

let status = vitest(['--project', 'unit']);
if (status === 0 && folders.length > 0) {
  console.log(`integration tests in ${folders.join(', ')}`);
  status = vitest(['--project', 'integration', '--passWithNoTests', ...folders], { DATABASE_URL: '' });
}
process.exit(status);
