import { RENDITION_TARGETS, type RenditionKind } from '@filamu/shared';
import { FFMPEG_THREADS, inputGuards, MAX_FRAME_PIXELS, VIDEO_FORMATS } from '../../lib/ffmpeg.ts';

/**
 * How each rendition is encoded (decision 0124): H.264 that every Android phone of the last ten years decodes in
 * hardware, AAC-LC stereo, MP4 with the index at the front and a keyframe every two seconds for seeking. The quality
 * target is a CRF capped by `-maxrate`/`-bufsize`, so a file's size is bounded by its duration: video gets the
 * rendition's total cap minus the audio and a margin for the container.
 *
 * The preset and CRF are chosen from `pnpm bench:transcode` (speed × real time, size against cap, SSIM): decision 0142.
 */
export interface LadderStep {
  kind: RenditionKind;
  height: number;
  crf: number;
  preset: string;
  profile: 'baseline' | 'main' | 'high';
  level: string;
  audioBitsPerSecond: number;
  videoMaxBitsPerSecond: number;
}

/** Share of the total cap kept for the MP4 container (headers, index, sample tables). */
const CONTAINER_MARGIN = 0.03;

function step(kind: RenditionKind, options: Omit<LadderStep, 'kind' | 'height' | 'videoMaxBitsPerSecond'>): LadderStep {
  const target = RENDITION_TARGETS[kind];
  const videoMax = Math.floor(target.maxTotalBitsPerSecond * (1 - CONTAINER_MARGIN) - options.audioBitsPerSecond);
  return { kind, height: target.height, videoMaxBitsPerSecond: videoMax, ...options };
}

export const LADDER: readonly LadderStep[] = [
  step('small', { crf: 27, preset: 'veryfast', profile: 'main', level: '3.0', audioBitsPerSecond: 48_000 }),
  step('standard', { crf: 25, preset: 'veryfast', profile: 'main', level: '3.1', audioBitsPerSecond: 64_000 }),
  step('hd', { crf: 23, preset: 'veryfast', profile: 'main', level: '3.1', audioBitsPerSecond: 96_000 }),
];

export function ladderStep(kind: RenditionKind): LadderStep {
  const found = LADDER.find((s) => s.kind === kind);
  if (!found) throw new Error(`unknown rendition ${kind}`);
  return found;
}

export interface EncodeInput {
  /** A local path or a URL ffmpeg can read with range requests (a presigned link). */
  input: string;
  /** The local file to write (moved to storage once complete). */
  output: string;
  /** The source has an audio stream (a silent film gets no audio track). */
  hasAudio: boolean;
  /** The source's duration from the probe, when known: a short clip gets a lower rate so it too stays under the cap. */
  durationSeconds?: number;
}

/** How many seconds of the maximum rate the encoder may spend before the first second has passed (its buffer's fill). */
const INITIAL_BUFFER_SECONDS = 1;

/**
 * The video rate cap for a source of this length. A rate-capped encoder may spend its initial buffer on top of
 * rate × duration, so a file is bounded by `rate × (duration + INITIAL_BUFFER_SECONDS)`; the rate is lowered by
 * duration / (duration + 1 s) so that bound is the rendition's own cap × duration. Over a film the change is nothing
 * (0.02 % for 90 minutes); over a 4-second clip it is what keeps the file under its cap.
 */
function videoRateFor(step: LadderStep, durationSeconds: number | undefined): number {
  if (!durationSeconds || !(durationSeconds > 0)) return step.videoMaxBitsPerSecond;
  return Math.floor((step.videoMaxBitsPerSecond * durationSeconds) / (durationSeconds + INITIAL_BUFFER_SECONDS));
}

/** ffmpeg's arguments for one rendition; progress goes to stdout as `key=value` lines (`-progress pipe:1`). */
export function encodeArgs(step: LadderStep, io: EncodeInput): string[] {
  const rate = videoRateFor(step, io.durationSeconds);
  const video = [
    '-map',
    '0:v:0',
    // Never upscale; an even width keeps the aspect ratio (H.264 needs even dimensions).
    '-vf',
    `scale=-2:'min(${step.height},ih)':flags=bicubic,format=yuv420p`,
    '-c:v',
    'libx264',
    '-preset',
    step.preset,
    '-crf',
    String(step.crf),
    '-maxrate',
    String(rate),
    '-bufsize',
    String(rate * 2),
    '-rc_init_occupancy',
    String(rate * INITIAL_BUFFER_SECONDS),
    '-profile:v',
    step.profile,
    '-level:v',
    step.level,
    // A keyframe every two seconds, whatever the frame rate, so seeking lands close on a slow phone.
    '-force_key_frames',
    'expr:gte(t,n_forced*2)',
    // Main@3.1 is 720p at up to 30 frames a second (decision 0142): a 50/60 fps upload is brought down to 30.
    '-fpsmax',
    '30',
    '-threads',
    String(FFMPEG_THREADS),
  ];
  const audio = io.hasAudio
    ? ['-map', '0:a:0', '-c:a', 'aac', '-profile:a', 'aac_low', '-ac', '2', '-b:a', String(step.audioBitsPerSecond)]
    : ['-an'];
  return [
    '-hide_banner',
    '-nostdin',
    '-y',
    ...inputGuards(io.input, VIDEO_FORMATS),
    '-max_pixels',
    String(MAX_FRAME_PIXELS),
    '-threads',
    String(FFMPEG_THREADS),
    '-i',
    io.input,
    ...video,
    ...audio,
    '-sn',
    '-dn',
    '-map_metadata',
    '-1',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    '-progress',
    'pipe:1',
    '-nostats',
    io.output,
  ];
}
