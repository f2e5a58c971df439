/**
 * One encode of the transcode bench: the server's exact arguments (`encodeArgs`), timed by the wall clock and by
 * ffmpeg's own CPU time (`-benchmark`), sized per stream, and scored by SSIM against the source.
 */
import { spawn } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { RENDITION_TARGETS } from '@filamu/shared';
import { encodeArgs, type LadderStep } from '../src/features/transcode/ladder.ts';
import type { Source } from './film-like-sources.ts';

/** SSIM is measured on every Nth frame (both sides stepped alike): the 1080p comparison would outlast the encodes. */
const SSIM_FRAME_STEP = 5;
export const CORES = availableParallelism();

export function ffmpeg(args: string[]): Promise<{ stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-nostdin', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-20_000);
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve({ stderr }) : reject(new Error(`ffmpeg exited ${code}: ${stderr.slice(-2000)}`)),
    );
  });
}

/** SSIM with the rendition scaled back up to the source's size (how the eye sees a small file on a bigger screen). */
async function ssim(source: Source, renditionPath: string): Promise<number> {
  const width = (source.height * 16) / 9;
  const { stderr } = await ffmpeg([
    ...['-i', renditionPath, '-i', source.path],
    '-lavfi',
    `[0:v]framestep=${SSIM_FRAME_STEP},scale=${width}:${source.height}:flags=bicubic,format=yuv420p[r];` +
      `[1:v]framestep=${SSIM_FRAME_STEP},format=yuv420p[s];[r][s]ssim`,
    ...['-f', 'null', '-'],
  ]);
  const match = / All:([\d.]+)/.exec(stderr);
  if (!match?.[1]) throw new Error(`no SSIM in ffmpeg's output: ${stderr.slice(-500)}`);
  return Number(match[1]);
}

/** ffmpeg's `-benchmark` line: user and system CPU seconds of the whole run. */
function cpuSeconds(stderr: string): number {
  const match = /bench: utime=([\d.]+)s stime=([\d.]+)s/.exec(stderr);
  if (!match) throw new Error('no -benchmark line in ffmpeg’s output');
  return Number(match[1]) + Number(match[2]);
}

/** The audio stream's bytes, from ffmpeg's closing `video:…kB audio:…kB` line (its kB is 1024 bytes). */
function audioBytes(stderr: string): number {
  const match = /audio:\s*([\d.]+)kB/.exec(stderr);
  return match?.[1] ? Number(match[1]) * 1024 : 0;
}

export interface Encoded {
  source: Source;
  step: LadderStep;
  /** A sweep's setting rather than the ladder's own: reported apart, and not in the ladder's total. */
  variant: boolean;
  wallSeconds: number;
  /** CPU seconds over the cores: the encode's time on an otherwise idle machine. */
  cpuWallSeconds: number;
  bytes: number;
  audioBytes: number;
  capBytes: number;
  ssim: number;
}

export async function encode(
  source: Source,
  step: LadderStep,
  seconds: number,
  dir: string,
  variant: boolean,
): Promise<Encoded> {
  const output = join(dir, `out-${source.name}-${step.kind}-${step.preset}-${step.crf}.mp4`);
  rmSync(output, { force: true });
  const started = performance.now();
  const args = encodeArgs(step, { input: source.path, output, hasAudio: true, durationSeconds: seconds });
  const { stderr } = await ffmpeg(['-benchmark', ...args]);
  const wallSeconds = (performance.now() - started) / 1000;
  const bytes = statSync(output).size;
  const score = await ssim(source, output);
  rmSync(output, { force: true });
  return {
    source,
    step,
    variant,
    wallSeconds,
    cpuWallSeconds: cpuSeconds(stderr) / CORES,
    bytes,
    audioBytes: audioBytes(stderr),
    capBytes: (RENDITION_TARGETS[step.kind].maxTotalBitsPerSecond * seconds) / 8,
    ssim: score,
  };
}
