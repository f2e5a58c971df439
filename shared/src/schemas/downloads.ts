import { z } from 'zod';
import { Id, IsoDateTime } from './common.ts';
import { DevicePublicKey, Licence } from './licences.ts';
import { DownloadStatus, KinayugandaProgress, MOVIE_CATEGORY_NAMES } from './movies.ts';
import { DownloadSize } from './renditions.ts';

export const ALREADY_DOWNLOADED = 'This movie has already been downloaded.';
export const KINAYUGANDA_FIRST = 'You must first download all Kinayuganda movies to unlock English downloads.';
export const SUBSCRIPTION_REQUIRED = 'You need an active subscription to download movies.';

export const MovieIdParams = z.object({ movieId: Id });

/**
 * Re-downloads of movies the person completed before (a file lost with a phone): `perMonth` each Kampala calendar
 * month, plus `extra` an admin granted (kept until used). `remaining` is what a "Download again" may still use.
 */
export const RedownloadAllowance = z.object({
  perMonth: z.number().int(),
  usedThisMonth: z.number().int(),
  extra: z.number().int(),
  remaining: z.number().int(),
  /** When the month's allowance starts again (the 1st, 00:00 Kampala time). */
  renewsAt: IsoDateTime,
});
export type RedownloadAllowance = z.infer<typeof RedownloadAllowance>;

/**
 * By movie (`movieId`); the spec's client sends `s3Key`, which is accepted but must name the movie.
 * `purpose: 'background'` asks for a longer-lived link for a Background Fetch job.
 */
export const DownloadUrlRequest = z
  .object({
    movieId: Id.optional(),
    s3Key: z.string().trim().min(1).max(200).optional(),
    purpose: z.enum(['foreground', 'background']).default('foreground'),
    /**
     * Download again a movie completed before: takes one re-download of the allowance (none while one of the movie is
     * already under way; a movie never completed is an ordinary grant). Without it, a completed movie is refused.
     */
    redownload: z.boolean().default(false),
    /**
     * Which file (decision 0126): a ready rendition or the original. Without it, the download keeps the size it started
     * with, or a new one fetches the original (the spec's client knows no sizes).
     */
    size: DownloadSize.optional(),
    /**
     * This phone's licence key (decision 0230): the answer then carries the film's licence for this phone, so the
     * licence comes with the link, never as another request.
     */
    devicePublicKey: DevicePublicKey.optional(),
  })
  .refine((v) => v.movieId !== undefined || v.s3Key !== undefined, {
    message: 'Movie file key is missing. Cannot download.',
    path: ['movieId'],
  });
export type DownloadUrlRequest = z.input<typeof DownloadUrlRequest>;

export const DownloadUrlResponse = z.object({
  downloadUrl: z.string(),
  fileSize: z.number().int(),
  downloadId: z.string(),
  /** The link stops working then; ask again (same download) for a fresh one. */
  expiresAt: IsoDateTime,
  /** Strong validator of the file: a 206 with another ETag means the file changed. */
  etag: z.string().nullable(),
  fileName: z.string(),
  /** The size this link fetches. */
  size: DownloadSize,
  downloadedBytes: z.number().int(),
  resumedCount: z.number().int(),
  /** On a re-download request: the allowance after it (what is left). Null otherwise. */
  redownloads: RedownloadAllowance.nullable(),
  /** The film's licence for this phone when the request sent its key; it moved here from another phone if need be. */
  licence: Licence.nullable(),
  /**
   * The file's 8-byte nonce, base64url (decision 0229): the file is encrypted with the title's key, and the licence
   * opens it. Null for a file stored before encryption, not yet encrypted (it is served plain until then).
   */
  fileNonce: z.string().nullable(),
});
export type DownloadUrlResponse = z.infer<typeof DownloadUrlResponse>;

export const StartDownloadRequest = z.object({
  movieId: Id,
  totalBytes: z.number().int().min(0).optional(),
});
export const StartDownloadResponse = z.object({
  downloadId: z.string(),
  status: DownloadStatus,
  downloadedBytes: z.number().int(),
  totalBytes: z.number().int(),
  resumedCount: z.number().int(),
});

export const DownloadIdParams = z.object({ id: Id });

export const DownloadProgressRequest = z.object({
  downloadedBytes: z.number().int().min(0),
  totalBytes: z.number().int().min(0),
  progress: z.number().min(0).max(100).optional(),
  resumedCount: z.number().int().min(0).optional(),
  /** `paused` when the person pauses; progress is kept and the download stays resumable. */
  status: z.enum(['downloading', 'paused']).default('downloading'),
  /**
   * Every byte this download has fetched so far, re-fetches after drops and earlier sizes included (the client's own
   * running count). Read only where the server cannot see the bytes (S3); it only grows, by at most one file per
   * report (decision 0126).
   */
  fetchedBytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});
export type DownloadProgressRequest = z.input<typeof DownloadProgressRequest>;

/** Optional final byte count, so a client can report the last bytes and completion in one call. */
export const CompleteDownloadRequest = z.object({ downloadedBytes: z.number().int().min(0).optional() }).optional();
export const FailDownloadRequest = z.object({ error: z.string().trim().max(500).default('') });

export const DownloadRecord = z.object({
  downloadId: z.string(),
  movieId: z.string(),
  status: DownloadStatus,
  /** Percent, 0–100, one decimal. */
  progress: z.number(),
  downloadedBytes: z.number().int(),
  totalBytes: z.number().int(),
  resumedCount: z.number().int(),
  size: DownloadSize,
  /** Bytes fetched, re-fetches after drops included (what the download cost in data). */
  fetchedBytes: z.number().int(),
  canResume: z.boolean(),
  completedAt: IsoDateTime.nullable(),
});
export type DownloadRecord = z.infer<typeof DownloadRecord>;

export const HasDownloadedResponse = z.object({ hasDownloaded: z.boolean() });
export const KinayugandaStatusResponse = z.object({
  /** English is unlocked: every entitled Kinayuganda movie downloaded, or all of them were earlier this period. */
  hasDownloadedAllKinayuganda: z.boolean(),
  /** English was unlocked earlier in this paid period and stays so, though movies added since are not downloaded. */
  englishKept: z.boolean(),
  ...KinayugandaProgress.shape,
  /**
   * Of the Kinayuganda movies still to download, those the parental PIN hides from this session: they still count
   * for the English rule, and the notice says so (decision 0212).
   */
  hiddenByParentalPin: z.number().int(),
});

export const DownloadHistoryEntry = z.object({
  downloadId: z.string(),
  movieId: z.string(),
  movieTitle: z.string(),
  movieSize: z.number().int(),
  /** The size downloaded and the bytes it fetched (re-fetches included). */
  size: DownloadSize,
  fetchedBytes: z.number().int(),
  /** Of `fetchedBytes`, those served while a night window was open (the server's clock, the windows then in force). */
  nightBytes: z.number().int(),
  /** The film came from another phone (a film file or a transfer): its data was not fetched (issue 19/22). */
  received: z.boolean(),
  category: z.enum(MOVIE_CATEGORY_NAMES),
  status: DownloadStatus,
  progress: z.number(),
  /** When it completed, or the last activity of an unfinished one. */
  lastDownloadDate: IsoDateTime,
});
export type DownloadHistoryEntry = z.infer<typeof DownloadHistoryEntry>;

export const DownloadHistory = z.object({ downloads: z.array(DownloadHistoryEntry) });

export const DownloadStats = z.object({
  summary: z.object({
    totalMoviesDownloaded: z.number().int(),
    /** Bytes of every completed download. */
    totalStorageUsed: z.number().int(),
    lastDownloadDate: IsoDateTime.nullable(),
  }),
  detailedDownloads: z.array(DownloadHistoryEntry),
});
export type DownloadStats = z.infer<typeof DownloadStats>;
