import { boundReached, type ChildLimits, FFMPEG_THREADS, MIB, runProcess, tailOf } from '../../lib/ffmpeg.ts';

/**
 * ffmpeg for posters (spawned by lib/ffmpeg.ts). Posters are a few small images: a pass is short, and a stuck one
 * (an unreachable presigned link) is killed.
 */

class FfmpegError extends Error {}

/** A poster is one decoded frame and three small WebPs: a second or two of CPU; these bound a hostile file. */
const POSTER_LIMITS: ChildLimits = { memoryBytes: 1024 * MIB, cpuSeconds: 60 };

export async function runFfmpeg(args: string[], options: { timeoutMs: number }): Promise<void> {
  let run;
  try {
    const quiet = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-threads', String(FFMPEG_THREADS)];
    run = await runProcess('ffmpeg', [...quiet, ...args], { ...options, limits: POSTER_LIMITS });
  } catch (error) {
    throw new FfmpegError(`ffmpeg could not run: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (run.code === 0) return;
  const bound = boundReached(run, POSTER_LIMITS);
  if (bound) throw new FfmpegError(`ffmpeg was stopped: ${bound}`);
  if (run.signal) throw new FfmpegError(`ffmpeg was stopped (${run.signal}) after ${options.timeoutMs} ms`);
  throw new FfmpegError(`ffmpeg exited ${run.code}: ${tailOf(run.stderr, 4, 800)}`);
}

let probe: Promise<boolean> | null = null;

/** Whether ffmpeg can be run here (asked once per process: it does not come and go). */
export function ffmpegAvailable(): Promise<boolean> {
  probe ??= runFfmpeg(['-version'], { timeoutMs: 10_000 }).then(
    () => true,
    () => false,
  );
  return probe;
}
