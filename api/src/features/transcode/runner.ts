import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RenditionKind } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import { renditionKey } from '../storage/storage.ts';
import {
  claimNext,
  type ClaimedJob,
  isCancelled,
  isHeld,
  MAX_ATTEMPTS,
  markFailed,
  markReady,
  releaseJob,
  reportProgress,
} from './jobs.ts';
import { ladderStep } from './ladder.ts';
import type { EncodeProgress } from './progress.ts';
import type { Transcoder } from './transcoder.ts';

type RunnerDeps = Pick<Deps, 'database' | 'storage' | 'config' | 'clock' | 'logger' | 'transcode'>;

/** How often an idle runner looks for due jobs (queued ones in this process start at once: hub.wake). */
const POLL_MS = 2000;
/** Progress (and the heartbeat that keeps the lease) is written at most this often. */
const PROGRESS_WRITE_MS = 2000;
/** A presigned source link outlives the longest encode (S3's limit is 7 days). */
const SOURCE_LINK_SECONDS = 2 * 86_400;

class Stopped extends Error {}

/** `<movieId>-<kind>-<attempt>-<uuid>.mp4`: an encoder output, named after the job attempt writing it. */
const WORK_FILE =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(small|standard|hd)-(\d{1,6})-[0-9a-f-]{36}\.mp4$/;

/**
 * Runs up to `concurrency` rendition jobs of this process at once (decision 0127). Each job: claim a row, probe the
 * source, encode into a local temp file, copy it to storage under the rendition's key, read it back with ffprobe,
 * and mark the row ready — only if this job still holds the attempt. A crash anywhere leaves the row `encoding`
 * with a heartbeat that stops; another claim takes it over once the lease lapses.
 */
export class TranscodeRunner {
  private readonly running = new Map<
    string,
    { job: ClaimedJob; abort: AbortController; done: Promise<void>; output: string }
  >();
  private timer: NodeJS.Timeout | null = null;
  private filling: Promise<void> | null = null;
  private stopped = false;
  private readonly unlisten: () => void;
  private readonly workDir: string;

  constructor(
    private readonly deps: RunnerDeps,
    private readonly transcoder: Transcoder,
    private readonly concurrency: number,
  ) {
    this.workDir = join(deps.config.dataDir, 'transcode');
    this.unlisten = deps.transcode.listen({
      wake: () => this.fill(),
      cancelMovie: (movieId) => {
        for (const entry of this.running.values()) {
          if (entry.job.movieId === movieId) entry.abort.abort(new Stopped('the movie was deleted'));
        }
      },
    });
  }

  async start(): Promise<void> {
    await mkdir(this.workDir, { recursive: true });
    await this.removeStaleWork();
    let ticks = 0;
    const sweepEvery = Math.max(1, Math.round(this.deps.config.transcode.leaseMs / POLL_MS));
    this.timer = setInterval(() => {
      this.fill();
      // Now and then too: a process sharing DATA_DIR may have died after this one started.
      if (++ticks % sweepEvery === 0) void this.removeStaleWork().catch(() => {});
    }, POLL_MS);
    this.timer.unref();
    this.fill();
  }

  /** Stops claiming, kills running encodes (their rows are taken over once the lease lapses) and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unlisten();
    if (this.timer) clearInterval(this.timer);
    for (const entry of this.running.values()) entry.abort.abort(new Stopped('the server is stopping'));
    await this.filling;
    await Promise.all([...this.running.values()].map((entry) => entry.done));
  }

  /** Claims jobs until every slot is busy or nothing is due; one fill at a time. */
  fill(): void {
    if (this.stopped || this.filling) return;
    this.filling = (async () => {
      while (!this.stopped && this.running.size < this.concurrency) {
        const job = await claimNext(this.deps.database.db, this.deps.clock.now(), this.deps.config.transcode.leaseMs);
        if (!job) break;
        const abort = new AbortController();
        const id = `${job.movieId}/${job.kind}`;
        const output = join(this.workDir, `${job.movieId}-${job.kind}-${job.attempt}-${randomUUID()}.mp4`);
        const done = this.run(job, output, abort.signal).finally(() => {
          this.running.delete(id);
          this.fill();
        });
        this.running.set(id, { job, abort, done, output });
      }
    })()
      .catch((error: unknown) => this.deps.logger.error({ err: error }, 'transcode: claiming a job failed'))
      .finally(() => {
        this.filling = null;
      });
  }

  /**
   * Output files of encodes that no process is writing any more (this one or another sharing DATA_DIR died). A
   * file is named after its job's attempt, so it is kept exactly while that attempt still holds the row.
   */
  private async removeStaleWork(): Promise<void> {
    const cutoff = this.deps.clock.now().getTime() - this.deps.config.transcode.leaseMs;
    for (const name of await readdir(this.workDir).catch(() => [] as string[])) {
      const path = join(this.workDir, name);
      if (this.isOurs(path)) continue;
      const match = WORK_FILE.exec(name);
      if (match) {
        const job = { movieId: match[1]!, kind: match[2] as RenditionKind, attempt: Number(match[3]) };
        if (await isHeld(this.deps.database.db, job)) continue;
      } else {
        const stats = await stat(path).catch(() => null);
        if (!stats || stats.mtimeMs >= cutoff) continue;
      }
      await rm(path, { force: true });
    }
  }

  private isOurs(path: string): boolean {
    return [...this.running.values()].some((entry) => entry.output === path);
  }

  private async run(job: ClaimedJob, output: string, signal: AbortSignal): Promise<void> {
    const { logger } = this.deps;
    const log = logger.child({ movieId: job.movieId, rendition: job.kind, attempt: job.attempt });
    const db = this.deps.database.db;
    if (job.attempt > MAX_ATTEMPTS) {
      // Taken over after too many lapsed leases (the process doing it kept dying): stop trying.
      await markFailed(db, job, 'The encode was interrupted too many times.', this.deps.clock.now());
      return;
    }
    const key = renditionKey(job.movieId, job.kind);
    let latest: EncodeProgress = { fraction: 0, etaSeconds: null, done: false };
    const local = new AbortController();
    const onAbort = () => local.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    // The heartbeat: progress written every 2 s keeps the lease; a miss means the job is no longer ours.
    const heartbeat = setInterval(() => {
      reportProgress(db, job, latest, this.deps.clock.now())
        .then((ours) => {
          if (!ours) local.abort(new Stopped('the rendition was cancelled or taken over'));
        })
        .catch((error: unknown) => log.warn({ err: error }, 'transcode: progress write failed'));
    }, PROGRESS_WRITE_MS);
    try {
      log.info('transcode: started');
      const input = await this.deps.storage.transcodeInput(job.sourceKey, SOURCE_LINK_SECONDS);
      const source = await this.transcoder.probe(input, local.signal);
      const step = ladderStep(job.kind);
      await this.transcoder.encode(
        step,
        { input, output, hasAudio: source.hasAudio, durationSeconds: source.durationSeconds ?? 0 },
        (progress) => {
          latest = progress;
        },
        local.signal,
      );
      const made = await this.transcoder.probe(output, local.signal);
      const { size } = await stat(output);
      if (local.signal.aborted) throw local.signal.reason;
      await this.deps.storage.putFile(key, output, 'video/mp4');
      const ready = await markReady(
        db,
        job,
        { storageKey: key, sizeBytes: size, width: made.width, height: made.height, bitsPerSecond: made.bitsPerSecond },
        this.deps.clock.now(),
      );
      if (ready) {
        log.info({ bytes: size, height: made.height, bitsPerSecond: made.bitsPerSecond }, 'transcode: ready');
      } else if (await isCancelled(db, job)) {
        // Deleted while the file went up: it must not stay behind.
        await this.deps.storage.delete(key);
      }
    } catch (error) {
      if (error instanceof Stopped || local.signal.aborted) {
        log.info(
          { reason: local.signal.reason instanceof Error ? local.signal.reason.message : null },
          'transcode: stopped',
        );
        if (await isCancelled(db, job).catch(() => false)) await this.deps.storage.delete(key).catch(() => {});
        else if (this.stopped) await releaseJob(db, job, this.deps.clock.now()).catch(() => {});
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const state = await markFailed(db, job, message, this.deps.clock.now());
      log.warn({ err: error, state }, 'transcode: attempt failed');
    } finally {
      clearInterval(heartbeat);
      signal.removeEventListener('abort', onAbort);
      await rm(output, { force: true });
    }
  }
}

/** Starts this process's runner when it has ffmpeg and a concurrency above 0; returns the stop function. */
export async function startTranscodeRunner(deps: RunnerDeps): Promise<() => Promise<void>> {
  const { transcoder } = deps.transcode;
  const concurrency = deps.config.transcode.concurrency;
  if (!transcoder || concurrency <= 0) return async () => {};
  const runner = new TranscodeRunner(deps, transcoder, concurrency);
  await runner.start();
  deps.logger.info({ concurrency }, 'transcode: this process runs rendition jobs');
  return () => runner.stop();
}
