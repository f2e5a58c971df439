#!/usr/bin/env node
// Makes sure Debian's ffmpeg (ffmpeg + ffprobe) exists: the server makes each movie's renditions and posters with it,
// and the tests and `pnpm bench:transcode` run it for real. Installs the distribution package, like
// ensure-chromium.mjs does for the browser.
//
// `--optional` (used by `pnpm start` and `pnpm demo`): when it cannot be installed (no root, no network), say so and
// go on, because the server runs without ffmpeg too (originals only, said in its log and on the admin Movies tab).
import { execSync } from 'node:child_process';

const optional = process.argv.includes('--optional');

function present() {
  try {
    execSync('ffmpeg -hide_banner -version && ffprobe -hide_banner -version', { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

if (present()) {
  console.log('ensure-ffmpeg: ffmpeg and ffprobe already present, nothing to do.');
  process.exit(0);
}

console.log(
  'ensure-ffmpeg: ffmpeg is missing; running apt-get update && apt-get install -y --no-install-recommends ffmpeg',
);
try {
  execSync('apt-get update && apt-get install -y --no-install-recommends ffmpeg', {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  if (optional) {
    console.warn(`ensure-ffmpeg: could not install ffmpeg (${reason}); the server will serve originals only.`);
    process.exit(0);
  }
  console.error('ensure-ffmpeg: installation failed.', reason);
  process.exit(1);
}

if (!present()) {
  if (optional) {
    console.warn(
      'ensure-ffmpeg: apt-get finished but ffmpeg still does not run; the server will serve originals only.',
    );
    process.exit(0);
  }
  console.error('ensure-ffmpeg: apt-get finished but ffmpeg still does not run.');
  process.exit(1);
}
console.log('ensure-ffmpeg: installed ffmpeg and ffprobe.');
