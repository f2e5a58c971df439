import { trimTrailingSlashes } from '@filamu/shared';
import { and, asc, eq, gt, isNotNull, lte, sql } from 'drizzle-orm';
import { claimJobRun, finishJobRun } from '../../db/job-runs.ts';
import { planReminders, REMINDER_KINDS, subscriptionPlans, users } from '../../db/schema.ts';
import { startIntervalJob } from '../../lib/interval-job.ts';
import { observedPass } from '../metrics/jobs.ts';
import type { PlanReminder, ReminderChannel, ReminderKind } from './channels.ts';
import { dueAt, dueEnds } from './windows.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { Logger } from 'pino';
import type { Metrics } from '../metrics/registry.ts';

/**
 * The plan reminder sweep (decision 0150): subscriptions whose end is in a reminder's window get that reminder once
 * per period, kind and channel. The row in `plan_reminders` and the queued message share one transaction, under the
 * person's row lock, so racing sweeps, replicas and crashes never send it twice, and a renewal (which moves the end
 * under the same lock) is seen before anything is queued.
 */

const REMINDER_SWEEP_JOB = 'plan-reminders';
export const REMINDER_SWEEP_INTERVAL_MS = 10 * 60_000;
const BATCH = 200;
/** Bounds one pass (200 × 50 reminders); the rest waits for the next. */
const MAX_BATCHES = 50;

interface ReminderDeps {
  config: Config;
  database: Database;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
}

/** The renew link: PUBLIC_URL's plans page (the server's local address without it, as printed at start). */
function renewUrl(config: Pick<Config, 'publicUrl' | 'port'>): string {
  return `${trimTrailingSlashes(config.publicUrl ?? `http://localhost:${config.port}`)}/subscription`;
}

interface Candidate {
  userId: string;
  end: Date;
  start: Date | null;
  planName: string;
}

async function candidates(deps: ReminderDeps, kind: ReminderKind, now: Date, names: string[]): Promise<Candidate[]> {
  const { after, upTo } = dueEnds(kind, now);
  const rows = await deps.database.db
    .select({
      userId: users.id,
      end: users.subscriptionEndDate,
      start: users.subscriptionStartDate,
      planName: subscriptionPlans.planName,
    })
    .from(users)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, users.subscriptionPlanId))
    .where(
      and(
        isNotNull(users.subscriptionEndDate),
        gt(users.subscriptionEndDate, after),
        lte(users.subscriptionEndDate, upTo),
        sql`(select count(*) from ${planReminders} r where r.user_id = ${users.id}
              and r.period_end = ${users.subscriptionEndDate} and r.kind = ${kind}
              and r.channel in (${sql.join(
                names.map((n) => sql`${n}`),
                sql`, `,
              )})) < ${names.length}`,
      ),
    )
    .orderBy(asc(users.subscriptionEndDate), asc(users.id))
    .limit(BATCH);
  return rows.map((r) => ({ ...r, end: r.end! }));
}

/** One person's reminder on every channel, in one transaction; returns how many channels queued it. */
async function remind(
  deps: ReminderDeps,
  channels: ReminderChannel[],
  kind: ReminderKind,
  candidate: Candidate,
  now: Date,
): Promise<number> {
  return deps.database.db.transaction(async (tx) => {
    const [user] = await tx
      .select({ phone: users.phone, end: users.subscriptionEndDate, language: users.language })
      .from(users)
      .where(eq(users.id, candidate.userId))
      .for('update');
    // Renewed (or ended by an admin) since the candidates were read: the new period has its own reminders.
    if (!user || user.end?.getTime() !== candidate.end.getTime()) return 0;
    const { after, upTo } = dueEnds(kind, now);
    if (!(candidate.end > after && candidate.end <= upTo)) return 0;
    // A period bought after this reminder fell due (its receipt just named the end) is not reminded of it.
    const boughtLate = candidate.start !== null && candidate.start >= dueAt(kind, candidate.end);
    const reminder: PlanReminder = {
      kind,
      userId: candidate.userId,
      phone: user.phone,
      language: user.language,
      planName: candidate.planName,
      accessUntil: candidate.end,
      renewUrl: renewUrl(deps.config),
    };
    let queued = 0;
    for (const channel of channels) {
      const [claimed] = await tx
        .insert(planReminders)
        .values({ userId: candidate.userId, periodEnd: candidate.end, kind, channel: channel.name, queued: false })
        .onConflictDoNothing()
        .returning({ id: planReminders.id });
      if (!claimed || boughtLate) continue;
      if (await channel.queue(tx, now, reminder)) {
        await tx.update(planReminders).set({ queued: true }).where(eq(planReminders.id, claimed.id));
        queued += 1;
      }
    }
    return queued;
  });
}

export interface ReminderReport {
  plan_ends_in_3_days: number;
  plan_ends_today: number;
}

/** Every reminder due now, on every channel; safe to run on several replicas at once. */
export async function sendDueReminders(deps: ReminderDeps, channels: ReminderChannel[]): Promise<ReminderReport> {
  const report: ReminderReport = { plan_ends_in_3_days: 0, plan_ends_today: 0 };
  if (channels.length === 0) return report;
  const names = channels.map((c) => c.name);
  for (const kind of REMINDER_KINDS) {
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const now = deps.clock.now();
      const found = await candidates(deps, kind, now, names);
      for (const candidate of found) report[kind] += await remind(deps, channels, kind, candidate, now);
      if (found.length < BATCH) break;
    }
  }
  return report;
}

/** One pass for whichever replica claims the period (decision 0084); null for the others. */
export async function runReminderSweep(
  deps: ReminderDeps,
  channels: ReminderChannel[],
  intervalMs = REMINDER_SWEEP_INTERVAL_MS,
): Promise<ReminderReport | null> {
  const db = deps.database.db;
  if (!(await claimJobRun(db, REMINDER_SWEEP_JOB, deps.clock.now(), intervalMs))) return null;
  const report = await sendDueReminders(deps, channels);
  await finishJobRun(db, REMINDER_SWEEP_JOB, deps.clock.now(), report);
  if (report.plan_ends_in_3_days + report.plan_ends_today > 0) deps.logger.info({ ...report }, 'plan reminders queued');
  return report;
}

export function startReminderSweep(
  deps: ReminderDeps,
  channels: ReminderChannel[],
  intervalMs = REMINDER_SWEEP_INTERVAL_MS,
): () => Promise<void> {
  const onError = (error: unknown) => deps.logger.error({ err: error }, 'plan reminder sweep failed');
  return startIntervalJob(
    observedPass(deps, 'reminders', () => runReminderSweep(deps, channels, intervalMs), onError),
    intervalMs,
    onError,
    { firstRunAfterMs: Math.min(10_000, intervalMs) },
  );
}
