import { lte, sql } from 'drizzle-orm';
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
 * Counts one hit on every limit, in order, and refuses with 429 `rate_limited` and Retry-After at the first one
 * over its maximum (later ones are then not counted). Each counter is a window that opens at its first hit and
 * lapses `windowSeconds` later (ADR 0061); one atomic upsert per key, so concurrent hits are all counted and
 * every server process shares the counts.
 */
export async function hitLimits(exec: Executor, now: Date, hits: LimitHit[]): Promise<void> {
  await sweepNowAndThen(exec, now);
  for (const { limit, subject } of hits) {
    const expiresAt = new Date(now.getTime() + limit.windowSeconds * 1000);
    const open = sql`${rateLimitCounters.expiresAt} > ${iso(now)}::timestamptz`;
    const [counter] = await exec
      .insert(rateLimitCounters)
      .values({ key: `${limit.name}:${subject}`, hits: 1, expiresAt })
      .onConflictDoUpdate({
        target: rateLimitCounters.key,
        set: {
          hits: sql`case when ${open} then ${rateLimitCounters.hits} + 1 else 1 end`,
          expiresAt: sql`case when ${open} then ${rateLimitCounters.expiresAt} else ${iso(expiresAt)}::timestamptz end`,
        },
      })
      .returning({ hits: rateLimitCounters.hits, expiresAt: rateLimitCounters.expiresAt });
    if (counter && counter.hits > limit.max) {
      const retryAfterSeconds = secondsUntil(counter.expiresAt, now);
      throw new AppError('rate_limited', `${limit.refusal}. Please try again ${waitPhrase(retryAfterSeconds)}.`, {
        retryAfterSeconds,
      });
    }
  }
}

/** Lapsed counters are deleted by the hits themselves, at most every ten minutes per process. */
async function sweepNowAndThen(exec: Executor, now: Date): Promise<void> {
  if ((nextSweep.get(exec) ?? 0) > now.getTime()) return;
  nextSweep.set(exec, now.getTime() + SWEEP_EVERY_MS);
  await exec.delete(rateLimitCounters).where(lte(rateLimitCounters.expiresAt, now));
}
