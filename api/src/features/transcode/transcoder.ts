import {
  boundReached,
  type ChildLimits,
  inputGuards,
  FFMPEG_THREADS,
  MAX_FRAME_PIXELS,
  MAX_FRAME_SIDE,
  MIB,
  type ProcessRun,
  runProcess as run,
  tailOf,
  VIDEO_FORMATS,
} from '../../lib/ffmpeg.ts';
import { encodeArgs, type EncodeInput, type LadderStep } from './ladder.ts';
import { type EncodeProgress, ProgressParser } from './progress.ts';

/** What ffprobe says about a file. */
export interface ProbeResult {
  durationSeconds: number | null;
  width: number;
  height: number;
  videoCodec: string;
  hasAudio: boolean;
  /** Total bitrate of the container (bits per second); null when ffprobe cannot tell. */
  bitsPerSecond: number | null;
}

/** A file ffprobe could read but that is no playable video (no video stream, audio only, corrupt). */
export class NotAVideoError extends Error {}

/** A video whose picture is larger than the app encodes: refused before any encode, with words for the admin. */
export class FrameTooLargeError extends NotAVideoError {
  constructor(width: number, height: number) {
    super(
      `The movie's picture is ${width}×${height} pixels; the largest accepted is 4K (${MAX_FRAME_SIDE} pixels on a ` +
        'side, 3840×2160 or 4096×2160). Export it at 1080p or 4K and upload it again.',
    );
  }
}

export function frameTooLarge(width: number, height: number): boolean {
  return width > MAX_FRAME_SIDE || height > MAX_FRAME_SIDE || width * height > MAX_FRAME_PIXELS;
}

/** ffmpeg ended with an error (its last lines of log in `message`), or was stopped. */
class EncodeError extends Error {}

/** ffmpeg and ffprobe behind one small interface (Deps.transcoder; null when they are not installed). */
export interface Transcoder {
  /** This ffmpeg has libx265 and libopus, so the HEVC Small is made; without them it is skipped (decision 0251). */
  readonly makesSmallHevc: boolean;
  /** Throws NotAVideoError when the input has no decodable video stream. */
  probe(input: string, signal?: AbortSignal): Promise<ProbeResult>;
  /** Encodes one rendition into `io.output`; rejects with EncodeError (or the signal's reason when aborted). */
  encode(
    step: LadderStep,
    io: EncodeInput & { durationSeconds: number },
    onProgress: (progress: EncodeProgress) => void,
    signal: AbortSignal,
  ): Promise<void>;
}

/** Log lines kept from ffmpeg's stderr for a failure message. */
const TAIL_LINES = 8;
const PROBE_TIMEOUT_MS = 60_000;

/** ffprobe reads headers and a few frames: far below these (decision 0206). */
const PROBE_LIMITS: ChildLimits = { memoryBytes: 1024 * MIB, cpuSeconds: 30 };
/**
 * An encode's bounds: 2 GiB of address space holds a 4K source at FFMPEG_THREADS threads with room to spare; its
 * CPU time is its wall-clock budget (4× the movie, at least 10 minutes: the job's expiry) on every thread it has.
 */
export function encodeLimits(durationSeconds: number, threads: number): ChildLimits {
  return { memoryBytes: 2048 * MIB, cpuSeconds: Math.max(600, Math.ceil(durationSeconds * 4)) * threads };
}

const tail = (log: string) => tailOf(log, TAIL_LINES, 2000);

interface FfprobeOutput {
  format?: { duration?: string; bit_rate?: string };
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    disposition?: { attached_pic?: number };
  }[];
}

function createFfmpegTranscoder(paths: { ffmpeg: string; ffprobe: string }, makesSmallHevc: boolean): Transcoder {
  return {
    makesSmallHevc,

    async probe(input, signal) {
      const args = [
        '-v',
        'error',
        ...inputGuards(input, VIDEO_FORMATS),
        '-show_format',
        '-show_streams',
        '-of',
        'json',
      ];
      const result = await run(paths.ffprobe, [...args, input], {
        signal,
        timeoutMs: PROBE_TIMEOUT_MS,
        limits: PROBE_LIMITS,
      });
      if (result.code !== 0) {
        const bound = boundReached(result, PROBE_LIMITS);
        throw new NotAVideoError(
          bound ? `ffprobe: ${bound}` : tail(result.stderr) || 'ffprobe could not read the file',
        );
      }
      let parsed: FfprobeOutput;
      try {
        parsed = JSON.parse(result.stdout) as FfprobeOutput;
      } catch {
        throw new NotAVideoError('ffprobe gave no readable answer');
      }
      const streams = parsed.streams ?? [];
      // A cover picture in an audio file is a "video" stream too; it is no movie.
      const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
      if (!video || !video.width || !video.height) throw new NotAVideoError('the file has no video stream');
      if (frameTooLarge(video.width, video.height)) throw new FrameTooLargeError(video.width, video.height);
      const duration = Number.parseFloat(parsed.format?.duration ?? '');
      const bitRate = Number.parseInt(parsed.format?.bit_rate ?? '', 10);
      return {
        durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : null,
        width: video.width,
        height: video.height,
        videoCodec: video.codec_name ?? 'unknown',
        hasAudio: streams.some((s) => s.codec_type === 'audio'),
        bitsPerSecond: Number.isFinite(bitRate) && bitRate > 0 ? bitRate : null,
      };
    },

    async encode(step, io, onProgress, signal) {
      const parser = new ProgressParser(io.durationSeconds, onProgress);
      const limits = encodeLimits(io.durationSeconds, FFMPEG_THREADS);
      let result: ProcessRun;
      try {
        result = await run(paths.ffmpeg, encodeArgs(step, io), {
          signal,
          onStdout: (chunk) => parser.push(chunk),
          limits,
        });
      } catch (error) {
        if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new EncodeError('stopped');
        throw error;
      }
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new EncodeError('stopped');
      if (result.code !== 0) {
        const bound = boundReached(result, limits);
        if (bound) throw new EncodeError(`ffmpeg was stopped: ${bound}.`);
        throw new EncodeError(tail(result.stderr) || `ffmpeg exited with ${result.code ?? result.signal}`);
      }
    },
  };
}

/** The encoders the HEVC Small needs (ladder.ts): Debian's and most static builds have them, a minimal build may not. */
const SMALL_HEVC_ENCODERS = ['libx265', 'libopus'];

/** Whether this ffmpeg lists every encoder the HEVC Small needs (`ffmpeg -encoders`, read once at start). */
async function encodesSmallHevc(ffmpeg: string): Promise<boolean> {
  const result = await run(ffmpeg, ['-hide_banner', '-encoders'], { timeoutMs: 10_000 }).catch(() => null);
  if (!result || result.code !== 0) return false;
  const listed = new Set(result.stdout.split('\n').map((line) => line.trim().split(/\s+/)[1]));
  return SMALL_HEVC_ENCODERS.every((encoder) => listed.has(encoder));
}

/**
 * The transcoder, or why there is none: ffmpeg and ffprobe are looked up once at start (FFMPEG_PATH and
 * FFPROBE_PATH, else the PATH). Without them the server still runs and offers originals only; an ffmpeg without
 * libx265 or libopus makes every size but the HEVC Small.
 */
export async function detectTranscoder(paths: {
  ffmpeg: string;
  ffprobe: string;
}): Promise<{ transcoder: Transcoder | null; message: string }> {
  for (const command of [paths.ffmpeg, paths.ffprobe]) {
    try {
      const result = await run(command, ['-version'], { timeoutMs: 10_000 });
      if (result.code !== 0) return { transcoder: null, message: `${command} -version failed: originals only.` };
    } catch {
      return { transcoder: null, message: `${command} was not found: movies are offered as originals only.` };
    }
  }
  const smallHevc = await encodesSmallHevc(paths.ffmpeg);
  return {
    transcoder: createFfmpegTranscoder(paths, smallHevc),
    message: smallHevc
      ? 'ffmpeg is installed: renditions are made on save.'
      : `ffmpeg is installed but has no ${SMALL_HEVC_ENCODERS.join(' or ')}: renditions are made on save, except the HEVC Small (phones get the H.264 Small).`,
  };
}
