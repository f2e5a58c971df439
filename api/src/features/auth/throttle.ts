import { and, eq, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { authThrottle } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { secondsUntil, waitPhrase } from '../rate-limit/wait-phrase.ts';

/**
 * Per-account sign-in throttling kept in the database so every server process sees the same counts (ADR 0060).
 * The first 5 failures are free; after that each further attempt waits 1, 2, 4 … 300 s. Never permanent, and a
 * success clears the count.
 *
 * A password check is a claimed slot, not a provisional failure: the slots an account may have in flight are the
 * free failures it has left (one while backing off), so 20 concurrent wrong guesses still let at most 5 reach
 * argon2, while concurrent right passwords only wait for each other and are never told about failures.
 */
const FREE_FAILURES = 5;
const BACKOFF_SECONDS = [1, 2, 4, 8, 16, 30, 60, 180, 300] as const;
/** A slot taken by a process that died mid-check stops counting after this long. */
const PENDING_TTL_MS = 30_000;
/** How long a sign-in waits for the account's other checks in flight before giving up, and how often it looks. */
const WAIT_FOR_SLOT_MS = 10_000;
const POLL_MS = 20;

const iso = (date: Date) => date.toISOString();

/** In-flight checks, ignoring a stale count left behind by a crashed process. */
const livePending = (now: Date) =>
  sql`(case when ${authThrottle.pendingUntil} > ${iso(now)}::timestamptz then ${authThrottle.pending} else 0 end)`;

/** Claims one password check for the account key, waiting while its other checks are in flight. */
export async function claimCheck(exec: Executor, key: string, clock: () => Date): Promise<void> {
  const giveUpAt = Date.now() + WAIT_FOR_SLOT_MS;
  for (;;) {
    const now = clock();
    const slots = sql`(case when ${authThrottle.failures} < ${FREE_FAILURES}::int
      then ${FREE_FAILURES}::int - ${authThrottle.failures} else 1 end)`;
    const claimed = await exec
      .insert(authThrottle)
      .values({ key, failures: 0, pending: 1, pendingUntil: new Date(now.getTime() + PENDING_TTL_MS) })
      .onConflictDoUpdate({
        target: authThrottle.key,
        set: {
          pending: sql`${livePending(now)} + 1`,
          pendingUntil: new Date(now.getTime() + PENDING_TTL_MS),
        },
        setWhere: sql`(${authThrottle.blockedUntil} is null or ${authThrottle.blockedUntil} <= ${iso(now)}::timestamptz)
          and ${livePending(now)} < ${slots}`,
      })
      .returning({ key: authThrottle.key });
    if (claimed.length > 0) return;

    const [row] = await exec.select().from(authThrottle).where(eq(authThrottle.key, key));
    if (row?.blockedUntil && row.blockedUntil > now) {
      const retryAfterSeconds = secondsUntil(row.blockedUntil, now);
      throw new AppError(
        'throttled',
        `Sign-in to this account is paused after several wrong passwords. Try again ${waitPhrase(retryAfterSeconds)}.`,
        { retryAfterSeconds },
      );
    }
    // Not blocked: other checks of this account are running. Their outcome decides whether this one may run.
    if (Date.now() >= giveUpAt) {
      throw new AppError('throttled', 'This account is already signing in. Please try again in a moment.', {
        retryAfterSeconds: 1,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The claimed check found a wrong password: count it and set the next backoff. */
export async function recordFailure(exec: Executor, key: string, now: Date): Promise<void> {
  const failures = sql`${authThrottle.failures} + 1`;
  const backoff = sql.raw(`ARRAY[${BACKOFF_SECONDS.join(',')}]::int[]`);
  await exec
    .insert(authThrottle)
    .values({ key, failures: 1, lastFailureAt: now })
    .onConflictDoUpdate({
      target: authThrottle.key,
      set: {
        failures,
        lastFailureAt: now,
        pending: sql`greatest(${livePending(now)} - 1, 0)`,
        blockedUntil: sql`case when ${failures} >= ${FREE_FAILURES}::int
          then ${iso(now)}::timestamptz + make_interval(secs => (${backoff})[least(${failures} - ${FREE_FAILURES}::int + 1, ${BACKOFF_SECONDS.length}::int)])
          else null end`,
      },
    });
}

/** The claimed check found the right password: the account's failures are forgiven. */
export async function recordSuccess(exec: Executor, key: string, now: Date): Promise<void> {
  await exec
    .update(authThrottle)
    .set({ failures: 0, blockedUntil: null, pending: sql`greatest(${livePending(now)} - 1, 0)` })
    .where(eq(authThrottle.key, key));
  await exec
    .delete(authThrottle)
    .where(
      and(
        eq(authThrottle.key, key),
        eq(authThrottle.failures, 0),
        or(eq(authThrottle.pending, 0), lte(authThrottle.pendingUntil, now)),
      ),
    );
}

/** The check never finished (e.g. the database failed): give the slot back without counting anything. */
export async function releaseCheck(exec: Executor, key: string, now: Date): Promise<void> {
  await exec
    .update(authThrottle)
    .set({ pending: sql`greatest(${livePending(now)} - 1, 0)` })
    .where(eq(authThrottle.key, key));
}

/** Rows of accounts nobody has tried for a day and that are not blocked (unknown identifiers pile up otherwise). */
export async function sweepIdleAccounts(exec: Executor, now: Date): Promise<void> {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  await exec.delete(authThrottle).where(
    sql`coalesce(${authThrottle.lastFailureAt}, ${authThrottle.pendingUntil}, ${iso(dayAgo)}::timestamptz) <= ${iso(dayAgo)}::timestamptz
        and (${authThrottle.blockedUntil} is null or ${authThrottle.blockedUntil} <= ${iso(now)}::timestamptz)`,
  );
}
