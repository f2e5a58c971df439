import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { queueSms } from '../sms/outbox.ts';
import { phoneChangeCodeText } from '../sms/texts.ts';
import { CODE_TTL_MINUTES, issueCode } from './one-time-codes.ts';
import type { TokenService } from './tokens.ts';

/**
 * A code to `phone` for this account, queued in the caller's transaction (decisions 0158, 0197). Open codes are left
 * alone: each request has its own (decision 0198). Purpose `phone_change_code` for every number code, so the SMS
 * budget counts them as one kind.
 */
export async function issuePhoneCode(
  deps: { tokens: TokenService },
  tx: Executor,
  userId: string,
  phone: string,
  now: Date,
): Promise<void> {
  const { code, expiresAt } = await issueCode(deps.tokens, tx, { purpose: 'phone', userId, destination: phone }, now);
  // In the account's language (decision 0258), read here so every caller sends it the same way.
  const [account] = await tx.select({ language: users.language }).from(users).where(eq(users.id, userId));
  await queueSms(tx, now, {
    to: phone,
    text: phoneChangeCodeText(code, CODE_TTL_MINUTES, account?.language),
    purpose: 'phone_change_code',
    expiresAt,
  });
}
