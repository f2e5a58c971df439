#!/usr/bin/env node
// `pnpm test`: every check and test tier, then a table of what each phase cost (also when one fails), so the next
// change sees what it added to the line (decision 0226). A stage's phases run side by side; the first stage with a
// failure stops the line, since later stages would only repeat its cause.
//
// The files that need the machine to themselves (vitest project `alone`) leave a core idle, so the check (types,
// lint, formatting, docs, structure: it reads files and writes none) runs beside them at the lowest CPU priority
// (nice 19): the kernel hands it the core the stall sweep does not use and takes it back the moment the sweep's
// server wants it, as it does for encodes beside serving (decision 0162).
import { spawn } from 'node:child_process';

/** `pnpm run` puts node_modules/.bin first on the PATH, and the workspace pins pnpm there as a devDependency. */
const pnpm = (...args) => ({ command: 'pnpm', args });
const niced = ({ command, args }) => ({ command: 'nice', args: ['-n', '19', command, ...args] });

const STAGES = [
  [['unit, integration and deep tests', [pnpm('run', 'test:tiers')]]],
  [
    ['tests that need the machine alone', [pnpm('run', 'test:alone')]],
    ['check (nice 19, beside them)', [niced(pnpm('run', 'check'))]],
  ],
  // Not beside them: a test server started mid-build would read a half-written pwa/dist.
  [['build and size budget', [pnpm('run', 'build'), pnpm('--filter', './pwa', 'run', 'size')]]],
  [['browser tests', [pnpm('run', 'test:e2e')]]],
  [['lighthouse', [pnpm('run', 'lighthouse', '--', '--assert')]]],
];

const run = ({ command, args }) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.on('error', () => resolve('could not start'));
    child.on('exit', (code, signal) => resolve(code === 0 ? null : (signal ?? `exit ${code}`)));
  });

/** Runs a phase's commands in turn; resolves its row: name, milliseconds, outcome. */
async function phase([name, commands]) {
  const start = Date.now();
  for (const command of commands) {
    const failure = await run(command);
    if (failure) return [name, Date.now() - start, `failed (${command.args.join(' ')}: ${failure})`];
  }
  return [name, Date.now() - start, 'passed'];
}

const minutes = (ms) => `${Math.floor(ms / 60_000)}:${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}`;
const rows = [];
const lineStart = Date.now();
let failed = false;
for (const stage of STAGES) {
  if (failed) {
    rows.push(...stage.map(([name]) => [name, 0, 'not run']));
    continue;
  }
  const results = await Promise.all(stage.map(phase));
  rows.push(...results);
  failed = results.some(([, , outcome]) => outcome !== 'passed');
}

const width = Math.max(...rows.map(([name]) => name.length));
console.log('\nTest line, per phase (minutes:seconds; phases of one stage run side by side):');
for (const [name, ms, outcome] of rows) console.log(`  ${name.padEnd(width)}  ${minutes(ms).padStart(6)}  ${outcome}`);
console.log(`  ${'total'.padEnd(width)}  ${minutes(Date.now() - lineStart).padStart(6)}`);
process.exit(failed ? 1 : 0);
