import { z } from 'zod';
import { Id, IsoDateTime } from './common.ts';

/** Every channel Filamu speaks to people on; each is one source of the console's Messages view (decision 0156). */
export const MESSAGE_CHANNELS = ['sms', 'email', 'push'] as const;
export const MessageChannel = z.enum(MESSAGE_CHANNELS);
export type MessageChannel = z.infer<typeof MessageChannel>;

/**
 * One status vocabulary across channels: `sending` (SMS claimed by a dispatcher), `delivered` (SMS delivery report),
 * `gone` (a push subscription the push service no longer knows).
 */
export const MESSAGE_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'failed', 'gone'] as const;
export const MessageStatus = z.enum(MESSAGE_STATUSES);
export type MessageStatus = z.infer<typeof MessageStatus>;

export const MESSAGE_PAGE_SIZE_MAX = 100;

export const MessageListQuery = z.object({
  channel: MessageChannel.optional(),
  status: MessageStatus.optional(),
  /** A phone number in any spelling (0772…, +256 772…) or an email, or part of one. */
  q: z.string().trim().max(100).optional(),
  /** The `nextCursor` of the previous page. */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(MESSAGE_PAGE_SIZE_MAX).default(50),
});
export type MessageListQuery = z.input<typeof MessageListQuery>;

export const OutboundMessage = z.object({
  id: Id,
  channel: MessageChannel,
  /** Phone (256…), email address, or for push the account's email. */
  to: z.string(),
  /** The account's name for that address (subscriber, admin or agent); null when no account has it. */
  recipient_name: z.string().nullable(),
  /** What it is for: password_reset, receipt, … */
  purpose: z.string(),
  status: MessageStatus,
  /** SMS: the text; email: subject and body; push: title and body. Withheld secrets stay withheld. */
  subject: z.string().nullable(),
  body: z.string(),
  attempts: z.number().int(),
  /** SMS only: parts and cost as the gateway counted them. */
  parts: z.number().int().nullable(),
  cost: z.string().nullable(),
  error: z.string().nullable(),
  created_at: IsoDateTime,
  /** Null when Resend may be used; otherwise why not, in words for the admin. */
  not_resendable: z.string().nullable(),
  /** The message this one is a copy of. */
  resent_from: z.string().nullable(),
});
export type OutboundMessage = z.infer<typeof OutboundMessage>;

export const MessageList = z.object({
  messages: z.array(OutboundMessage),
  /** Null on the last page. */
  nextCursor: z.string().nullable(),
});
export type MessageList = z.infer<typeof MessageList>;

export const ResendParams = z.object({ channel: MessageChannel, id: Id });

export const ResendResponse = z.object({ message: z.string(), resent: OutboundMessage });
export type ResendResponse = z.infer<typeof ResendResponse>;

/** The SMS gateway as it reports itself: its balance, or why it could not say (decision 0157). */
export const SmsGatewayState = z.object({
  gateway: z.enum(['africastalking', 'simulator']),
  state: z.enum(['ok', 'unavailable']),
  /** As the gateway writes it, e.g. "UGX 1234.0000". */
  balance: z.string().nullable(),
  checked_at: IsoDateTime,
});
export type SmsGatewayState = z.infer<typeof SmsGatewayState>;
