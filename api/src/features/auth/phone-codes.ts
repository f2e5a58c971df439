import type { Executor } from '../../db/client.ts';
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
  await queueSms(tx, now, {
    to: phone,
    text: phoneChangeCodeText(code, CODE_TTL_MINUTES),
    purpose: 'phone_change_code',
    expiresAt,
  });
}
