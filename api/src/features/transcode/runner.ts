// Longer than 300 lines on purpose: one rendition's job from claim to ready (probe, encode, progress as heartbeat,
// upload, attempt-guarded finish).
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RenditionKind } from '@filamu/shared';
import type { ObjectStorage } from '../storage/storage.ts';
import type { ContentKeys } from '../content-keys/content-keys.ts';
import { type EncryptDeps, storeEncrypted } from './encrypt-files.ts';
import { EncryptWorker } from './encrypt-worker.ts';
import type { Logger } from 'pino';
import {
  claimRendition,
  type ClaimedJob,
  isCancelled,
  isHeld,
  markAbandoned,
  requeueLapsed,
  markFailed,
  markReady,
  releaseJob,
  reportProgress,
} from './jobs.ts';
import {
  TRANSCODE_DEAD_QUEUE,
  TRANSCODE_QUEUE,
  type TranscodeJob,
  type TranscodeJobData,
  type TranscodeQueue,
} from './queue.ts';
import { ladderStep } from './ladder.ts';
import type { EncodeProgress } from './progress.ts';
import type { Transcoder } from './transcoder.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { TranscodeHub } from './hub.ts';

interface RunnerDeps {
  database: Database;
  storage: ObjectStorage;
  config: Config;
  clock: Clock;
  logger: Logger;
  transcode: TranscodeHub;
  contentKeys: ContentKeys;
}

/** How often an idle worker asks pg-boss for a job (a job sent by this process is fetched at once: hub wake). */
const POLL_SECONDS = 2;
/** Progress (and the heartbeat that keeps the row fresh) is written at most this often. */
const PROGRESS_WRITE_MS = 2000;
/** Leftover encoder outputs are looked for this often (a process sharing DATA_DIR may have died). */
const SWEEP_MS = 10_000;
/** A presigned source link outlives the longest encode (S3's limit is 7 days). */
const SOURCE_LINK_SECONDS = 2 * 86_400;

class Stopped extends Error {}
/** The run outlived its pg-boss expiry: stopped here before pg-boss hands the job to another worker. */
class Expired extends Error {}

/** `<movieId>-<kind>-<attempt>-<uuid>.mp4`: an encoder output, named after the job attempt writing it. */
const WORK_FILE =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(small|small-hevc|standard|hd)-(\d{1,6})-[0-9a-f-]{36}\.mp4$/;

/**
 * This process's share of the pg-boss `transcode` queue (decision 0127): `concurrency` workers, each one job at a
 * time. A job: claim the row, probe the source, encode into a local temp file, copy it to storage under the
 * rendition's key, read it back with ffprobe, and mark the row ready — only if this run still holds the attempt.
 * A failure marks the row and throws, so pg-boss retries with back-off; a crash leaves the job active until it
 * expires, then pg-boss runs it again.
 */
class TranscodeRunner {
  private readonly running = new Map<
    string,
    { job: ClaimedJob; abort: AbortController; done: Promise<void>; output: string }
  >();
  private readonly workerIds: string[] = [];
  private sweepTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly stopping = new AbortController();
  private readonly encryption: EncryptWorker;
  private readonly unlisten: () => void;
  private readonly workDir: string;

  constructor(
    private readonly deps: RunnerDeps,
    private readonly queue: TranscodeQueue,
    /** Null without ffmpeg: this process then runs only the encryption jobs. */
    private readonly transcoder: Transcoder | null,
    private readonly concurrency: number,
  ) {
    this.workDir = join(deps.config.dataDir, 'transcode');
    this.encryption = new EncryptWorker(queue, this.encryptDeps, deps.logger);
    this.unlisten = deps.transcode.listen({
      wake: () => {
        for (const id of this.workerIds) queue.boss.notifyWorker(id);
      },
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
    this.sweepTimer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.sweepTimer.unref();
    const options = { batchSize: 1, includeMetadata: true as const, pollingIntervalSeconds: POLL_SECONDS };
    const transcoder = this.transcoder;
    if (transcoder) {
      for (let i = 0; i < this.concurrency; i++) {
        this.workerIds.push(
          await this.queue.boss.work<TranscodeJobData>(TRANSCODE_QUEUE, options, ([job]) =>
            this.handle(transcoder, job!),
          ),
        );
      }
      this.workerIds.push(
        await this.queue.boss.work<TranscodeJobData>(TRANSCODE_DEAD_QUEUE, options, ([job]) => this.abandoned(job!)),
      );
    }
    this.workerIds.push(await this.encryption.start(options));
  }

  private get encryptDeps(): EncryptDeps {
    const { database, storage, contentKeys, logger } = this.deps;
    return {
      db: database.db,
      storage,
      contentKeys,
      logger,
      workDir: this.workDir,
      signal: this.stopping.signal,
      staleWorkMs: this.deps.config.transcode.staleWorkSeconds * 1000,
    };
  }

  /**
   * Stops fetching, kills running encodes and hands their jobs back (the row queued, the pg-boss job sent again
   * with the attempts it had left), and waits for them.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unlisten();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await Promise.all(this.workerIds.map((id) => this.queue.boss.offWork({ id })));
    for (const entry of this.running.values()) entry.abort.abort(new Stopped('the server is stopping'));
    this.stopping.abort(new Stopped('the server is stopping'));
    await Promise.all([...this.running.values()].map((entry) => entry.done));
    await this.encryption.stopped();
  }

  /** pg-boss's handler: resolves when the rendition is made (or there is nothing to make); throws to retry. */
  private async handle(transcoder: Transcoder, job: TranscodeJob): Promise<void> {
    const { movieId, kind } = job.data;
    const log = this.deps.logger.child({ movieId, rendition: kind, job: job.id, retry: job.retryCount });
    if (this.stopped) {
      await this.handBack(job, null);
      return;
    }
    const claimed = await claimRendition(this.deps.database.db, { movieId, kind }, this.deps.clock.now());
    if (claimed === 'done') return;
    // Another run still writes progress (a duplicate job): try later, by which time it has finished or died.
    if (claimed === 'busy') throw new Error('another worker is encoding this rendition');
    const abort = new AbortController();
    const id = `${movieId}/${kind}`;
    const output = join(this.workDir, `${movieId}-${kind}-${claimed.attempt}-${randomUUID()}.mp4`);
    const done = this.run(transcoder, claimed, job, output, abort.signal, log).finally(() => this.running.delete(id));
    this.running.set(id, { job: claimed, abort, done, output });
    await done;
  }

  /** A job out of attempts (pg-boss's dead letter): its rendition fails, unless a newer job is on it. */
  private async abandoned(job: TranscodeJob): Promise<void> {
    const { movieId, kind } = job.data;
    const live = await this.queue.liveJobs(movieId);
    if (live.some((other) => other.kind === kind)) return;
    await markAbandoned(this.deps.database.db, { movieId, kind }, this.deps.clock.now());
  }

  /**
   * SIGTERM mid-job: pg-boss 10 cannot put an active job back without counting an attempt (its retry count goes up
   * when the job is fetched again), so the job is cancelled and sent again with the attempts it had left (and its
   * priority: a backfilled rendition stays behind new uploads).
   */
  private async handBack(job: TranscodeJob, claimed: ClaimedJob | null): Promise<void> {
    if (claimed) await releaseJob(this.deps.database.db, claimed, this.deps.clock.now());
    await this.queue.boss.cancel(TRANSCODE_QUEUE, job.id);
    await this.queue.send(job.data.movieId, job.data.kind, null, {
      priority: job.priority,
      handedBack: { retryLimit: Math.max(0, job.retryLimit - job.retryCount), expireInSeconds: job.expireInSeconds },
    });
  }

  private async sweep(): Promise<void> {
    await this.recoverLapsed().catch((error: unknown) =>
      this.deps.logger.warn({ err: error }, 'transcode: could not look for lapsed encodes'),
    );
    await this.encryption
      .recoverLapsed()
      .catch((error: unknown) =>
        this.deps.logger.warn({ err: error }, 'film encryption: could not look for lapsed encryptions'),
      );
    await this.removeStaleWork().catch(() => {});
  }

  /**
   * Encodes whose process died (no progress written for LAPSED_ENCODING_MS): the row is queued again and its
   * pg-boss job failed, so it runs again after the back-off rather than at the job's expiry (decision 0127).
   */
  private async recoverLapsed(): Promise<void> {
    const lapsed = await requeueLapsed(this.deps.database.db, this.deps.clock.now());
    if (lapsed.length === 0) return;
    const failed = await this.queue.failRunning(lapsed, 'the encoding process stopped reporting progress');
    this.deps.logger.warn(
      { renditions: lapsed, jobsFailed: failed },
      'transcode: encodes whose process stopped, run again',
    );
  }

  /**
   * Output files of encodes that no process is writing any more (this one or another sharing DATA_DIR died). A
   * file is named after its job's attempt, so it is kept exactly while that attempt still holds the row.
   */
  private async removeStaleWork(): Promise<void> {
    // Files named after no job (an encrypted copy under way) are kept while their process touches them.
    const cutoff = Date.now() - this.deps.config.transcode.staleWorkSeconds * 1000;
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

  private async run(
    transcoder: Transcoder,
    job: ClaimedJob,
    pgJob: TranscodeJob,
    output: string,
    signal: AbortSignal,
    log: Logger,
  ): Promise<void> {
    const db = this.deps.database.db;
    let key: string | null = null;
    let latest: EncodeProgress = { fraction: 0, etaSeconds: null, done: false };
    const local = new AbortController();
    const onAbort = () => local.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    // Progress every 2 s; a miss means the row is no longer this run's (cancelled, or a newer run took it).
    const heartbeat = setInterval(() => {
      reportProgress(db, job, latest, this.deps.clock.now())
        .then((ours) => {
          if (!ours) local.abort(new Stopped('the rendition was cancelled or taken over'));
        })
        .catch((error: unknown) => log.warn({ err: error }, 'transcode: progress write failed'));
    }, PROGRESS_WRITE_MS);
    // pg-boss fails a job at its expiry and may give it to another worker: this run stops just before.
    const expiryMs = Math.max(1000, (pgJob.expireInSeconds - 2) * 1000);
    const expiry = setTimeout(() => {
      local.abort(
        new Expired(`The encode took longer than its limit (${Math.round(pgJob.expireInSeconds / 60)} min).`),
      );
    }, expiryMs);
    try {
      log.info({ attempt: job.attempt }, 'transcode: started');
      const input = await this.deps.storage.transcodeInput(job.sourceKey, SOURCE_LINK_SECONDS);
      const source = await transcoder.probe(input, local.signal);
      const step = ladderStep(job.kind);
      await transcoder.encode(
        step,
        { input, output, hasAudio: source.hasAudio, durationSeconds: source.durationSeconds ?? 0 },
        (progress) => {
          latest = progress;
        },
        local.signal,
      );
      const made = await transcoder.probe(output, local.signal);
      const { size } = await stat(output);
      if (local.signal.aborted) throw local.signal.reason;
      // Stored only encrypted, under a key of its own (decision 0235): phones never get the plain rendition.
      const stored = await storeEncrypted(this.encryptDeps, job.movieId, job.kind, { path: output });
      key = stored.key;
      const ready = await markReady(
        db,
        job,
        {
          storageKey: stored.key,
          fileNonce: stored.nonce,
          sizeBytes: size,
          width: made.width,
          height: made.height,
          bitsPerSecond: made.bitsPerSecond,
        },
        this.deps.clock.now(),
      );
      if (ready) {
        log.info({ bytes: size, height: made.height, bitsPerSecond: made.bitsPerSecond }, 'transcode: ready');
      } else {
        // Deleted or taken over while the file went up: this run's object is nobody's (its key is this run's own).
        await this.deps.storage.delete(stored.key);
      }
    } catch (caught) {
      const error = local.signal.aborted && !(caught instanceof Expired) ? local.signal.reason : caught;
      if (error instanceof Stopped) {
        log.info({ reason: error.message }, 'transcode: stopped');
        if (key && (await isCancelled(db, job).catch(() => false))) await this.deps.storage.delete(key).catch(() => {});
        else if (this.stopped) await this.handBack(pgJob, job).catch((e: unknown) => log.warn({ err: e }, 'hand back'));
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const final = pgJob.retryCount >= pgJob.retryLimit;
      const state = await markFailed(db, job, message, final, this.deps.clock.now());
      log.warn({ err: error, state }, 'transcode: attempt failed');
      // pg-boss records the failure: a retry after its back-off, or the job failed for good.
      throw error instanceof Error ? error : new Error(message);
    } finally {
      clearInterval(heartbeat);
      clearTimeout(expiry);
      signal.removeEventListener('abort', onAbort);
      await rm(output, { force: true });
    }
  }
}

/**
 * Starts this process's workers when its concurrency is above 0 (with 0 it still sends jobs, for other processes to
 * run); returns the stop function. Without ffmpeg they run only the encryption jobs (decision 0238).
 */
export async function startTranscodeRunner(deps: RunnerDeps): Promise<() => Promise<void>> {
  const { transcoder, queue } = deps.transcode;
  const concurrency = deps.config.transcode.concurrency;
  if (!queue || concurrency <= 0) return async () => {};
  const runner = new TranscodeRunner(deps, queue, transcoder, concurrency);
  await runner.start();
  if (transcoder) deps.logger.info({ concurrency }, 'transcode: this process runs rendition jobs');
  else deps.logger.info('film encryption: this process encrypts films (no ffmpeg: no renditions)');
  return () => runner.stop();
}
