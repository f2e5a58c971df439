import { phoneForPeople, type SupportSmsOutcome } from '@filamu/shared';

/** Why no text goes, in the words the console shows (decision 0214). */
const NO_SMS: Record<Exclude<SupportSmsOutcome, 'queued'>, string> = {
  phone_not_confirmed: 'No SMS: phone not confirmed',
  no_phone: 'No SMS: no phone number',
  sms_off: 'No SMS: texts are off on this server',
};

/** Before the action: what the person will get. */
export function smsPlan(outcome: SupportSmsOutcome, phone: string | null): string {
  return outcome === 'queued' ? `They get an SMS at ${phoneForPeople(phone)}.` : `${NO_SMS[outcome]}.`;
}

/** After the action: whether the text went. */
export function smsResult(outcome: SupportSmsOutcome, phone: string | null): string {
  return outcome === 'queued' ? `SMS on its way to ${phoneForPeople(phone)}.` : `${NO_SMS[outcome]}.`;
}

/** In the history: the text's fate as the outbox knows it, or why none went. */
export function smsInHistory(outcome: SupportSmsOutcome, status: string | null): string {
  if (outcome !== 'queued') return NO_SMS[outcome];
  if (status === 'delivered') return 'SMS delivered';
  if (status === 'sent') return 'SMS sent';
  if (status === 'failed') return 'SMS failed';
  return status === null ? 'SMS (no longer in the outbox)' : 'SMS waiting to be sent';
}
