import type { RenditionKind } from '@filamu/shared';
import type { Logger } from 'pino';
import type { TranscodeConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { TranscodeQueue } from './queue.ts';
import type { Transcoder } from './transcoder.ts';

/**
 * What the rest of the app knows of transcoding (Deps.transcode): whether ffmpeg is there, this process's pg-boss
 * queue (only with ffmpeg: without it no rendition is planned, so nothing is sent), and a signal to this process's
 * runner, if it runs one: "this movie was deleted" (stop its ffmpeg now). Other processes find out through the
 * cancelled job and row (decision 0127).
 */
export class TranscodeHub {
  private readonly cancelListeners = new Set<(movieId: string) => void>();
  private readonly wakeListeners = new Set<() => void>();
  private jobs: TranscodeQueue | null = null;

  constructor(
    readonly transcoder: Transcoder | null,
    /** For the admin status: why renditions are or are not made. */
    readonly message: string,
  ) {}

  get available(): boolean {
    return this.transcoder !== null;
  }

  /** The queue; null without ffmpeg. */
  get queue(): TranscodeQueue | null {
    return this.jobs;
  }

  /** Starts pg-boss on the app's database (once per process, from createDeps) and sends what is waiting. */
  async open(database: Database, config: TranscodeConfig, logger: Logger): Promise<void> {
    if (!this.transcoder || this.jobs) return;
    const queue = new TranscodeQueue(database, config, logger);
    // pg-boss's own advisory lock does not cover its queues: two replicas creating them at once deadlock, so its
    // schema work waits for the app's start-up lock like the migrations do, on that lock's connection (decision 0205).
    await database.exclusively((executeSql) => queue.start(executeSql));
    this.jobs = queue;
    await queue.sendMissing();
  }

  /** Stops pg-boss (after this process's runner stopped); the database closes after. */
  async close(): Promise<void> {
    const queue = this.jobs;
    this.jobs = null;
    await queue?.close();
  }

  /**
   * Sends a job per rendition, after the commit that queued them. A failed send is logged, not thrown (the rows
   * are saved): the next process start sends it (TranscodeQueue.sendMissing).
   */
  async enqueue(
    movieId: string,
    kinds: RenditionKind[],
    durationSeconds: number | null,
    logger: Logger,
  ): Promise<void> {
    if (!this.jobs) return;
    try {
      for (const kind of kinds) await this.jobs.send(movieId, kind, durationSeconds);
    } catch (error) {
      logger.error({ err: error, movieId }, 'transcode: sending the jobs failed; sent again at the next start');
    }
    for (const listener of this.wakeListeners) listener();
  }

  /** A deleted movie: its pg-boss jobs are cancelled and this process's encodes of it stop now. */
  async cancelMovie(movieId: string, logger: Logger): Promise<void> {
    for (const listener of this.cancelListeners) listener(movieId);
    await this.jobs?.cancelMovie(movieId).catch((error: unknown) => {
      logger.warn({ err: error, movieId }, 'transcode: cancelling the jobs failed (their runs stop on the row)');
    });
  }

  /** The runner subscribes; returns the unsubscribe. */
  listen(on: { wake: () => void; cancelMovie: (movieId: string) => void }): () => void {
    this.wakeListeners.add(on.wake);
    this.cancelListeners.add(on.cancelMovie);
    return () => {
      this.wakeListeners.delete(on.wake);
      this.cancelListeners.delete(on.cancelMovie);
    };
  }
}
