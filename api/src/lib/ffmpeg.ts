import { spawn } from 'node:child_process';
import { availableParallelism, setPriority } from 'node:os';

/**
 * The one way this app runs ffmpeg and ffprobe: spawned directly, without a shell (arguments as an array, so no file
 * name or URL is ever parsed by a shell), stderr kept as a bounded window for the reason of a failure.
 */

export interface ProcessRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** The last 16 KiB of the log. */
  stderr: string;
}

/** ffprobe's JSON for a file with thousands of streams is still far below this. */
const MAX_STDOUT = 4 * 1024 * 1024;
const MAX_STDERR = 16_384;

/**
 * ffmpeg and ffprobe run at the lowest CPU priority: on a small box the kernel then gives the cores to the server's
 * requests first and to the encode with what is left, so an encode slows serving far less (`pnpm bench:serving`,
 * decision 0162). Lowering a child's priority needs no privilege; a platform that refuses it leaves it as it was.
 */
function yieldToServing(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, 19);
  } catch {
    /* left at the default priority */
  }
}

/**
 * What ffmpeg may open for an input (decision 0206): a local file only the `file` protocol, a presigned link only
 * HTTP(S) (with the TCP and TLS under them), so a file can never send ffmpeg to another file or onto the network;
 * and only the demuxers of the containers the upload accepts, so a playlist (HLS, concat) is refused unread.
 */
export function inputGuards(input: string, formats: string): string[] {
  const remote = /^https?:\/\//i.test(input);
  return ['-protocol_whitelist', remote ? 'http,https,tcp,tls' : 'file', '-format_whitelist', formats];
}

/** The demuxers of what the upload sniff lets through as a movie: ISO BMFF (MP4, MOV, 3GP) and Matroska/WebM. */
export const VIDEO_FORMATS = 'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm';
/** The demuxers of the still pictures a poster is made from: JPEG, PNG, WebP. */
export const IMAGE_FORMATS = 'image2,jpeg_pipe,png_pipe,webp_pipe';

/**
 * The largest picture accepted from an upload (decision 0206): 4096 pixels on a side and no more pixels than
 * 4096×2304, so 4K (UHD 3840×2160, DCI 4096×2160) is taken and a 8000×8000 frame, whose decoding alone needs
 * gigabytes, is refused before any encode. The decoder is held to the same count (`-max_pixels`), so a stream that
 * grows its frames after the probe fails instead of growing the encoder's memory.
 */
export const MAX_FRAME_SIDE = 4096;
export const MAX_FRAME_PIXELS = 4096 * 2304;

/**
 * Threads per ffmpeg (decoder and encoder each): its memory grows with its threads (a 4K source at 16 threads
 * reserves 2.4 GB), so it is pinned, and the memory bound below holds on a large machine too.
 */
export const FFMPEG_THREADS = Math.max(1, Math.min(4, availableParallelism()));

/** The bounds a child runs under (prlimit): its address space, and its CPU time summed over its threads. */
export interface ChildLimits {
  memoryBytes: number;
  cpuSeconds: number;
}

export const MIB = 1024 * 1024;

let prlimit: Promise<boolean> | null = null;

/** Whether util-linux's prlimit is here (Debian installs it with every system: util-linux is essential). */
export function childLimitsAvailable(): Promise<boolean> {
  prlimit ??= new Promise((resolve) => {
    const child = spawn('prlimit', ['--version'], { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
  return prlimit;
}

/**
 * Runs `command` to its end; rejects only when it cannot be started (or the signal aborts it: the error is Node's
 * AbortError). stdout goes to `onStdout` when given, else is collected (bounded). `timeoutMs` kills it (SIGKILL).
 * With `limits`, the child starts under prlimit (which execs it: same process, same pid): past its memory its
 * allocations fail and it exits with an error; past its CPU time the kernel stops it (SIGXCPU). Without prlimit on
 * the machine it runs unbounded (the server says so once at start).
 */
export async function runProcess(
  command: string,
  args: string[],
  options: { signal?: AbortSignal; onStdout?: (chunk: string) => void; timeoutMs?: number; limits?: ChildLimits } = {},
): Promise<ProcessRun> {
  const bounded = options.limits && (await childLimitsAvailable());
  const [file, argv] =
    bounded && options.limits
      ? [
          'prlimit',
          [
            `--as=${Math.floor(options.limits.memoryBytes)}`,
            // Soft then hard: SIGXCPU first (ffmpeg ends cleanly and says so), SIGKILL 5 s of CPU later.
            `--cpu=${Math.ceil(options.limits.cpuSeconds)}:${Math.ceil(options.limits.cpuSeconds) + 5}`,
            '--',
            command,
            ...args,
          ],
        ]
      : [command, args];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal });
    yieldToServing(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (options.onStdout) options.onStdout(chunk);
      else if (stdout.length < MAX_STDOUT) stdout += chunk;
    });
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-MAX_STDERR);
    });
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : null;
    child.on('error', (error) => {
      if (timer) clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** The last lines of a log, which say why ffmpeg failed. */
export function tailOf(log: string, lines: number, chars: number): string {
  return log.trim().split('\n').slice(-lines).join('\n').slice(-chars);
}

/** Why a bounded child stopped, in words, when a bound stopped it. */
export function boundReached(run: ProcessRun, limits: ChildLimits): string | null {
  if (run.signal === 'SIGXCPU' || /received signal 24\b/i.test(run.stderr)) {
    return `it used more than its ${Math.ceil(limits.cpuSeconds)} s of CPU time and was stopped`;
  }
  if (/Cannot allocate memory|malloc of size \d+ failed|Out of memory/i.test(run.stderr)) {
    return `it needed more than its ${Math.round(limits.memoryBytes / MIB)} MiB of memory`;
  }
  return null;
}
