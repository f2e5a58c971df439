import { isLocale, NIGHT_WINDOW_PUSH_URL, type Locale } from '@filamu/shared';
import { lt, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../../db/client.ts';
import { claimJobRun, finishJobRun } from '../../db/job-runs.ts';
import { nightWindowPushes } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { startIntervalJob } from '../../lib/interval-job.ts';
import { observedPass } from '../metrics/jobs.ts';
import type { Metrics } from '../metrics/registry.ts';
import { queuePush } from '../push/outbox.ts';
import { nightWindowPush } from '../push/texts.ts';
import { openWindowAt } from './schedule.ts';
import { nightSchedule } from './settings.ts';

/** A pass a minute: the push reaches people within a minute or so of the window's start. */
export const NIGHT_WINDOW_PUSH_INTERVAL_MS = 60_000;
const NIGHT_WINDOW_PUSH_JOB = 'night-window-push';
/** No push in a window's last half hour: the films would be paused again almost as soon as they start. */
export const LAST_PUSH_BEFORE_CLOSE_MS = 30 * 60_000;
/** A list not saved for a week is forgotten for the push (a phone given away, the app removed). */
export const QUEUE_FORGOTTEN_AFTER_MS = 7 * 24 * 3_600_000;
/** A window's rows are kept a week (far past its end), then deleted by a claimed pass: the table stays small. */
const PUSH_ROWS_KEPT_MS = 7 * 24 * 3_600_000;
const BATCH = 500;
const MAX_BATCHES = 20;

type PushDeps = { database: Database; clock: Clock; logger: Logger };

interface WaitingPerson {
  userId: string;
  locale: Locale;
}

interface PushReport {
  opensAt: string | null;
  notified: number;
}

/**
 * People to tell that the window opening at `opensAt` is on: a film waiting in tonight's list (live, not yet on their
 * phone), the list saved in the last week, a push subscription, and no push for this window yet.
 */
async function waitingPeople(deps: PushDeps, opensAt: Date, now: Date): Promise<WaitingPerson[]> {
  const since = new Date(now.getTime() - QUEUE_FORGOTTEN_AFTER_MS).toISOString();
  const result = await deps.database.db.execute(sql`
    select distinct q.user_id, u.language
      from tonight_queue_items q
      join users u on u.id = q.user_id
      join movies m on m.id = q.movie_id and m.is_active and m.deleted_at is null
     where q.created_at >= ${since}::timestamptz
       and exists (select 1 from push_subscriptions s where s.user_id = q.user_id)
       and not exists (
         select 1 from downloads d where d.user_id = q.user_id and d.movie_id = q.movie_id and d.status = 'completed'
       )
       and not exists (
         select 1 from night_window_pushes p where p.user_id = q.user_id and p.opens_at = ${opensAt.toISOString()}::timestamptz
       )
     order by q.user_id
     limit ${BATCH}`);
  return (result as unknown as { rows: { user_id: string; language: string | null }[] }).rows.map((r) => ({
    userId: r.user_id,
    locale: isLocale(r.language) ? r.language : 'en',
  }));
}

/**
 * Queues the window-start push for everyone waiting for the window open now (decision 0255). The (person, window) row
 * is inserted, on conflict doing nothing, in the transaction that queues the push: two replicas, or a pass run again
 * after a crash, queue it once — and a crash between the two leaves neither.
 */
export async function sendNightWindowPushes(deps: PushDeps): Promise<PushReport> {
  const now = deps.clock.now();
  const open = openWindowAt(await nightSchedule(deps.database.db), now);
  if (!open || open.closesAt.getTime() - now.getTime() <= LAST_PUSH_BEFORE_CLOSE_MS) {
    return { opensAt: null, notified: 0 };
  }
  let notified = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const people = await waitingPeople(deps, open.opensAt, now);
    for (const { userId, locale } of people) {
      const queued = await deps.database.db.transaction(async (tx) => {
        const [claimed] = await tx
          .insert(nightWindowPushes)
          .values({ userId, opensAt: open.opensAt, createdAt: now })
          .onConflictDoNothing()
          .returning({ userId: nightWindowPushes.userId });
        if (!claimed) return 0;
        return queuePush(tx, now, userId, {
          kind: 'night-window',
          ...nightWindowPush(locale),
          url: NIGHT_WINDOW_PUSH_URL,
        });
      });
      if (queued > 0) notified += 1;
    }
    if (people.length < BATCH) break;
  }
  const report = { opensAt: open.opensAt.toISOString(), notified };
  if (notified > 0) deps.logger.info(report, 'night window push queued');
  return report;
}

/** One pass for whichever replica claims the minute (decision 0084); null for the others. */
export async function runNightWindowPush(
  deps: PushDeps,
  intervalMs = NIGHT_WINDOW_PUSH_INTERVAL_MS,
): Promise<PushReport | null> {
  const db = deps.database.db;
  if (!(await claimJobRun(db, NIGHT_WINDOW_PUSH_JOB, deps.clock.now(), intervalMs))) return null;
  const report = await sendNightWindowPushes(deps);
  const keptFrom = new Date(deps.clock.now().getTime() - PUSH_ROWS_KEPT_MS);
  await db.delete(nightWindowPushes).where(lt(nightWindowPushes.opensAt, keptFrom));
  await finishJobRun(db, NIGHT_WINDOW_PUSH_JOB, deps.clock.now(), report);
  return report;
}

export function startNightWindowPush(
  deps: PushDeps & { metrics: Metrics },
  intervalMs = NIGHT_WINDOW_PUSH_INTERVAL_MS,
) {
  const onError = (error: unknown) => deps.logger.error({ err: error }, 'night window push failed');
  return startIntervalJob(
    observedPass(deps, 'night_window_push', () => runNightWindowPush(deps, intervalMs), onError),
    intervalMs,
    onError,
    { firstRunAfterMs: Math.min(10_000, intervalMs) },
  );
}
