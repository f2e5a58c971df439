import { dateToKampalaLocal } from '@filamu/shared';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../../db/client.ts';
import { pushDigests } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { startIntervalJob } from '../../lib/interval-job.ts';
import { observedPass } from '../metrics/jobs.ts';
import type { Metrics } from '../metrics/registry.ts';
import { queuePush } from './outbox.ts';
import { newMoviesPush } from './texts.ts';

/** No "new movies" push at night in Kampala: between 09:00 and 21:00 only (decision 0154). */
const QUIET_BEFORE_HOUR = 9;
const QUIET_FROM_HOUR = 21;
/** People looked at per pass; the next pass takes the rest. */
const BATCH = 500;

type SweepDeps = { database: Database; clock: Clock; logger: Logger };

/**
 * One pass of the daily "new Kinayuganda movies" push (decision 0154): for each person with a push subscription and
 * live Kinayuganda movies added since they subscribed and since their last such push, one push a Kampala day. The
 * digest row's primary key (person, kind, day) is claimed in the same transaction that queues the push, so two
 * replicas sweeping at once queue it once. Returns how many people were notified.
 */
export async function sweepNewMovies(deps: SweepDeps): Promise<number> {
  const now = deps.clock.now();
  const local = dateToKampalaLocal(now);
  const hour = Number(local.slice(11, 13));
  if (hour < QUIET_BEFORE_HOUR || hour >= QUIET_FROM_HOUR) return 0;
  const day = local.slice(0, 10);
  const at = now.toISOString();
  const result = await deps.database.db.execute(sql`
    select s.user_id, u.language, count(m.id)::int as count, max(m.created_at) as newest
      from (select user_id, min(created_at) as since from push_subscriptions group by user_id) s
      join users u on u.id = s.user_id
      left join lateral (
        select max(newest_movie_at) as told from push_digests d where d.user_id = s.user_id and d.kind = 'new_movies'
      ) d on true
      join movies m
        on m.category = 'Kinayuganda' and m.is_active and m.deleted_at is null
       and m.created_at > greatest(s.since, coalesce(d.told, s.since)) and m.created_at <= ${at}::timestamptz
     where not exists (
       select 1 from push_digests x where x.user_id = s.user_id and x.kind = 'new_movies' and x.day = ${day}
     )
     group by s.user_id, u.language
     order by s.user_id
     limit ${BATCH}`);
  const rows = (
    result as unknown as { rows: { user_id: string; language: 'en' | 'lg'; count: number; newest: string | Date }[] }
  ).rows;
  let notified = 0;
  for (const row of rows) {
    const queued = await deps.database.db.transaction(async (tx) => {
      const [claimed] = await tx
        .insert(pushDigests)
        .values({ userId: row.user_id, kind: 'new_movies', day, newestMovieAt: new Date(row.newest), createdAt: now })
        .onConflictDoNothing()
        .returning({ userId: pushDigests.userId });
      if (!claimed) return 0;
      return queuePush(tx, now, row.user_id, {
        kind: 'new_movies',
        ...newMoviesPush(Number(row.count), row.language),
        url: '/movies?category=Kinayuganda',
      });
    });
    if (queued > 0) notified += 1;
  }
  if (notified > 0) deps.logger.info({ people: notified, day }, 'new movies push queued');
  return notified;
}

export function startNewMoviesSweep(
  deps: SweepDeps & { metrics: Metrics; config: { push: { sweepIntervalMs: number } } },
) {
  const onError = (error: unknown) => deps.logger.error({ err: error }, 'new movies push sweep failed');
  return startIntervalJob(
    observedPass(deps, 'push_sweep', () => sweepNewMovies(deps), onError),
    deps.config.push.sweepIntervalMs,
    onError,
    { firstRunAfterMs: 60_000 },
  );
}
