import { z } from 'zod';
import { Id, IsoDateTime } from './common.ts';
import { RedownloadAllowance } from './downloads.ts';
import { DownloadStatus } from './movies.ts';

export const Subscriber = z.object({
  id: z.string(),
  email: z.string(),
  full_name: z.string(),
  phone: z.string().nullable(),
  /** The phone was proven the person's (decision 0197): support texts go only to such a phone (decision 0214). */
  phone_confirmed: z.boolean(),
  issubscribed: z.boolean(),
  subscription_plan: z.string().nullable(),
  subscription_plan_id: z.string().nullable(),
  subscription_start_date: IsoDateTime.nullable(),
  subscription_end_date: IsoDateTime.nullable(),
  is_admin: z.boolean(),
  /** The one configured admin: it cannot be managed or deleted. */
  is_protected: z.boolean(),
  /** Re-downloads an admin granted that the person has not used yet. */
  extra_redownloads: z.number().int(),
  created_at: IsoDateTime,
});
export type Subscriber = z.infer<typeof Subscriber>;

export const SUBSCRIBER_PAGE_SIZE_MAX = 100;

/** Optional filters (decision 0055): without `pageSize` the whole list comes back, as before. */
export const SubscriberListQuery = z.object({
  /** Case-insensitive substring of the name, email or phone. */
  search: z.string().trim().max(100).optional(),
  /** 1-based. */
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(SUBSCRIBER_PAGE_SIZE_MAX).optional(),
});
export type SubscriberListQuery = z.input<typeof SubscriberListQuery>;

export const SubscriberList = z.object({
  subscribers: z.array(Subscriber),
  /** Users matching the search, on all pages. */
  total: z.number().int(),
  page: z.number().int(),
  /** Null when the whole list was asked for. */
  pageSize: z.number().int().nullable(),
});

export const ManageSubscriptionRequest = z.discriminatedUnion(
  'action',
  [
    z.object({
      action: z.literal('activate_extend'),
      subscription_plan_id: Id.or(z.literal('')).refine((v) => v !== '', 'Please select a subscription plan.'),
    }),
    z.object({ action: z.literal('deactivate') }),
  ],
  { message: 'Action must be activate_extend or deactivate.' },
);
export type ManageSubscriptionRequest = z.input<typeof ManageSubscriptionRequest>;

export const ManageSubscriptionResponse = z.object({ message: z.string(), subscriber: Subscriber });

/**
 * Whether a support action's text went to the person (decision 0214): `queued` to their proven phone (the outbox sends
 * it); otherwise why not. Codes, passwords and support notices go only to a phone proven the person's.
 */
export const SUPPORT_SMS_OUTCOMES = ['queued', 'phone_not_confirmed', 'no_phone', 'sms_off'] as const;
export const SupportSmsOutcome = z.enum(SUPPORT_SMS_OUTCOMES);
export type SupportSmsOutcome = z.infer<typeof SupportSmsOutcome>;

/** The admin's note on a support action, kept in the person's history; never sent to them. */
export const SUPPORT_NOTE_MAX = 280;
export const SupportNote = z
  .string({ message: 'The note must be text.' })
  .trim()
  .max(SUPPORT_NOTE_MAX, `The note must be at most ${SUPPORT_NOTE_MAX} characters.`);

export const GrantRedownloadRequest = z.object({
  /** Why support granted it ("lost the phone on 3 Nov"); empty or missing means no note. */
  note: SupportNote.optional(),
});
export type GrantRedownloadRequest = z.input<typeof GrantRedownloadRequest>;

export const GrantRedownloadResponse = z.object({
  message: z.string(),
  subscriber: Subscriber,
  sms: SupportSmsOutcome,
});

/**
 * The new password is in this answer once; it also goes by SMS to a proven phone (decision 0214), whose outbox forgets
 * it once sent. `whatsappLink` (proven phones only) opens WhatsApp with the text, for the admin to send.
 */
export const ResetSubscriberPasswordResponse = z.object({
  message: z.string(),
  newPassword: z.string(),
  sms: SupportSmsOutcome,
  whatsappLink: z.string().nullable(),
});
export type ResetSubscriberPasswordResponse = z.infer<typeof ResetSubscriberPasswordResponse>;

/** One movie the person downloaded, newest activity first, for the support dialog. */
export const SupportDownload = z.object({
  movieId: Id,
  title: z.string(),
  status: DownloadStatus,
  startedAt: IsoDateTime,
  completedAt: IsoDateTime.nullable(),
  /** Bytes sent for it, re-fetches and re-downloads included: the data it cost the person. */
  fetchedBytes: z.number().int(),
  /** Re-downloads of it this Kampala month. */
  redownloadsThisMonth: z.number().int(),
});
export type SupportDownload = z.infer<typeof SupportDownload>;

/** What an operator needs before granting a re-download: this month's use, the allowance, the phone, recent movies. */
export const SupportContext = z.object({
  /** `YYYY-MM`, Kampala time. */
  month: z.string(),
  downloadsThisMonth: z.number().int(),
  /** Re-downloads taken this month from the extra ones support granted (the month's own are in `redownloads`). */
  grantedUsedThisMonth: z.number().int(),
  redownloads: RedownloadAllowance,
  phone: z.string().nullable(),
  phoneConfirmed: z.boolean(),
  /** The SMS a support action would send now; `queued` means it would go. */
  sms: SupportSmsOutcome,
  recentDownloads: z.array(SupportDownload),
});
export type SupportContext = z.infer<typeof SupportContext>;

export const SUPPORT_ACTIONS = ['redownload_granted', 'password_reset'] as const;
export const SupportAction = z.enum(SUPPORT_ACTIONS);

/** One entry of a person's history: what an admin did, when, with their note and whether the person was texted. */
export const SupportHistoryEntry = z.object({
  id: Id,
  at: IsoDateTime,
  action: SupportAction,
  /** Null once that admin's account was deleted. */
  admin: z.object({ name: z.string(), email: z.string() }).nullable(),
  note: z.string().nullable(),
  sms: SupportSmsOutcome,
  /** The outbox's word on the text when one was queued: queued, sending, sent, delivered, failed. */
  smsStatus: z.string().nullable(),
});
export type SupportHistoryEntry = z.infer<typeof SupportHistoryEntry>;

export const SUPPORT_HISTORY_LIMIT = 50;
export const SupportHistory = z.object({ entries: z.array(SupportHistoryEntry) });
export type SupportHistory = z.infer<typeof SupportHistory>;
