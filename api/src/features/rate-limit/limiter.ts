import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { retryingAbort } from '../../db/retry.ts';
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

/** What `countHits` refused: the first limit over its maximum, and when its window lapses. */
export interface Refusal {
  hit: LimitHit;
  retryAfterSeconds: number;
}

/**
 * Counts one hit on every limit and refuses with 429 `rate_limited` and Retry-After when one is over its maximum
 * (ADR 0061). Run it on its own, never inside a transaction: its row locks last one statement, so a counter is never
 * held while the flow waits for a payment or user row, nor the other way round (decision 0114).
 */
export async function hitLimits(exec: Executor, now: Date, hits: LimitHit[]): Promise<void> {
  const refusal = await countHits(exec, now, hits);
  if (!refusal) return;
  const { hit, retryAfterSeconds } = refusal;
  throw new AppError('rate_limited', `${hit.limit.refusal}. Please try again ${waitPhrase(retryAfterSeconds)}.`, {
    retryAfterSeconds,
  });
}

/** Byte order: the order Postgres sorts `collate "C"` in, so both sides agree on which counter comes first. */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * `hitLimits` without the error: the refusal, or undefined when every limit let the hit through. Each counter is a
 * window that opens at its first hit and lapses `windowSeconds` later. All counters are raised by one atomic
 * multi-row upsert (one round trip; concurrent hits are all counted, on every replica). Limits are listed narrowest
 * first: the hit is given back to the limits after the first one over, so a refused re-send of one payment does not
 * use up the payer's or the address's allowance. Every statement takes its rows in key order (decision 0114).
 */
export async function countHits(exec: Executor, now: Date, hits: LimitHit[]): Promise<Refusal | undefined> {
  await sweepNowAndThen(exec, now);
  const keyed = hits.map((hit) => ({ ...hit, key: `${hit.limit.name}:${hit.subject}` }));
  const open = sql`${rateLimitCounters.expiresAt} > ${iso(now)}::timestamptz`;
  const rows = [...keyed]
    .sort((a, b) => byteOrder(a.key, b.key))
    .map(({ key, limit }) => ({ key, hits: 1, expiresAt: new Date(now.getTime() + limit.windowSeconds * 1000) }));
  const counters = await retryingAbort(() =>
    exec
      .insert(rateLimitCounters)
      .values(rows)
      .onConflictDoUpdate({
        target: rateLimitCounters.key,
        set: {
          hits: sql`case when ${open} then ${rateLimitCounters.hits} + 1 else 1 end`,
          expiresAt: sql`case when ${open} then ${rateLimitCounters.expiresAt} else excluded.expires_at end`,
        },
      })
      .returning({ key: rateLimitCounters.key, hits: rateLimitCounters.hits, expiresAt: rateLimitCounters.expiresAt }),
  );
  const byKey = new Map(counters.map((c) => [c.key, c]));

  const refusedAt = keyed.findIndex(({ key, limit }) => (byKey.get(key)?.hits ?? 0) > limit.max);
  if (refusedAt < 0) return undefined;
  await giveBack(
    exec,
    now,
    keyed.slice(refusedAt + 1).map(({ key }) => key),
  );
  const refused = keyed[refusedAt]!;
  return { hit: refused, retryAfterSeconds: secondsUntil(byKey.get(refused.key)!.expiresAt, now) };
}

/**
 * One hit less on each open counter. A plain `UPDATE … WHERE key IN (…)` locks rows in whatever order it finds them
 * on disk, against the upsert's key order: two requests sharing counters then deadlock. The rows are locked by a
 * sub-select in key order first.
 */
async function giveBack(exec: Executor, now: Date, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const list = sql.join(
    keys.map((key) => sql`${key}`),
    sql`, `,
  );
  await retryingAbort(() =>
    exec.execute(sql`
      update rate_limit_counters set hits = greatest(rate_limit_counters.hits - 1, 0)
      from (
        select c.key from rate_limit_counters c
        where c.key in (${list}) and c.expires_at > ${iso(now)}::timestamptz
        order by c.key collate "C" for update
      ) as locked
      where rate_limit_counters.key = locked.key`),
  );
}

/**
 * Lapsed counters are deleted by the hits themselves, at most every ten minutes per process. Rows a hit holds right
 * now are skipped (left for the next sweep), so the sweep never waits for a hit nor makes one wait in a deadlock.
 */
async function sweepNowAndThen(exec: Executor, now: Date): Promise<void> {
  if ((nextSweep.get(exec) ?? 0) > now.getTime()) return;
  nextSweep.set(exec, now.getTime() + SWEEP_EVERY_MS);
  await exec.execute(sql`
    delete from rate_limit_counters where key in (
      select key from rate_limit_counters where expires_at <= ${iso(now)}::timestamptz for update skip locked
    )`);
}
