import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { loginIpFailures } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { secondsUntil, waitPhrase } from '../rate-limit/wait-phrase.ts';

/**
 * The per-IP ceiling against bulk guessing (ADR 0060). Many Ugandan subscribers share one carrier NAT address, so
 * this is not a lock: failures count per account tried, each account at most WEIGHT_CAP, over a sliding
 * IP_WINDOW_MS. Two dozen people with a few typos each, or one person hammering one account (which the per-account
 * backoff handles), stay far below it; a bot spraying passwords over hundreds of accounts reaches it.
 */
export const IP_CEILING = 300;
export const IP_WINDOW_MS = 15 * 60_000;
const WEIGHT_CAP = 3;

const iso = (date: Date) => date.toISOString();

/** Refuses the attempt (before any hashing) when the address has reached the ceiling. */
export async function assertUnderIpCeiling(exec: Executor, ip: string, now: Date): Promise<void> {
  const since = new Date(now.getTime() - IP_WINDOW_MS);
  const [row] = await exec
    .select({
      points: sql`coalesce(sum(least(${loginIpFailures.failures}, ${WEIGHT_CAP}::int)), 0)::int`.mapWith(Number),
      oldest: sql`min(${loginIpFailures.lastFailureAt})`.mapWith(loginIpFailures.lastFailureAt),
    })
    .from(loginIpFailures)
    .where(and(eq(loginIpFailures.ip, ip), gt(loginIpFailures.lastFailureAt, since)));
  if (!row || row.points < IP_CEILING || !row.oldest) return;
  // The oldest account's failures leave the window first, and with them the address drops below the ceiling.
  const retryAfterSeconds = secondsUntil(new Date(row.oldest.getTime() + IP_WINDOW_MS), now);
  throw new AppError(
    'throttled',
    `Too many failed sign-ins from your network. Try again ${waitPhrase(retryAfterSeconds)}.`,
    { retryAfterSeconds },
  );
}

export async function recordIpFailure(exec: Executor, ip: string, accountKey: string, now: Date): Promise<void> {
  const since = new Date(now.getTime() - IP_WINDOW_MS);
  await exec
    .insert(loginIpFailures)
    .values({ ip, accountKey, failures: 1, lastFailureAt: now })
    .onConflictDoUpdate({
      target: [loginIpFailures.ip, loginIpFailures.accountKey],
      set: {
        failures: sql`case when ${loginIpFailures.lastFailureAt} > ${iso(since)}::timestamptz
          then ${loginIpFailures.failures} + 1 else 1 end`,
        lastFailureAt: now,
      },
    });
}

/** A right password forgives that account's typos from this address (and only that account's). */
export async function forgetIpFailures(exec: Executor, ip: string, accountKey: string): Promise<void> {
  await exec.delete(loginIpFailures).where(and(eq(loginIpFailures.ip, ip), eq(loginIpFailures.accountKey, accountKey)));
}

export async function sweepIpFailures(exec: Executor, now: Date): Promise<void> {
  await exec.delete(loginIpFailures).where(lte(loginIpFailures.lastFailureAt, new Date(now.getTime() - IP_WINDOW_MS)));
}
