#!/usr/bin/env node
// Makes sure a system Chromium exists for the e2e suite (playwright-core drives /usr/bin/chromium).
// Never downloads Playwright's own browsers: it installs the distribution package instead.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

if (existsSync(CHROMIUM)) {
  console.log(`ensure-chromium: ${CHROMIUM} already present, nothing to do.`);
  process.exit(0);
}

console.log(`ensure-chromium: ${CHROMIUM} is missing; running apt-get update && apt-get install -y chromium`);
try {
  execSync('apt-get update && apt-get install -y chromium', {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
} catch (error) {
  console.error('ensure-chromium: installation failed.', error instanceof Error ? error.message : error);
  process.exit(1);
}

if (!existsSync(CHROMIUM)) {
  console.error(`ensure-chromium: apt-get finished but ${CHROMIUM} still does not exist.`);
  process.exit(1);
}
console.log(`ensure-chromium: installed ${CHROMIUM}.`);
