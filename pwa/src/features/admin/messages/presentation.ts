import { phoneForPeople, type MessageChannel, type MessageStatus } from '@filamu/shared';
import type { BadgeTone } from '../../../components/ui/Badge.tsx';

export const CHANNEL_LABEL: Record<MessageChannel, string> = { sms: 'SMS', email: 'Email', push: 'Push' };

export const STATUS_LABEL: Record<MessageStatus, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  delivered: 'Delivered',
  failed: 'Failed',
  gone: 'Gone',
};

export const STATUS_TONE: Record<MessageStatus, BadgeTone> = {
  queued: 'neutral',
  sending: 'info',
  sent: 'info',
  delivered: 'success',
  failed: 'danger',
  gone: 'neutral',
};

/** Phones as people write them (0772 123 456); addresses as they are. */
export const recipient = (channel: MessageChannel, to: string) => (channel === 'sms' ? phoneForPeople(to) : to);

/** "password_reset_notice" → "Password reset notice". */
export const purposeLabel = (purpose: string) => {
  const words = purpose.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * An amount as the gateway writes it ("UGX 35.0000", "KES 0.8000") the way people read money: "UGX 35",
 * "UGX 49,825", "KES 0.8". Anything else is shown as it came.
 */
export function gatewayMoney(text: string): string {
  const [currency, amount, ...rest] = text.trim().split(' ');
  const value = Number(amount);
  if (rest.length > 0 || !currency || !/^[A-Z]{3}$/.test(currency) || amount === undefined || !Number.isFinite(value))
    return text;
  return `${currency} ${value.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
}

/** Parts and cost in one short line, e.g. "1 part · UGX 35"; a dash when the gateway has not counted them. */
export const partsAndCost = (parts: number | null, cost: string | null) => {
  const shown = [parts === null ? null : `${parts} part${parts === 1 ? '' : 's'}`, cost ? gatewayMoney(cost) : null];
  const kept = shown.filter(Boolean);
  return kept.length ? kept.join(' · ') : '—';
};
