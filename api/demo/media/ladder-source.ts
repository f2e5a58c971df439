import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DemoMovieOptions, renderDemoMovieFrames } from './index.ts';

/** The height the demo's clips are made at with ffmpeg: the top of the ladder, so Small, Standard and HD are all made. */
const LADDER_SOURCE = { width: 1280, height: 720 } as const;

/**
 * The demo clip as a film the rendition ladder can work on: the same frames, scaled to 720p with moving grain (a
 * flat picture would encode to almost nothing, and every size would read "12 KB · ≈ UGX 0"), H.264 with a silent
 * stereo AAC track. Null when ffmpeg cannot be run here: the demo then uploads the small pure-TypeScript clip, and a
 * server with ffmpeg makes only its Small.
 */
export function ladderSourceMovie(
  options: DemoMovieOptions,
  ffmpeg = process.env.FFMPEG_PATH || 'ffmpeg',
): Buffer | null {
  const frames = [...renderDemoMovieFrames(options)];
  const first = frames[0];
  if (!first) return null;
  const fps = options.fps ?? 8;
  const seconds = frames.length / fps;
  const { width, height } = LADDER_SOURCE;
  // MP4 with its index at the front needs a seekable output: a file, not a pipe.
  const dir = mkdtempSync(join(tmpdir(), 'filamu-demo-clip-'));
  const output = join(dir, 'clip.mp4');
  try {
    const result = spawnSync(
      ffmpeg,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-s',
        `${first.width}x${first.height}`,
        '-r',
        String(fps),
        '-i',
        'pipe:0',
        '-f',
        'lavfi',
        '-i',
        `anullsrc=r=48000:cl=stereo`,
        '-t',
        String(seconds),
        '-vf',
        `scale=${width}:${height}:flags=bicubic,noise=alls=8:allf=t,format=yuv420p`,
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-crf',
        '26',
        '-c:a',
        'aac',
        '-b:a',
        '96k',
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
        output,
      ],
      { input: Buffer.concat(frames.map((f) => Buffer.from(f.data))), stdio: ['pipe', 'ignore', 'ignore'] },
    );
    if (result.error || result.status !== 0) return null;
    return readFileSync(output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
