import { runProcess, tailOf } from '../../lib/ffmpeg.ts';

/**
 * ffmpeg for posters (spawned by lib/ffmpeg.ts). Posters are a few small images: a pass is short, and a stuck one
 * (an unreachable presigned link) is killed.
 */

class FfmpegError extends Error {}

export async function runFfmpeg(args: string[], options: { timeoutMs: number }): Promise<void> {
  let run;
  try {
    run = await runProcess('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args], options);
  } catch (error) {
    throw new FfmpegError(`ffmpeg could not run: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (run.code === 0) return;
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
