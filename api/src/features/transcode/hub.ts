import type { Transcoder } from './transcoder.ts';

/**
 * What the rest of the app knows of transcoding (Deps.transcode): whether ffmpeg is there, and two signals to this
 * process's runner, if it runs one: "a job was queued" (start it now, not at the next poll) and "this movie was
 * deleted" (stop its ffmpeg now). Other processes find out through the rows (decision 0127).
 */
export class TranscodeHub {
  private readonly wakeListeners = new Set<() => void>();
  private readonly cancelListeners = new Set<(movieId: string) => void>();

  constructor(
    readonly transcoder: Transcoder | null,
    /** For the admin status: why renditions are or are not made. */
    readonly message: string,
  ) {}

  get available(): boolean {
    return this.transcoder !== null;
  }

  wake(): void {
    for (const listener of this.wakeListeners) listener();
  }

  cancelMovie(movieId: string): void {
    for (const listener of this.cancelListeners) listener(movieId);
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
