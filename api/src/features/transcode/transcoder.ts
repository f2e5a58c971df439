import { type ProcessRun, runProcess as run, tailOf } from '../../lib/ffmpeg.ts';
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

/** ffmpeg ended with an error (its last lines of log in `message`), or was stopped. */
class EncodeError extends Error {}

/** ffmpeg and ffprobe behind one small interface (Deps.transcoder; null when they are not installed). */
export interface Transcoder {
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

function createFfmpegTranscoder(paths: { ffmpeg: string; ffprobe: string }): Transcoder {
  return {
    async probe(input, signal) {
      const result = await run(paths.ffprobe, ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', input], {
        signal,
        timeoutMs: PROBE_TIMEOUT_MS,
      });
      if (result.code !== 0) throw new NotAVideoError(tail(result.stderr) || 'ffprobe could not read the file');
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
      let result: ProcessRun;
      try {
        result = await run(paths.ffmpeg, encodeArgs(step, io), { signal, onStdout: (chunk) => parser.push(chunk) });
      } catch (error) {
        if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new EncodeError('stopped');
        throw error;
      }
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new EncodeError('stopped');
      if (result.code !== 0) {
        throw new EncodeError(tail(result.stderr) || `ffmpeg exited with ${result.code ?? result.signal}`);
      }
    },
  };
}

/**
 * The transcoder, or why there is none: ffmpeg and ffprobe are looked up once at start (FFMPEG_PATH and
 * FFPROBE_PATH, else the PATH). Without them the server still runs and offers originals only.
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
  return { transcoder: createFfmpegTranscoder(paths), message: 'ffmpeg is installed: renditions are made on save.' };
}
