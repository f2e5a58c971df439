import type { Logger } from 'pino';
import { encryptMovieFiles, type EncryptDeps } from './encrypt-files.ts';
import { ENCRYPT_QUEUE, type EncryptJobData, type TranscodeQueue } from './queue.ts';

/** A running encryption marks its job alive this often; one silent for ENCRYPT_LAPSED_SECONDS is taken for dead. */
const ENCRYPT_ALIVE_MS = 10_000;
const ENCRYPT_LAPSED_SECONDS = 60;

/**
 * This process's share of the `film_encrypt` queue (decisions 0235, 0238): one movie at a time, with or without
 * ffmpeg. A job carries a sign of life while it runs, and the runner's sweep fails the jobs of processes that died,
 * so a film's original is never held plain behind a dead job's hour-long expiry.
 */
export class EncryptWorker {
  private readonly running = new Set<Promise<unknown>>();
  private workerId: string | null = null;

  constructor(
    private readonly queue: TranscodeQueue,
    private readonly deps: EncryptDeps,
    private readonly logger: Logger,
  ) {}

  /** Registers the pg-boss worker; returns its id (the hub's wake notifies it). */
  async start(options: { batchSize: number; includeMetadata: true; pollingIntervalSeconds: number }): Promise<string> {
    this.workerId = await this.queue.boss.work<EncryptJobData>(ENCRYPT_QUEUE, options, ([job]) =>
      this.encrypt(job!.id, job!.data.movieId),
    );
    return this.workerId;
  }

  /** Encryptions whose process died (no sign of life for ENCRYPT_LAPSED_SECONDS): failed, so they run again soon. */
  async recoverLapsed(): Promise<void> {
    const failed = await this.queue.failLapsedEncrypts(
      ENCRYPT_LAPSED_SECONDS,
      'the encrypting process stopped giving signs of life',
    );
    if (failed > 0) this.logger.warn({ jobs: failed }, 'film encryption: jobs whose process stopped, run again');
  }

  /** Waits for the copy under way (the deps' signal, aborted by the runner, drops it; pg-boss runs it again). */
  async stopped(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  private async encrypt(jobId: string, movieId: string): Promise<void> {
    const alive = () =>
      this.queue
        .encryptAlive(jobId)
        .catch((error: unknown) => this.logger.warn({ err: error, movieId }, 'film encryption: sign of life failed'));
    await alive();
    const beat = setInterval(() => void alive(), ENCRYPT_ALIVE_MS);
    const run = encryptMovieFiles(this.deps, movieId);
    this.running.add(run);
    try {
      await run;
    } finally {
      clearInterval(beat);
      this.running.delete(run);
    }
  }
}
