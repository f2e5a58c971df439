import type { Executor } from '../../db/client.ts';
import {
  type AddressCeiling,
  forgetIpFailures,
  passAddressCeiling,
  recordIpFailure,
  sweepIpFailures,
} from './ip-ceiling.ts';
import { claimCheck, recordFailure, recordSuccess, releaseCheck, sweepIdleAccounts } from './throttle.ts';

export interface GuardedCheck {
  /** The account's throttle key, the same whichever identifier names it. */
  accountKey: string;
  /** The client address's ceiling (decision 0194); absent where the caller is already signed in. */
  address?: AddressCeiling;
}

const SWEEP_EVERY_MS = 10 * 60_000;
const nextSweep = new WeakMap<object, number>();

/**
 * Runs one password check under sign-in throttling (ADR 0060): before hashing, a busy address is slowed or asked for
 * a proof of work (decision 0194) and an account backing off is refused; otherwise a slot is claimed, the check
 * runs, and its outcome is recorded.
 * Returns whether the password was right.
 */
export async function guardedPasswordCheck(
  exec: Executor,
  clock: () => Date,
  guard: GuardedCheck,
  check: () => Promise<boolean>,
): Promise<boolean> {
  await sweepNowAndThen(exec, clock());
  if (guard.address) await passAddressCeiling(exec, guard.address, clock());
  await claimCheck(exec, guard.accountKey, clock);
  let valid: boolean;
  try {
    valid = await check();
  } catch (error) {
    await releaseCheck(exec, guard.accountKey, clock());
    throw error;
  }
  const now = clock();
  if (valid) {
    await recordSuccess(exec, guard.accountKey, now);
    if (guard.address) await forgetIpFailures(exec, guard.address, guard.accountKey);
  } else {
    await recordFailure(exec, guard.accountKey, now);
    if (guard.address) await recordIpFailure(exec, guard.address, guard.accountKey, now);
  }
  return valid;
}

/** Expired counters are deleted by the sign-ins themselves, at most every ten minutes per process. */
async function sweepNowAndThen(exec: Executor, now: Date): Promise<void> {
  if ((nextSweep.get(exec) ?? 0) > now.getTime()) return;
  nextSweep.set(exec, now.getTime() + SWEEP_EVERY_MS);
  await sweepIpFailures(exec, now);
  await sweepIdleAccounts(exec, now);
}
