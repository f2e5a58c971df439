import { and, inArray, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rateLimitCounters } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { secondsUntil, waitPhrase } from './wait-phrase.ts';

/** One limit: at most `max` hits per `windowSeconds` for each subject (an account, an address, a payment…). */
export interface Limit {
  /** Part of the counter key; unique per limit. */
  name: string;
  max: number;
  windowSeconds: number;
  /** What the person is told, before "Try again in …". */
  refusal: string;
}

export interface LimitHit {
  limit: Limit;
  subject: string;
}

const iso = (date: Date) => date.toISOString();
const SWEEP_EVERY_MS = 10 * 60_000;
const nextSweep = new WeakMap<object, number>();

/**
 * Counts one hit on every limit and refuses with 429 `rate_limited` and Retry-After when one is over its maximum
 * (ADR 0061). Each counter is a window that opens at its first hit and lapses `windowSeconds` later. All counters
 * are raised by one atomic multi-row upsert (one round trip; concurrent hits are all counted, on every replica).
 * Limits are listed narrowest first: the hit is given back to the limits after the first one over, so a refused
 * re-send of one payment does not use up the payer's or the address's allowance.
 */
export async function hitLimits(exec: Executor, now: Date, hits: LimitHit[]): Promise<void> {
  await sweepNowAndThen(exec, now);
  const keyed = hits.map((hit) => ({ ...hit, key: `${hit.limit.name}:${hit.subject}` }));
  const open = sql`${rateLimitCounters.expiresAt} > ${iso(now)}::timestamptz`;
  const counters = await exec
    .insert(rateLimitCounters)
    .values(
      // In key order, so two requests sharing counters always lock them in the same order (no deadlock).
      [...keyed]
        .sort((a, b) => (a.key < b.key ? -1 : 1))
        .map(({ key, limit }) => ({ key, hits: 1, expiresAt: new Date(now.getTime() + limit.windowSeconds * 1000) })),
    )
    .onConflictDoUpdate({
      target: rateLimitCounters.key,
      set: {
        hits: sql`case when ${open} then ${rateLimitCounters.hits} + 1 else 1 end`,
        expiresAt: sql`case when ${open} then ${rateLimitCounters.expiresAt} else excluded.expires_at end`,
      },
    })
    .returning({ key: rateLimitCounters.key, hits: rateLimitCounters.hits, expiresAt: rateLimitCounters.expiresAt });
  const byKey = new Map(counters.map((c) => [c.key, c]));

  const refusedAt = keyed.findIndex(({ key, limit }) => (byKey.get(key)?.hits ?? 0) > limit.max);
  if (refusedAt < 0) return;
  const givenBack = keyed.slice(refusedAt + 1).map(({ key }) => key);
  if (givenBack.length > 0) {
    await exec
      .update(rateLimitCounters)
      .set({ hits: sql`greatest(${rateLimitCounters.hits} - 1, 0)` })
      .where(and(inArray(rateLimitCounters.key, givenBack), open));
  }
  const refused = keyed[refusedAt]!;
  const retryAfterSeconds = secondsUntil(byKey.get(refused.key)!.expiresAt, now);
  throw new AppError('rate_limited', `${refused.limit.refusal}. Please try again ${waitPhrase(retryAfterSeconds)}.`, {
    retryAfterSeconds,
  });
}

/** Lapsed counters are deleted by the hits themselves, at most every ten minutes per process. */
async function sweepNowAndThen(exec: Executor, now: Date): Promise<void> {
  if ((nextSweep.get(exec) ?? 0) > now.getTime()) return;
  nextSweep.set(exec, now.getTime() + SWEEP_EVERY_MS);
  await exec.delete(rateLimitCounters).where(lte(rateLimitCounters.expiresAt, now));
}
