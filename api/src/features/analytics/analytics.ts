import {
  type DailyFigures,
  DOWNLOAD_SIZES,
  kampalaDayStart,
  kampalaMonthStart,
  type PlatformAnalytics,
} from '@filamu/shared';
import { and, count, desc, eq, gte, isNull, sql, sum } from 'drizzle-orm';
import { downloads, movies, payments, users } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Database } from '../../db/client.ts';
import { licenceFigures } from './licence-figures.ts';
import { nightFigures } from './night-figures.ts';
import { phoneToPhoneFigures } from './phone-to-phone.ts';

interface AnalyticsDeps {
  database: Database;
  clock: Clock;
}

const DAY_MS = 86_400_000;
/** Africa/Kampala is UTC+3 all year: days are counted on Kampala's calendar. */
const KAMPALA_OFFSET_MS = 3 * 3_600_000;

const kampalaDay = (date: Date) => new Date(date.getTime() + KAMPALA_OFFSET_MS).toISOString().slice(0, 10);
/** SQL: the Kampala calendar day of a timestamptz, as YYYY-MM-DD, whatever the session's time zone. */
const kampalaDaySql = (column: unknown) =>
  sql<string>`to_char((${column} at time zone 'UTC') + interval '3 hours', 'YYYY-MM-DD')`;

/**
 * The admin's figures. "Subscribers" are registered non-admin accounts (the Subscribers list); active ones
 * have a subscription in force. Downloads count completed downloads; revenue completed payments.
 */
export async function platformAnalytics(deps: AnalyticsDeps, days: number): Promise<PlatformAnalytics> {
  const db = deps.database.db;
  const now = deps.clock.now();
  const today = kampalaDay(now);
  // Midnight (Kampala) at the start of the first day of the series.
  const seriesStart = new Date(Date.parse(`${today}T00:00:00Z`) - KAMPALA_OFFSET_MS - (days - 1) * DAY_MS);
  const customers = eq(users.isAdmin, false);
  const completedDownloads = eq(downloads.status, 'completed');
  const completedPayments = eq(payments.status, 'completed');
  const dayStart = kampalaDayStart(now);
  const monthStart = kampalaMonthStart(now);

  const [
    [accounts],
    [downloadTotal],
    [movieTotal],
    [revenue],
    downloadDays,
    revenueDays,
    signupDays,
    bySize,
    licences,
    phoneToPhone,
  ] = await Promise.all([
    db
      .select({
        total: count(),
        active: sql<number>`count(*) filter (where ${users.subscriptionEndDate} > ${now})`,
        thisWeek: sql<number>`count(*) filter (where ${users.createdAt} > ${new Date(now.getTime() - 7 * DAY_MS)})`,
      })
      .from(users)
      .where(customers),
    db.select({ n: count() }).from(downloads).where(completedDownloads),
    db.select({ n: count() }).from(movies).where(isNull(movies.deletedAt)),
    db
      .select({
        total: sql<string | null>`sum(${payments.amountUgx}) filter (where ${completedPayments})`,
        today: sql<
          string | null
        >`sum(${payments.amountUgx}) filter (where ${completedPayments} and ${payments.completedAt} >= ${dayStart})`,
        month: sql<
          string | null
        >`sum(${payments.amountUgx}) filter (where ${completedPayments} and ${payments.completedAt} >= ${monthStart})`,
        review: sql<number>`count(*) filter (where ${payments.status} = 'review')`,
      })
      .from(payments),
    db
      .select({ day: kampalaDaySql(downloads.completedAt), n: count() })
      .from(downloads)
      .where(and(completedDownloads, gte(downloads.completedAt, seriesStart)))
      .groupBy(sql`1`),
    db
      .select({ day: kampalaDaySql(payments.completedAt), n: sum(payments.amountUgx) })
      .from(payments)
      .where(and(completedPayments, gte(payments.completedAt, seriesStart)))
      .groupBy(sql`1`),
    db
      .select({ day: kampalaDaySql(users.createdAt), n: count() })
      .from(users)
      .where(and(customers, gte(users.createdAt, seriesStart)))
      .groupBy(sql`1`),
    // Fetched bytes carry no date: a download's count is taken whole when it was active in the period.
    db
      .select({
        size: downloads.size,
        fetched: sql<string>`coalesce(sum(${downloads.fetchedBytes}) filter (where ${downloads.lastActivityAt} >= ${seriesStart}), 0)`,
        night: sql<string>`coalesce(sum(${downloads.nightBytes}) filter (where ${downloads.lastActivityAt} >= ${seriesStart}), 0)`,
        completed: sql<number>`count(*) filter (where ${completedDownloads} and ${downloads.completedAt} >= ${seriesStart})`,
      })
      .from(downloads)
      .where(gte(sql`greatest(${downloads.lastActivityAt}, ${downloads.completedAt})`, seriesStart))
      .groupBy(downloads.size),
    licenceFigures(db, seriesStart),
    phoneToPhoneFigures(db, seriesStart),
  ]);

  const byDay = (rows: { day: string; n: unknown }[]) => new Map(rows.map((r) => [r.day, Number(r.n ?? 0)]));
  const downloadsOn = byDay(downloadDays);
  const revenueOn = byDay(revenueDays);
  const signupsOn = byDay(signupDays);
  const daily: DailyFigures[] = Array.from({ length: days }, (_, i) => {
    const date = kampalaDay(new Date(seriesStart.getTime() + i * DAY_MS));
    return {
      date,
      downloads: downloadsOn.get(date) ?? 0,
      revenueUgx: revenueOn.get(date) ?? 0,
      newSubscribers: signupsOn.get(date) ?? 0,
    };
  });

  return {
    totalDownloads: Number(downloadTotal?.n ?? 0),
    totalSubscribers: Number(accounts?.total ?? 0),
    activeSubscribers: Number(accounts?.active ?? 0),
    newSubscribersThisWeek: Number(accounts?.thisWeek ?? 0),
    totalMovies: Number(movieTotal?.n ?? 0),
    revenueUgx: Number(revenue?.total ?? 0),
    revenueTodayUgx: Number(revenue?.today ?? 0),
    revenueThisMonthUgx: Number(revenue?.month ?? 0),
    paymentsAwaitingReview: Number(revenue?.review ?? 0),
    daily,
    ...sizeFigures(bySize),
    ...(await nightFigures(db, bySize, now)),
    licences,
    phoneToPhone,
  };
}

function sizeFigures(rows: { size: string; fetched: unknown; completed: unknown }[]) {
  const servedBySize = DOWNLOAD_SIZES.map((size) => {
    const row = rows.find((r) => r.size === size);
    return { size, fetchedBytes: Number(row?.fetched ?? 0), completedDownloads: Number(row?.completed ?? 0) };
  });
  const completed = servedBySize.reduce((sum, s) => sum + s.completedDownloads, 0);
  // Both Smalls are "Small" to the people who download them (the HEVC one where the phone plays it: decision 0251).
  const small = servedBySize
    .filter((s) => s.size === 'small' || s.size === 'small-hevc')
    .reduce((sum, s) => sum + s.completedDownloads, 0);
  return { servedBySize, smallShare: completed === 0 ? 0 : small / completed };
}

/** The ten movies downloaded (completed) most, deleted ones included under their title. */
export async function topDownloads(deps: AnalyticsDeps) {
  const n = count();
  const rows = await deps.database.db
    .select({ movieId: movies.id, title: movies.title, n })
    .from(downloads)
    .innerJoin(movies, eq(movies.id, downloads.movieId))
    .where(eq(downloads.status, 'completed'))
    .groupBy(movies.id, movies.title)
    .orderBy(desc(n), movies.title)
    .limit(10);
  return {
    stats: rows.map((r) => ({ movie_id: r.movieId, movie_title: r.title, download_count: Number(r.n) })),
  };
}
