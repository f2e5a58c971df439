import type { DownloadSize } from '@filamu/shared';

/**
 * S3's link windows (decision 0192): a presigned link cannot be revoked, so a download holds one live window at a
 * time, and a new link of the same file expires when the live one does.
 */

/**
 * The longest a download link lives on S3. S3 checks a presigned link's expiry only when a request
 * starts, so a transfer under way runs on past it; a short lifetime costs an honest client a fresh link per
 * reconnect after it lapsed, and bounds how long a link outlives its grant (nothing can revoke it earlier).
 */
export const S3_LINK_SECONDS = 15 * 60;
/** Less than this left of a download's live S3 link and a new link starts a new window (too short to start in). */
export const S3_LINK_MIN_LEFT_SECONDS = 60;

export interface LinkWindow {
  /** The expiry of a new window. */
  fresh: Date;
  /** A live window expiring after this is kept. */
  keepIfAfter: Date;
}

/**
 * The window a link minted now would open (the asked lifetime, at most S3_LINK_SECONDS); null where links are checked
 * per request (local driver) or no link is minted.
 */
export function linkWindow(
  driver: 'local' | 's3',
  { mintsLink, seconds, now }: { mintsLink: boolean; seconds: number | null; now: Date },
): LinkWindow | null {
  if (driver !== 's3' || !mintsLink || seconds === null) return null;
  return {
    fresh: new Date(now.getTime() + Math.min(seconds, S3_LINK_SECONDS) * 1000),
    keepIfAfter: new Date(now.getTime() + S3_LINK_MIN_LEFT_SECONDS * 1000),
  };
}

/** What a grant writes: the download's live window kept for the same file, else the new one; nothing without one. */
export function windowOf(
  window: LinkWindow | null,
  row: { linkExpiresAt: Date | null; size: DownloadSize | null } | null | undefined,
  size: DownloadSize,
): { linkExpiresAt: Date } | null {
  if (!window) return null;
  const live = row?.linkExpiresAt;
  return { linkExpiresAt: live && row.size === size && live > window.keepIfAfter ? live : window.fresh };
}
