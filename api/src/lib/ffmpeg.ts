import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

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
 * Runs `command` to its end; rejects only when it cannot be started (or the signal aborts it: the error is Node's
 * AbortError). stdout goes to `onStdout` when given, else is collected (bounded). `timeoutMs` kills it (SIGKILL).
 */
export function runProcess(
  command: string,
  args: string[],
  options: { signal?: AbortSignal; onStdout?: (chunk: string) => void; timeoutMs?: number } = {},
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal });
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
