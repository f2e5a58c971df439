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
  /** H.264 for every phone; HEVC for the Small that phones with a hardware HEVC decoder fetch (issue 20/22). */
  videoCodec: 'h264' | 'hevc';
  /** AAC-LC everywhere; Opus beside HEVC, where it does more with fewer bits. */
  audioCodec: 'aac' | 'opus';
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

const H264_AAC = { videoCodec: 'h264', audioCodec: 'aac' } as const;

export const LADDER: readonly LadderStep[] = [
  step('small', {
    ...H264_AAC,
    crf: 27,
    preset: 'veryfast',
    profile: 'main',
    level: '3.0',
    audioBitsPerSecond: 48_000,
  }),
  // HEVC Main, level 3 (360p at up to 30 fps): the codec string phones are asked about is SMALL_HEVC_DECODING.
  step('small-hevc', {
    videoCodec: 'hevc',
    audioCodec: 'opus',
    crf: 28,
    preset: 'medium',
    profile: 'main',
    level: '3.0',
    audioBitsPerSecond: 40_000,
  }),
  step('standard', {
    ...H264_AAC,
    crf: 25,
    preset: 'veryfast',
    profile: 'main',
    level: '3.1',
    audioBitsPerSecond: 64_000,
  }),
  step('hd', { ...H264_AAC, crf: 23, preset: 'veryfast', profile: 'main', level: '3.1', audioBitsPerSecond: 96_000 }),
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
/**
 * The encoder's own arguments. x265 takes its level and rate buffer through `-x265-params` (ffmpeg maps
 * `-maxrate`/`-bufsize` for it, not the level or the initial fill), tags the track `hvc1` (the tag Chrome and Android
 * expect in MP4) and makes every forced keyframe an IDR so a seek can start there.
 */
function videoEncoder(step: LadderStep, rate: number): string[] {
  const rateCap = ['-crf', String(step.crf), '-maxrate', String(rate), '-bufsize', String(rate * 2)];
  if (step.videoCodec === 'hevc') {
    const level = step.level.replace('.', '');
    const params = [`level-idc=${level}`, `vbv-init=${INITIAL_BUFFER_SECONDS / 2}`, 'log-level=error'];
    return [
      '-c:v',
      'libx265',
      '-preset',
      step.preset,
      ...rateCap,
      '-profile:v',
      step.profile,
      '-x265-params',
      params.join(':'),
      '-forced-idr',
      '1',
      '-tag:v',
      'hvc1',
    ];
  }
  return [
    '-c:v',
    'libx264',
    '-preset',
    step.preset,
    ...rateCap,
    '-rc_init_occupancy',
    String(rate * INITIAL_BUFFER_SECONDS),
    '-profile:v',
    step.profile,
    '-level:v',
    step.level,
  ];
}

function audioEncoder(step: LadderStep): string[] {
  const codec = step.audioCodec === 'opus' ? ['-c:a', 'libopus'] : ['-c:a', 'aac', '-profile:a', 'aac_low'];
  return ['-map', '0:a:0', ...codec, '-ac', '2', '-b:a', String(step.audioBitsPerSecond)];
}

export function encodeArgs(step: LadderStep, io: EncodeInput): string[] {
  const rate = videoRateFor(step, io.durationSeconds);
  const video = [
    '-map',
    '0:v:0',
    // Never upscale; an even width keeps the aspect ratio (H.264 and HEVC need even dimensions).
    '-vf',
    `scale=-2:'min(${step.height},ih)':flags=bicubic,format=yuv420p`,
    ...videoEncoder(step, rate),
    // A keyframe every two seconds, whatever the frame rate, so seeking lands close on a slow phone.
    '-force_key_frames',
    'expr:gte(t,n_forced*2)',
    // Main@3.1 is 720p at up to 30 frames a second (decision 0142): a 50/60 fps upload is brought down to 30.
    '-fpsmax',
    '30',
    '-threads',
    String(FFMPEG_THREADS),
  ];
  const audio = io.hasAudio ? audioEncoder(step) : ['-an'];
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
