// Writes the device check page's sample clips (decision 0253): three seconds of each rendition, encoded by the
// ladder's own arguments (encodeArgs), into pwa/public/device-check/<kind>.mp4, which are committed. Run it again when
// the ladder changes: `pnpm --filter ./api exec node --import tsx ../scripts/device-check-clips.ts`. The source is colour bars with a moving square and a
// tone, so the clips stay a few kilobytes while showing that the picture moves and the sound plays.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeArgs, LADDER } from '../api/src/features/transcode/ladder.ts';

const SECONDS = 3;
const OUT_DIR = join(import.meta.dirname, '..', 'pwa', 'public', 'device-check');

function ffmpeg(args: string[]): void {
  const run = spawnSync('ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`ffmpeg failed: ${run.stderr.slice(-2000)}`);
}

const work = mkdtempSync(join(tmpdir(), 'device-check-clips-'));
try {
  const source = join(work, 'source.mp4');
  ffmpeg([
    '-hide_banner',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `smptehdbars=size=1280x720:rate=30:duration=${SECONDS}`,
    '-f',
    'lavfi',
    '-i',
    `color=c=white:size=120x120:rate=30:duration=${SECONDS}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:sample_rate=48000:duration=${SECONDS}`,
    '-filter_complex',
    `[0:v][1:v]overlay=x='t*(W-w)/${SECONDS}':y=(H-h)/2[v]`,
    '-map',
    '[v]',
    '-map',
    '2:a',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '12',
    '-c:a',
    'aac',
    '-ac',
    '2',
    '-shortest',
    source,
  ]);
  mkdirSync(OUT_DIR, { recursive: true });
  for (const step of LADDER) {
    const output = join(OUT_DIR, `${step.kind}.mp4`);
    ffmpeg(encodeArgs(step, { input: source, output, hasAudio: true, durationSeconds: SECONDS }));
    console.log(`${step.kind.padEnd(10)} ${String(statSync(output).size).padStart(7)} bytes  ${output}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
