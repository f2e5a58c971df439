import type { MovieAccess, MovieRating } from '@filamu/shared';
import { and, count, eq, gt, inArray, isNull, lt, not, notExists, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { agents, downloads, moviePlans, movies, users } from '../../db/schema.ts';
import type { AgentRow, Principal, UserRow } from '../../http/principal.ts';
import { liveMovie } from './movie.ts';

/**
 * Who is downloading, as the rules see them. Staff (agents and admins) need no subscription and are
 * entitled to every active movie; a subscriber to the active movies attached to their current plan.
 */
export interface Downloader {
  kind: 'user' | 'agent';
  id: string;
  staff: boolean;
  /** A subscription in force now, or staff. */
  subscribed: boolean;
  /** The plan whose movies a (non-staff) subscriber may download; null when not subscribed. */
  planId: string | null;
  /**
   * English unlocked earlier in the paid period now in force (decision 0177): it stays unlocked whatever
   * Kinayuganda movie is added since. Never set for staff, whose rule is the catalogue as it is.
   */
  englishKept: boolean;
}

/** What the rules read of a subscriber's row. */
type DownloaderUser = Pick<
  UserRow,
  'id' | 'isAdmin' | 'subscriptionPlanId' | 'subscriptionStartDate' | 'subscriptionEndDate' | 'englishUnlockedAt'
>;

export function downloaderFromRow(
  row: { kind: 'user'; user: DownloaderUser } | { kind: 'agent'; agent: Pick<AgentRow, 'id'> },
  now: Date,
): Downloader {
  if (row.kind === 'agent') {
    return { kind: 'agent', id: row.agent.id, staff: true, subscribed: true, planId: null, englishKept: false };
  }
  const { user } = row;
  const inForce = user.subscriptionEndDate !== null && now < user.subscriptionEndDate;
  if (user.isAdmin)
    return { kind: 'user', id: user.id, staff: true, subscribed: true, planId: null, englishKept: false };
  return {
    kind: 'user',
    id: user.id,
    staff: false,
    subscribed: inForce,
    planId: inForce ? user.subscriptionPlanId : null,
    englishKept: inForce && unlockedThisPeriod(user),
  };
}

/** An unlock counts for the paid period it happened in: a new period moves the start past it (decision 0177). */
const unlockedThisPeriod = (user: DownloaderUser) =>
  user.englishUnlockedAt !== null &&
  user.subscriptionStartDate !== null &&
  user.englishUnlockedAt >= user.subscriptionStartDate;

export const downloaderOf = (principal: Principal, now: Date): Downloader => downloaderFromRow(principal, now);

/**
 * Locks the downloader's own row for the rest of the transaction and reads it afresh: every grant of
 * one person queues here, so concurrent grants see each other's rows and a subscription that ended
 * a moment ago is seen as ended.
 */
export async function lockDownloader(exec: Executor, downloader: Downloader, now: Date): Promise<Downloader | null> {
  if (downloader.kind === 'agent') {
    const [agent] = await exec
      .select({ id: agents.id, isActive: agents.isActive })
      .from(agents)
      .where(eq(agents.id, downloader.id))
      .for('update');
    return agent && agent.isActive ? downloaderFromRow({ kind: 'agent', agent }, now) : null;
  }
  // Only what the rules read: the row is read on every grant, under its lock.
  const [user] = await exec
    .select({
      id: users.id,
      isAdmin: users.isAdmin,
      subscriptionPlanId: users.subscriptionPlanId,
      subscriptionStartDate: users.subscriptionStartDate,
      subscriptionEndDate: users.subscriptionEndDate,
      englishUnlockedAt: users.englishUnlockedAt,
    })
    .from(users)
    .where(eq(users.id, downloader.id))
    .for('update');
  return user ? downloaderFromRow({ kind: 'user', user }, now) : null;
}

/** The downloader's own rows in `downloads`. */
export const ownDownloads = (downloader: Downloader): SQL =>
  downloader.kind === 'user' ? eq(downloads.userId, downloader.id) : eq(downloads.agentId, downloader.id);

/** `ownDownloads` for a subquery that reads `downloads` under an alias (written out: see readyRenditionsJson). */
export const ownedBy = (downloader: Downloader, alias: 'd'): SQL =>
  downloader.kind === 'user'
    ? sql`${sql.raw(alias)}.user_id = ${downloader.id}`
    : sql`${sql.raw(alias)}.agent_id = ${downloader.id}`;

/** Whether the downloader may download the movie in `movies` (as a SQL condition). */
export function entitledMovie(downloader: Downloader): SQL {
  if (downloader.staff) return sql`true`;
  if (!downloader.planId) return sql`false`;
  return sql`exists (select 1 from ${moviePlans} where ${moviePlans.movieId} = ${movies.id} and ${moviePlans.planId} = ${downloader.planId})`;
}

/** The live Kinayuganda movies the downloader is entitled to (a condition on `movies`): what stands before English. */
const entitledKinayuganda = (downloader: Downloader) =>
  and(liveMovie(), eq(movies.category, 'Kinayuganda'), entitledMovie(downloader));

/** A subquery with a row when the downloader completed the movie in `movies`, for EXISTS and NOT EXISTS. */
const completedByCaller = (downloader: Downloader) =>
  sql`(select 1 from ${downloads} where ${and(
    eq(downloads.movieId, movies.id),
    ownDownloads(downloader),
    eq(downloads.status, 'completed'),
  )})`;

/**
 * How far the downloader is through the Kinayuganda movies that stand between them and English ones:
 * entitled live Kinayuganda movies, and how many of those they completed (counted from their own
 * downloads, which stay few).
 */
export async function kinayugandaProgress(
  exec: Executor,
  downloader: Downloader,
  hiddenRatings: readonly MovieRating[] = [],
): Promise<{ required: number; completed: number; hiddenByParentalPin: number }> {
  const kinayuganda = entitledKinayuganda(downloader);
  const [[required], [completed], [hidden]] = await Promise.all([
    exec.select({ n: count() }).from(movies).where(kinayuganda),
    exec
      .select({ n: count() })
      .from(downloads)
      .innerJoin(movies, eq(movies.id, downloads.movieId))
      .where(and(ownDownloads(downloader), eq(downloads.status, 'completed'), kinayuganda)),
    hiddenRatings.length === 0
      ? [{ n: 0 }]
      : exec
          .select({ n: count() })
          .from(movies)
          .where(
            and(kinayuganda, inArray(movies.rating, [...hiddenRatings]), notExists(completedByCaller(downloader))),
          ),
  ]);
  return {
    required: Number(required?.n ?? 0),
    completed: Number(completed?.n ?? 0),
    hiddenByParentalPin: Number(hidden?.n ?? 0),
  };
}

/**
 * Whether an entitled live Kinayuganda movie is still not completed — what locks English — as a SQL condition
 * (its own `movies` scope, so it can sit inside a query on `movies`). An EXISTS that stops at the first such
 * movie, so the grant pays for one row, not the whole catalogue.
 */
export function kinayugandaOutstandingSql(downloader: Downloader): SQL {
  return sql`exists (select 1 from ${movies} where ${and(
    entitledKinayuganda(downloader),
    notExists(completedByCaller(downloader)),
  )})`;
}

/**
 * Records the moment English unlocked for a subscriber who has no entitled live Kinayuganda movie left to download,
 * once per paid period (decision 0177), so a Kinayuganda movie added later does not lock English again. A single
 * conditional update: callers racing record one moment, and a period already unlocked is left as it is.
 */
export async function recordEnglishUnlock(exec: Executor, downloader: Downloader, now: Date): Promise<void> {
  if (downloader.kind !== 'user' || downloader.staff || !downloader.subscribed || downloader.englishKept) return;
  await exec
    .update(users)
    .set({ englishUnlockedAt: now })
    .where(
      and(
        eq(users.id, downloader.id),
        gt(users.subscriptionEndDate, now),
        or(isNull(users.englishUnlockedAt), lt(users.englishUnlockedAt, users.subscriptionStartDate)),
        not(kinayugandaOutstandingSql(downloader)),
      ),
    );
}

/**
 * The one place the download rules are decided (product §1, §5): a movie downloaded once is never granted
 * again; downloads need a subscription in force (staff excepted) and a movie in the plan; English waits
 * until every entitled active Kinayuganda movie is downloaded, and then stays open for the rest of the paid period.
 */
export function decideAccess(facts: {
  downloader: Downloader;
  entitled: boolean;
  completed: boolean;
  category: 'Kinayuganda' | 'English';
  kinayugandaOutstanding: boolean;
}): MovieAccess {
  if (facts.completed) return 'downloaded';
  if (!facts.downloader.subscribed) return 'subscription_required';
  if (!facts.entitled) return 'not_in_plan';
  if (facts.category === 'English' && facts.kinayugandaOutstanding && !facts.downloader.englishKept) return 'locked';
  return 'downloadable';
}
