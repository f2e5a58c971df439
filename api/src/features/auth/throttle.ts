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

function blockSeconds(failures: number, policy: ThrottlePolicy): number {
  if (failures < policy.freeFailures) return 0;
  const step = Math.min(failures - policy.freeFailures, policy.backoffSeconds.length - 1);
  return policy.backoffSeconds[step]!;
}

/** Throws 429 with Retry-After while any key is blocked; costs one indexed read, no hashing. */
export async function assertNotThrottled(exec: Executor, keys: ThrottleKey[], now: Date): Promise<void> {
  const rows = await exec
    .select()
    .from(authThrottle)
    .where(
      inArray(
        authThrottle.key,
        keys.map((k) => k.key),
      ),
    );
  const waitMs = Math.max(0, ...rows.map((r) => (r.blockedUntil ? r.blockedUntil.getTime() - now.getTime() : 0)));
  if (waitMs > 0) {
    const retryAfterSeconds = Math.ceil(waitMs / 1000);
    throw new AppError('throttled', `Too many failed attempts. Try again in ${retryAfterSeconds} seconds.`, {
      retryAfterSeconds,
    });
  }
}

export async function recordFailure(exec: Executor, keys: ThrottleKey[], now: Date): Promise<void> {
  for (const { key, policy } of keys) {
    const [row] = await exec
      .insert(authThrottle)
      .values({ key, failures: 1, lastFailureAt: now })
      .onConflictDoUpdate({
        target: authThrottle.key,
        set: { failures: sql`${authThrottle.failures} + 1`, lastFailureAt: now },
      })
      .returning({ failures: authThrottle.failures });
    const seconds = blockSeconds(row!.failures, policy);
    if (seconds > 0) {
      await exec
        .update(authThrottle)
        .set({ blockedUntil: new Date(now.getTime() + seconds * 1000) })
        .where(eq(authThrottle.key, key));
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
