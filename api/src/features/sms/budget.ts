import {
  SMS_BUDGET_PURPOSES,
  type SmsBudgetPurpose,
  type SmsBudgetSetting,
  type SmsBudgetStatus,
} from '@filamu/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Executor } from '../../db/client.ts';
import { smsBudgetCounts } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { networkOf } from '../../lib/network-prefix.ts';
import { countHits } from '../rate-limit/limiter.ts';
import { secondsUntil, waitPhrase } from '../rate-limit/wait-phrase.ts';
import { smsBudgetSetting } from '../settings/sms-budget.ts';

const HOUR_MS = 3_600_000;
/** Days run from midnight in Kampala (UTC+3 all year), the day the operator reads the gateway's statement in. */
const KAMPALA_OFFSET_MS = 3 * HOUR_MS;
const DAY_MS = 24 * HOUR_MS;

type Period = 'hour' | 'day';

/** The start and end of the hour and the Kampala day `now` is in. */
export function periodsAt(now: Date): Record<Period, { startsAt: Date; endsAt: Date }> {
  const hour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const day = Math.floor((now.getTime() + KAMPALA_OFFSET_MS) / DAY_MS) * DAY_MS - KAMPALA_OFFSET_MS;
  return {
    hour: { startsAt: new Date(hour), endsAt: new Date(hour + HOUR_MS) },
    day: { startsAt: new Date(day), endsAt: new Date(day + DAY_MS) },
  };
}

const alarmCount = (ceiling: number, percent: number) => Math.max(1, Math.ceil((ceiling * percent) / 100));

/** Raises one counter unless it is at `ceiling`; the new count, or null when it was full. */
async function raise(exec: Executor, purpose: string, period: Period, startsAt: Date, ceiling: number) {
  const [row] = await exec
    .insert(smsBudgetCounts)
    .values({ purpose, period, startsAt, sent: 1 })
    .onConflictDoUpdate({
      target: [smsBudgetCounts.purpose, smsBudgetCounts.period, smsBudgetCounts.startsAt],
      set: { sent: sql`${smsBudgetCounts.sent} + 1` },
      setWhere: sql`${smsBudgetCounts.sent} < ${ceiling}`,
    })
    .returning({ sent: smsBudgetCounts.sent });
  return row?.sent ?? null;
}

/**
 * Takes one text from `purpose`'s budget for this hour and this day, or none: the hour first, then the day (always
 * in that order, so two callers never wait on each other's rows crosswise); a full day gives the hour's back.
 * Each counter says "alarm" once, as it reaches the alarm share, and "reached" once, as it takes its last text.
 * Returns null when taken, else when the fuller period ends.
 */
export async function takeFromBudget(
  exec: Executor,
  logger: Logger,
  purpose: SmsBudgetPurpose,
  setting: SmsBudgetSetting,
  now: Date,
): Promise<Date | null> {
  const periods = periodsAt(now);
  const ceilings: Record<Period, number> = { hour: setting[purpose].perHour, day: setting[purpose].perDay };
  const taken: Period[] = [];
  for (const period of ['hour', 'day'] as const) {
    const sent = await raise(exec, purpose, period, periods[period].startsAt, ceilings[period]);
    if (sent === null) {
      for (const back of taken) {
        await exec
          .update(smsBudgetCounts)
          .set({ sent: sql`greatest(${smsBudgetCounts.sent} - 1, 0)` })
          .where(
            and(
              eq(smsBudgetCounts.purpose, purpose),
              eq(smsBudgetCounts.period, back),
              eq(smsBudgetCounts.startsAt, periods[back].startsAt),
            ),
          );
      }
      return periods[period].endsAt;
    }
    taken.push(period);
    const log = { purpose, period, sent, ceiling: ceilings[period], until: periods[period].endsAt.toISOString() };
    if (sent === alarmCount(ceilings[period], setting.alarmPercent)) {
      logger.warn({ ...log, alarmPercent: setting.alarmPercent }, 'sms budget alarm: a purpose is near its ceiling');
    }
    if (sent === ceilings[period]) {
      logger.warn(log, 'sms budget reached: codes are refused and other texts wait until the period ends');
    }
  }
  return null;
}

const CODES_UNAVAILABLE = "We can't send codes right now";
const NETWORK_REFUSAL = "We can't send more codes to your network right now";

/**
 * Call before queueing any code by SMS (recovery, phone change, phone confirmation), outside a transaction, as
 * `hitLimits` is. Counts the request against the caller's network (IPv4 /24, IPv6 /64): past the operator's
 * ceiling, 429 `rate_limited`. Then takes one text from the codes budget: past its hourly or daily ceiling, 503
 * `unavailable` "We can't send codes right now. Please try again in N minutes." with Retry-After (decision 0201).
 * `channel: 'email'` counts the network only (mail costs nothing per message).
 */
export async function assertCodeBudget(
  exec: Executor,
  logger: Logger,
  request: { purpose: string; ip: string; now: Date; channel?: 'sms' | 'email' },
): Promise<void> {
  const setting = await smsBudgetSetting(exec);
  const network = await countHits(exec, request.now, [
    {
      limit: { name: 'codes:net', max: setting.codesPerNetworkPerHour, windowSeconds: 3600, refusal: NETWORK_REFUSAL },
      subject: networkOf(request.ip),
    },
  ]);
  if (network) {
    const { retryAfterSeconds } = network;
    logger.warn({ purpose: request.purpose }, 'code refused: its network is over the hourly ceiling');
    throw new AppError('rate_limited', `${NETWORK_REFUSAL}. Please try again ${waitPhrase(retryAfterSeconds)}.`, {
      retryAfterSeconds,
    });
  }
  if (request.channel === 'email') return;
  const until = await takeFromBudget(exec, logger, 'codes', setting, request.now);
  if (until) {
    const retryAfterSeconds = secondsUntil(until, request.now);
    throw new AppError('unavailable', `${CODES_UNAVAILABLE}. Please try again ${waitPhrase(retryAfterSeconds)}.`, {
      retryAfterSeconds,
    });
  }
}

/** Parses "UGX 1234.5000" (the gateway's way) to 1234.5; null for anything else. */
export function balanceUgx(balance: string | null): number | null {
  const match = /^UGX\s*(-?\d{1,15}(?:\.\d{1,6})?)$/.exec(balance?.trim() ?? '');
  return match ? Number(match[1]) : null;
}

/** Where every purpose stands now (the Overview card, the metrics); `balance` as the gateway wrote it. */
export async function budgetStatus(exec: Executor, now: Date, balance: string | null): Promise<SmsBudgetStatus> {
  const setting = await smsBudgetSetting(exec);
  const periods = periodsAt(now);
  const rows = await exec
    .select()
    .from(smsBudgetCounts)
    .where(inArray(smsBudgetCounts.startsAt, [periods.hour.startsAt, periods.day.startsAt]));
  const sentIn = (purpose: string, period: Period) =>
    rows.find(
      (r) =>
        r.purpose === purpose && r.period === period && r.startsAt.getTime() === periods[period].startsAt.getTime(),
    )?.sent ?? 0;
  const purposes = SMS_BUDGET_PURPOSES.map((purpose) => {
    const window = (period: Period, ceiling: number) => ({
      sent: sentIn(purpose, period),
      ceiling,
      resetsAt: periods[period].endsAt.toISOString(),
    });
    const hour = window('hour', setting[purpose].perHour);
    const day = window('day', setting[purpose].perDay);
    const over = (w: typeof hour, share: number) => w.sent >= alarmCount(w.ceiling, share);
    return {
      purpose,
      hour,
      day,
      alarm: over(hour, setting.alarmPercent) || over(day, setting.alarmPercent),
      reached: hour.sent >= hour.ceiling || day.sent >= day.ceiling,
    };
  });
  const ugx = balanceUgx(balance);
  const balanceLow = ugx !== null && ugx < setting.balanceAlarmUgx;
  return {
    setting,
    purposes,
    balanceUgx: ugx,
    balanceLow,
    alarm: balanceLow || purposes.some((p) => p.alarm),
  };
}
