/** The detail page's figures before a download on a slow link: time at a speed, and room on the phone. */

/**
 * Speed assumed before this phone has measured one: 0.5 MB/s, what a typical 3G link gives
 * (docs/decisions/0032-download-estimates.md).
 */
export const TYPICAL_3G_BPS = 0.5 * 1024 * 1024;

/** Room to leave on the phone besides the movie; the same margin the manager checks before it starts. */
export const SPACE_MARGIN_BYTES = 50 * 1024 * 1024;

/** Seconds to move `bytes` at `bytesPerSecond`; 0 when nothing is left. */
export function estimateSeconds(bytes: number, bytesPerSecond: number): number {
  if (bytes <= 0) return 0;
  if (!(bytesPerSecond > 0)) return Number.POSITIVE_INFINITY;
  return bytes / bytesPerSecond;
}

export interface SpaceVerdict {
  /** Bytes still to download to this phone. */
  needed: number;
  free: number | null;
  /** Null when the browser does not say how much is left. */
  fits: boolean | null;
}

/** Whether the rest of the movie (and the margin) fits in what the browser says is left. */
export function spaceVerdict(size: number, onPhone: number, free: number | null): SpaceVerdict {
  const needed = Math.max(0, size - onPhone);
  return { needed, free, fits: free === null ? null : free >= needed + SPACE_MARGIN_BYTES };
}
