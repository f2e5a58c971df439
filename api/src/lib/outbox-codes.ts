import type { SmsBudgetPurpose } from '@filamu/shared';

/**
 * Outbox purposes (SMS) and kinds (mail) whose text carries a one-time code. A new code sender adds its purpose
 * here: the budget then counts it as a code and the outboxes scrub it once it is sent, failed or expired
 * (decisions 0201, 0202).
 */
export const CODE_PURPOSES: readonly string[] = ['password_reset', 'phone_change_code', 'phone_confirm_code'];

export const isCodePurpose = (purpose: string) => CODE_PURPOSES.includes(purpose);

const REMINDER_PURPOSES: readonly string[] = ['plan_ends_in_3_days', 'plan_ends_today'];
const CREDENTIAL_PURPOSES: readonly string[] = ['agent_credentials', 'subscriber_credentials'];

/** The budget an outbox purpose counts against; receipts take everything else (notices included). */
export function budgetPurpose(purpose: string): SmsBudgetPurpose {
  if (isCodePurpose(purpose)) return 'codes';
  if (REMINDER_PURPOSES.includes(purpose)) return 'reminders';
  if (CREDENTIAL_PURPOSES.includes(purpose)) return 'credentials';
  return 'receipts';
}

/** What a code becomes in an outbox once nothing will send it again. */
export const CODE_MASK = '••••••';
/** Our own texts, never request data: every code is six digits. */
const SIX_DIGITS = /\b\d{6}\b/g;
/** The same, for an UPDATE in SQL (Postgres regex; `\y` is its word boundary). */
export const SIX_DIGITS_SQL = '\\y[0-9]{6}\\y';

export const redactCodes = (body: string) => body.replace(SIX_DIGITS, CODE_MASK);
export const isRedacted = (body: string) => body.includes(CODE_MASK);
