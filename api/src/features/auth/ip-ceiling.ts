import { setTimeout as sleep } from 'node:timers/promises';
import type { ProofSolution } from '@filamu/shared';
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Executor } from '../../db/client.ts';
import { loginIpFailures } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { checkSolution, issueChallenge, type Signer, spendSolution, sweepSpentProofs } from './proof-of-work.ts';

/**
 * The per-address ceiling against bulk guessing (ADR 0060, decision 0194). Many Ugandan subscribers share one carrier
 * NAT address, so it slows an address, never locks it: failures count per account tried, each account at most
 * WEIGHT_CAP, over a sliding IP_WINDOW_MS, and only for identifiers that name an account (guessing at numbers nobody
 * registered gets into nothing, and must not cost the neighbours). From SLOW_FROM points each attempt is answered
 * later and later; from IP_CEILING on, each attempt first needs a proof of work (decision 0195) that the app solves
 * in about a second without a tap. Sign-in and recovery keep separate budgets; addresses are keyed by `addressKey`
 * (IPv6 by its /64).
 */
export const IP_CEILING = 300;
export const SLOW_FROM = 150;
export const MAX_DELAY_MS = 2000;
export const IP_WINDOW_MS = 15 * 60_000;
const WEIGHT_CAP = 3;

export type CeilingBudget = 'sign-in' | 'recovery';
export type CeilingStep = 'delayed' | 'proof_required' | 'proof_accepted';

/** The request's side of the ceiling, built once per request by the auth routes. */
export interface AddressGate {
  /** `addressKey` of the client address. */
  address: string;
  /** The solution the request brought, if any. */
  proof: ProofSolution | undefined;
  sign: Signer;
  count: (budget: CeilingBudget, step: CeilingStep) => void;
  logger: Logger;
}

/** One attempt's place under the ceiling. */
export interface AddressCeiling extends AddressGate {
  budget: CeilingBudget;
  /** False when the identifier names no account: its failures add nothing to the address's points. */
  weighs: boolean;
}

const iso = (date: Date) => date.toISOString();

/** The wait before an attempt is checked: 0 below SLOW_FROM points, then growing linearly to MAX_DELAY_MS. */
export function slowdownMs(points: number): number {
  if (points < SLOW_FROM || points >= IP_CEILING) return 0;
  return Math.round((MAX_DELAY_MS * (points - SLOW_FROM + 1)) / (IP_CEILING - SLOW_FROM));
}

export const PROOF_MESSAGE =
  'Many sign-ins from your network have failed, so the app must do a quick check first. Please try again.';

/**
 * Lets the attempt through, after a delay or a spent proof of work when the address is busy, or refuses it with
 * `proof_required` and a fresh challenge. Never a lock: the right proof always gets the attempt checked. The wait
 * is a timer, so the event loop and the database connection are free meanwhile.
 */
export async function passAddressCeiling(exec: Executor, ceiling: AddressCeiling, now: Date): Promise<void> {
  const points = await pointsOf(exec, ceiling, now);
  if (points >= IP_CEILING) return requireProof(exec, ceiling, now, points);
  const delay = slowdownMs(points);
  if (delay > 0) {
    ceiling.count(ceiling.budget, 'delayed');
    await sleep(delay);
  }
}

async function requireProof(exec: Executor, ceiling: AddressCeiling, now: Date, points: number): Promise<void> {
  const scope = { budget: ceiling.budget, address: ceiling.address };
  if (ceiling.proof) {
    const check = checkSolution(ceiling.sign, ceiling.proof, scope, now);
    if (check.ok && (await spendSolution(exec, check.id, check.expiresAt))) {
      ceiling.count(ceiling.budget, 'proof_accepted');
      return;
    }
  }
  ceiling.count(ceiling.budget, 'proof_required');
  logNowAndThen(ceiling, points);
  throw new AppError('proof_required', PROOF_MESSAGE, { proof: issueChallenge(ceiling.sign, scope, now) });
}

async function pointsOf(exec: Executor, ceiling: AddressCeiling, now: Date): Promise<number> {
  const since = new Date(now.getTime() - IP_WINDOW_MS);
  const [row] = await exec
    .select({
      points: sql`coalesce(sum(least(${loginIpFailures.failures}, ${WEIGHT_CAP}::int)), 0)::int`.mapWith(Number),
    })
    .from(loginIpFailures)
    .where(
      and(
        eq(loginIpFailures.ip, ceiling.address),
        eq(loginIpFailures.budget, ceiling.budget),
        gt(loginIpFailures.lastFailureAt, since),
      ),
    );
  return row?.points ?? 0;
}

/** One log line per address and budget a minute in each process: a flood that never solves cannot flood the log. */
const lastLogged = new Map<string, number>();
const LOG_EVERY_MS = 60_000;
function logNowAndThen(ceiling: AddressCeiling, points: number): void {
  const key = `${ceiling.budget}|${ceiling.address}`;
  const now = Date.now();
  if ((lastLogged.get(key) ?? 0) > now - LOG_EVERY_MS) return;
  if (lastLogged.size > 10_000) lastLogged.clear();
  lastLogged.set(key, now);
  ceiling.logger.warn(
    { budget: ceiling.budget, address: ceiling.address, points },
    'address over its failed sign-in ceiling: attempts need a proof of work',
  );
}

export async function recordIpFailure(
  exec: Executor,
  ceiling: AddressCeiling,
  accountKey: string,
  now: Date,
): Promise<void> {
  if (!ceiling.weighs) return;
  const since = new Date(now.getTime() - IP_WINDOW_MS);
  await exec
    .insert(loginIpFailures)
    .values({ ip: ceiling.address, budget: ceiling.budget, accountKey, failures: 1, lastFailureAt: now })
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
export async function forgetIpFailures(exec: Executor, ceiling: AddressCeiling, accountKey: string): Promise<void> {
  await exec
    .delete(loginIpFailures)
    .where(and(eq(loginIpFailures.ip, ceiling.address), eq(loginIpFailures.accountKey, accountKey)));
}

export async function sweepIpFailures(exec: Executor, now: Date): Promise<void> {
  await exec.delete(loginIpFailures).where(lte(loginIpFailures.lastFailureAt, new Date(now.getTime() - IP_WINDOW_MS)));
  await sweepSpentProofs(exec, now);
}
