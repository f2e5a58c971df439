import { eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { authThrottle } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';

/**
 * Failed-attempt throttling kept in the database so every server process sees the same counts.
 * Per account: after 5 consecutive failures each further attempt waits 1, 2, 4 … 300 s.
 * Per client IP: 10 consecutive failures block the IP for 10 minutes.
 * Never permanent: a block always ends, and a success clears the counters.
 */
export interface ThrottlePolicy {
  freeFailures: number;
  backoffSeconds: readonly number[];
}

export const ACCOUNT_POLICY: ThrottlePolicy = { freeFailures: 5, backoffSeconds: [1, 2, 4, 8, 16, 30, 60, 180, 300] };
export const IP_POLICY: ThrottlePolicy = { freeFailures: 10, backoffSeconds: [600] };

export interface ThrottleKey {
  key: string;
  policy: ThrottlePolicy;
}

/**
 * Claims one attempt on every key before the password is checked: the counter is raised in the same
 * statement that checks the block, so concurrent guesses cannot all slip past the check. A blocked
 * key answers 429 with Retry-After and no hashing happens. The attempt stays counted unless the
 * caller succeeds and clears the keys.
 */
export async function claimAttempt(exec: Executor, keys: ThrottleKey[], now: Date): Promise<void> {
  for (const { key, policy } of keys) {
    const failures = sql`${authThrottle.failures} + 1`;
    const backoff = sql.raw(`ARRAY[${policy.backoffSeconds.map((n) => Math.trunc(n)).join(',')}]::int[]`);
    const claimed = await exec
      .insert(authThrottle)
      .values({
        key,
        failures: 1,
        lastFailureAt: now,
      })
      .onConflictDoUpdate({
        target: authThrottle.key,
        set: {
          failures,
          lastFailureAt: now,
          blockedUntil: sql`case when ${failures} >= ${policy.freeFailures}::int
            then ${now.toISOString()}::timestamptz + make_interval(secs => (${backoff})[least(${failures} - ${policy.freeFailures}::int + 1, ${policy.backoffSeconds.length}::int)])
            else null end`,
        },
        setWhere: sql`${authThrottle.blockedUntil} is null or ${authThrottle.blockedUntil} <= ${now.toISOString()}::timestamptz`,
      })
      .returning({ failures: authThrottle.failures });
    if (claimed.length === 0) {
      const [row] = await exec.select().from(authThrottle).where(eq(authThrottle.key, key));
      const waitMs = row?.blockedUntil ? row.blockedUntil.getTime() - now.getTime() : 1000;
      const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new AppError('throttled', `Too many failed attempts. Try again in ${retryAfterSeconds} seconds.`, {
        retryAfterSeconds,
      });
    }
  }
}

export async function clearFailures(exec: Executor, keys: ThrottleKey[]): Promise<void> {
  await exec.delete(authThrottle).where(
    inArray(
      authThrottle.key,
      keys.map((k) => k.key),
    ),
  );
}
