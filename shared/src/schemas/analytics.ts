import { z } from 'zod';
import { LicenceWay } from './licences.ts';
import { DownloadSize } from './renditions.ts';

export const AnalyticsQuery = z.object({
  /** Length of the daily series, ending today (Kampala). */
  days: z.coerce.number().int().min(1).max(366).default(30),
});

export const DailyFigures = z.object({
  /** Kampala calendar day, YYYY-MM-DD. */
  date: z.string(),
  downloads: z.number().int(),
  revenueUgx: z.number().int(),
  newSubscribers: z.number().int(),
});
export type DailyFigures = z.infer<typeof DailyFigures>;

/** Licences issued over the period of the series (decision 0230), by way and for the films licensed most. */
export const LicenceFigures = z.object({
  /** download, redownload and transfer, in that order. */
  byWay: z.array(z.object({ way: LicenceWay, issued: z.number().int() })),
  /** The ten films with the most licences issued in the period, deleted ones under their title. */
  byFilm: z.array(z.object({ movieId: z.string(), title: z.string(), issued: z.number().int() })),
  /** Licences revoked in the period: moved to another phone, or their film taken down for rights. */
  revoked: z.object({ moved: z.number().int(), takenDown: z.number().int() }),
});
export type LicenceFigures = z.infer<typeof LicenceFigures>;

/** Films that came to a phone from another phone over the period (issue 19/22 §5), and the data they saved. */
export const PhoneToPhoneFigures = z.object({
  films: z.number().int(),
  /** Of those, from an agent's phone (a kiosk, decision 0246). */
  fromAgents: z.number().int(),
  /** What their people did not fetch: each film's size less what its phone had fetched of it before. */
  savedBytes: z.number().int(),
  /** The same at the operator's price per GB. */
  savedUgx: z.number().int(),
  /**
   * Plans bought in the period by people with a received film waiting for a plan on their phone (the first plan after
   * it), and what they paid.
   */
  plansAfter: z.number().int(),
  plansAfterUgx: z.number().int(),
});
export type PhoneToPhoneFigures = z.infer<typeof PhoneToPhoneFigures>;

export const PlatformAnalytics = z.object({
  /** Completed downloads, all time. */
  totalDownloads: z.number().int(),
  /** Registered (non-admin) accounts: the admin's Subscribers list. */
  totalSubscribers: z.number().int(),
  /** Of those, with a subscription in force now. */
  activeSubscribers: z.number().int(),
  /** Registered in the last 7 days. */
  newSubscribersThisWeek: z.number().int(),
  totalMovies: z.number().int(),
  /** Completed payments, all time. */
  revenueUgx: z.number().int(),
  /** Completed payments since Kampala midnight today. */
  revenueTodayUgx: z.number().int(),
  /** Completed payments since midnight on the 1st of this Kampala month. */
  revenueThisMonthUgx: z.number().int(),
  /** Payments waiting for an admin's review decision (status `review`), whenever they started. */
  paymentsAwaitingReview: z.number().int(),
  daily: z.array(DailyFigures),
  /**
   * Per size (small-hevc, small, standard, hd, original, in that order: `DOWNLOAD_SIZES`), over the period of the
   * series: the bytes fetched by downloads active in it (re-fetches included, what the data cost) and the downloads
   * completed in it.
   */
  servedBySize: z.array(
    z.object({ size: DownloadSize, fetchedBytes: z.number().int(), completedDownloads: z.number().int() }),
  ),
  /** The two Smalls' share (0–1; H.264 and HEVC) of the downloads completed in the period; 0 when there were none. */
  smallShare: z.number(),
  /**
   * Night bundle (issue 21/22), over the period of the series: the bytes served while a night window was open, their
   * share (0–1) of every byte served (0 when none were), and what they saved subscribers at the operator's day and
   * night prices (nightBytes × (day − night) / 10⁹, rounded; never below 0).
   */
  nightBytes: z.number().int(),
  nightShare: z.number(),
  nightSavedUgx: z.number().int(),
  licences: LicenceFigures,
  phoneToPhone: PhoneToPhoneFigures,
});
export type PlatformAnalytics = z.infer<typeof PlatformAnalytics>;

export const MovieDownloadStat = z.object({
  movie_id: z.string(),
  movie_title: z.string(),
  download_count: z.number().int(),
});
export const TopDownloads = z.object({ stats: z.array(MovieDownloadStat) });
