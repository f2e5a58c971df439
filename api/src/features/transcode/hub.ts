import type { RenditionKind } from '@filamu/shared';
import type { Logger } from 'pino';
import type { TranscodeConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { backfillSmallHevc } from './backfill.ts';
import { moviesWithPlainFiles } from './encrypt-files.ts';
import { TranscodeQueue } from './queue.ts';
import type { Transcoder } from './transcoder.ts';

/**
 * What the rest of the app knows of transcoding (Deps.transcode): whether ffmpeg is there, this process's pg-boss
 * queue, and a signal to this process's runner, if it runs one: "this movie was deleted" (stop its ffmpeg now).
 * Other processes find out through the cancelled job and row (decision 0127). The queue runs with or without ffmpeg:
 * without it no rendition is planned, but every film is still encrypted before a phone gets it (decision 0238).
 */
/** An encryption copies a movie's files at disk or network speed: an hour covers a 2 GB original on a slow link. */
const ENCRYPT_EXPIRY_SECONDS = 3600;

export class TranscodeHub {
  private readonly cancelListeners = new Set<(movieId: string) => void>();
  private readonly wakeListeners = new Set<() => void>();
  private jobs: TranscodeQueue | null = null;

  constructor(
    readonly transcoder: Transcoder | null,
    /** For the admin status: why renditions are or are not made. */
    readonly message: string,
    /** False only for tests that never look at stored files: no pg-boss, so files stay as they were stored. */
    private readonly runsJobs = true,
  ) {}

  /** No ffmpeg and no queue (tests only): films are served as stored. */
  static withoutJobs(message: string): TranscodeHub {
    return new TranscodeHub(null, message, false);
  }

  /** Whether renditions are made (ffmpeg is there). */
  get available(): boolean {
    return this.transcoder !== null;
  }

  /** Whether the HEVC Small is made (this ffmpeg has libx265 and libopus: decision 0251). */
  get makesSmallHevc(): boolean {
    return this.transcoder?.makesSmallHevc ?? false;
  }

  /** The queue once open; null in tests built withoutJobs. */
  get queue(): TranscodeQueue | null {
    return this.jobs;
  }

  /**
   * Starts pg-boss on the app's database (once per process, from createDeps), adds the HEVC Small to movies saved
   * before it, and sends what is waiting.
   */
  async open(database: Database, config: TranscodeConfig, logger: Logger, now: Date): Promise<void> {
    if (!this.runsJobs || this.jobs) return;
    const queue = new TranscodeQueue(database, config, logger);
    // pg-boss's own advisory lock does not cover its queues: two replicas creating them at once deadlock, so its
    // schema work waits for the app's start-up lock like the migrations do, on that lock's connection (decision 0205).
    // The backfill too: one replica adds each missing row and sends its job, the others find it there.
    await database.exclusively((executeSql) =>
      queue.onConnection(executeSql, async () => {
        await queue.start();
        await backfillSmallHevc({ executeSql, queue, logger }, { makesSmallHevc: this.makesSmallHevc, now });
      }),
    );
    this.jobs = queue;
    await queue.sendMissing();
    // Files stored before encryption, or whose job was lost: each movie's job collapses into one already waiting.
    const plain = await moviesWithPlainFiles(database.db);
    for (const movieId of plain) await queue.sendEncrypt(movieId, ENCRYPT_EXPIRY_SECONDS);
    if (plain.length > 0) logger.info({ movies: plain.length }, 'film encryption: jobs sent for files stored plain');
  }

  /**
   * Encrypts the movie's files that are plain (its original, after a save). A failed send is logged, not thrown: the
   * next process start sends it again.
   */
  async encrypt(movieId: string, logger: Logger): Promise<void> {
    if (!this.jobs) return;
    try {
      await this.jobs.sendEncrypt(movieId, ENCRYPT_EXPIRY_SECONDS);
    } catch (error) {
      logger.error({ err: error, movieId }, 'film encryption: sending the job failed; sent again at the next start');
    }
    for (const listener of this.wakeListeners) listener();
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
