import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IMAGE_FORMATS, inputGuards, MAX_FRAME_PIXELS, VIDEO_FORMATS } from '../../lib/ffmpeg.ts';
import { runFfmpeg } from './ffmpeg.ts';

/**
 * The widths posters are made in (decision 0143): a library card is about 170 CSS px wide on a 360 px phone and
 * 270 px at most on a wide screen, so 160/320/480 cover one- to two-times screens without sending the full picture.
 */
export const POSTER_WIDTHS = [160, 320, 480] as const;

/** WebP quality: posters are small and seen briefly on a card; 70 keeps them sharp at a few KB. */
const WEBP_QUALITY = 70;
/** A poster pass never waits longer than this on one movie (a slow or unreachable link). */
const FFMPEG_TIMEOUT_MS = 120_000;

/** A picture (the admin's thumbnail) or a video (a frame a few seconds in becomes the poster). */
export type PosterSource = { kind: 'image'; input: string } | { kind: 'video'; input: string; seekSeconds: number };

/** Where in the video the poster frame is taken: a few seconds in (past a black first frame), never past its middle. */
export function posterFrameSeconds(durationSeconds: number | null): number {
  const preferred = 5;
  return durationSeconds === null ? preferred : Math.max(0, Math.min(preferred, durationSeconds / 2));
}

/** ffmpeg found no picture where it looked (a seek past the end of a short video). */
export class NoFrameError extends Error {
  constructor() {
    super('ffmpeg wrote no frame');
  }
}

function isWebp(body: Uint8Array): boolean {
  const text = (from: number, to: number) => String.fromCharCode(...body.subarray(from, to));
  return body.length > 12 && text(0, 4) === 'RIFF' && text(8, 12) === 'WEBP';
}

/** Makes the poster in every width with one ffmpeg run; returns the WebP bytes per width. */
export async function makePosters(source: PosterSource): Promise<{ width: number; body: Uint8Array }[]> {
  const dir = await mkdtemp(join(tmpdir(), 'filamu-poster-'));
  try {
    const outputs = POSTER_WIDTHS.map((width) => ({ width, path: join(dir, `${width}.webp`) }));
    // `-ss` before `-i` seeks by the index (fast, even through a presigned link) instead of decoding up to there.
    // Only the containers and protocols a movie or a picture may come in, no picture over 4K (decision 0206).
    const guards = [
      ...inputGuards(source.input, source.kind === 'video' ? VIDEO_FORMATS : IMAGE_FORMATS),
      '-max_pixels',
      String(MAX_FRAME_PIXELS),
    ];
    const input =
      source.kind === 'video'
        ? [...guards, '-ss', String(source.seekSeconds), '-i', source.input]
        : [...guards, '-i', source.input];
    const split = `[0:v:0]split=${outputs.length}${outputs.map((_, i) => `[s${i}]`).join('')}`;
    const scales = outputs.map(({ width }, i) => `[s${i}]scale=${width}:-2:flags=lanczos,format=yuv420p[o${i}]`);
    const args = [...input, '-filter_complex', [split, ...scales].join(';')];
    for (const [i, { path }] of outputs.entries()) {
      args.push('-map', `[o${i}]`, '-frames:v', '1', '-c:v', 'libwebp', '-quality', String(WEBP_QUALITY));
      args.push('-map_metadata', '-1', '-f', 'webp', '-y', path);
    }
    await runFfmpeg(args, { timeoutMs: FFMPEG_TIMEOUT_MS });
    const posters = await Promise.all(
      outputs.map(async ({ width, path }) => ({ width, body: new Uint8Array(await readFile(path)) })),
    );
    // A seek past the end succeeds with no frame written (an 8-byte stub): that is no poster.
    if (!posters.every(({ body }) => isWebp(body))) throw new NoFrameError();
    return posters;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
