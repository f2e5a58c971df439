import { spawn } from 'node:child_process';
import { yieldToServing } from '../transcode/transcoder.ts';

/**
 * ffmpeg spawned directly (no shell, arguments as an array, so no file name or URL is ever parsed by a shell).
 * Posters are a few small images: a pass is short, and a stuck one (an unreachable presigned link) is killed.
 */

export class FfmpegError extends Error {}

/** The last lines of ffmpeg's log, which say why it failed. */
function tail(log: string): string {
  return log.trim().split('\n').slice(-4).join('\n').slice(-800);
}

export function runFfmpeg(args: string[], options: { timeoutMs: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: options.timeoutMs,
      killSignal: 'SIGKILL',
    });
    yieldToServing(child.pid);
    let log = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      log = (log + chunk).slice(-8_000);
    });
    child.on('error', (error) => reject(new FfmpegError(`ffmpeg could not run: ${error.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else if (signal) reject(new FfmpegError(`ffmpeg was stopped (${signal}) after ${options.timeoutMs} ms`));
      else reject(new FfmpegError(`ffmpeg exited ${code}: ${tail(log)}`));
    });
  });
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
