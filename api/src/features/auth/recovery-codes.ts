import { SUPPORT } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Mailer } from '../mail/mailer.ts';
import { recoveryCodeMail, resetBySmsMail } from '../mail/texts.ts';
import { queueSms } from '../sms/outbox.ts';
import { recoveryCodeText, resetByEmailNoticeText } from '../sms/texts.ts';
import { CODE_TTL_MINUTES, issueCode, recentCodes, tryCode } from './one-time-codes.ts';
import type { UserRow } from '../../http/principal.ts';
import type { TokenService } from './tokens.ts';

interface CodeDeps {
  database: Database;
  clock: Clock;
  tokens: TokenService;
  mailer: Mailer;
  logger: Logger;
}

const MINUTE = 60_000;
/**
 * The cool-down before an account's next recovery code (decision 0198), by how many it was sent in the last hour:
 * the second after a minute, the third after two, the fourth after five, then one every ten. Never longer than a
 * code lives, so while anyone keeps asking the owner's phone holds a working code; at most ~9 texts in an hour.
 */
export const RECOVERY_COOL_DOWN_MS = [0, 1 * MINUTE, 2 * MINUTE, 5 * MINUTE, CODE_TTL_MINUTES * MINUTE];
const coolDownAfter = (sentInLastHour: number) =>
  RECOVERY_COOL_DOWN_MS[Math.min(sentInLastHour, RECOVERY_COOL_DOWN_MS.length - 1)]!;

/**
 * Sends a new code unless the account is cooling down; open codes stay valid (each request has its own, so a
 * stranger's request never kills the one the owner holds). Under the account's row lock, so concurrent requests
 * count one by one. Returns whether a code was sent.
 */
export async function issueRecoveryCode(deps: CodeDeps, user: UserRow, channel: 'phone' | 'email'): Promise<boolean> {
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
    const recent = await recentCodes(tx, user.id, 'recovery', new Date(now.getTime() - 60 * MINUTE));
    const latest = recent[0];
    if (latest && now.getTime() - latest.getTime() < coolDownAfter(recent.length)) return false;
    const to = { purpose: 'recovery', userId: user.id, destination: channel } as const;
    const { code, expiresAt } = await issueCode(deps.tokens, tx, to, now);
    const text = recoveryCodeText(code, CODE_TTL_MINUTES, user.language);
    if (channel === 'phone' && user.phone) {
      await queueSms(tx, now, { to: user.phone, text, purpose: 'password_reset', expiresAt });
    } else {
      await deps.mailer.queue(tx, {
        to: user.email,
        ...recoveryCodeMail(text, user.language),
        kind: 'password_reset',
        // The code is masked in the outbox once it expires (decision 0202).
        expiresAt,
      });
    }
    deps.logger.info({ userId: user.id, channel }, 'recovery code issued');
    return true;
  });
}

/** One try against the account's open recovery codes (one-time-codes.ts); where the matching code went, or null. */
export async function tryRecoveryCode(
  deps: Pick<CodeDeps, 'database' | 'clock' | 'tokens'>,
  userId: string,
  code: string,
): Promise<'phone' | 'email' | null> {
  const channel = await tryCode(deps, { purpose: 'recovery', userId }, code);
  return channel === null ? null : channel === 'phone' ? 'phone' : 'email';
}

/**
 * A reset is told on the other channel (decision 0197), so a reset through a lost phone or mailbox is noticed: the
 * email (always: it is how the account signs in) after a reset by SMS, the phone (only once proven) after one by mail.
 */
export async function notifyOtherChannel(
  deps: Pick<CodeDeps, 'mailer'>,
  tx: Executor,
  user: UserRow,
  channel: 'phone' | 'email',
  now: Date,
): Promise<void> {
  if (channel === 'phone') {
    await deps.mailer.queue(tx, {
      to: user.email,
      ...resetBySmsMail(user.language),
      kind: 'password_reset_notice',
    });
  } else if (user.phone && user.phoneVerifiedAt) {
    await queueSms(tx, now, {
      to: user.phone,
      text: resetByEmailNoticeText(SUPPORT.phone, user.language),
      purpose: 'password_reset_notice',
    });
  }
}
