/**
 * A download with no progress report for this long is paused by the stale sweep. A leaf of its own because the
 * metrics collector reads it too (the job-lag gauge measures how far past it the oldest silent download is).
 */
export const STALE_AFTER_MS = 60 * 60_000;
