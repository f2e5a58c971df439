import { and, eq, lte, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { jobRuns } from './schema.ts';

/**
 * Claims for periodic jobs that several replicas run on timers but only one should run per period
 * (docs/decisions/0084-claimed-job-runs.md). A claim is one conditional UPDATE on the job's row: of replicas
 * claiming together, the first takes the row lock and moves `next_run_at` on; the others, re-checking the
 * condition after its commit (READ COMMITTED), update nothing. No lock is held during the pass, so a replica
 * that dies mid-pass blocks nothing: the next pass is simply due at `next_run_at`.
 */

/** A claimed pass is due again this share of the interval later, so timer jitter never skips a pass. */
const LEASE_SHARE = 0.9;

/** True for exactly one caller per period; `now` from the injected clock, so tests can move it. */
export async function claimJobRun(db: Db, name: string, now: Date, intervalMs: number): Promise<boolean> {
  await db.insert(jobRuns).values({ name, nextRunAt: now }).onConflictDoNothing();
  const claimed = await db
    .update(jobRuns)
    .set({
      nextRunAt: new Date(now.getTime() + Math.floor(intervalMs * LEASE_SHARE)),
      lastStartedAt: now,
      runs: sql`${jobRuns.runs} + 1`,
    })
    .where(and(eq(jobRuns.name, name), lte(jobRuns.nextRunAt, now)))
    .returning({ name: jobRuns.name });
  return claimed.length === 1;
}

/** Records what a claimed pass did (JSON; never secrets). */
export async function finishJobRun(db: Db, name: string, now: Date, report: unknown): Promise<void> {
  await db.update(jobRuns).set({ lastFinishedAt: now, lastReport: report }).where(eq(jobRuns.name, name));
}

/** The job's row (null before its first claim). */
export async function jobRun(db: Db, name: string) {
  const [row] = await db.select().from(jobRuns).where(eq(jobRuns.name, name));
  return row ?? null;
}
