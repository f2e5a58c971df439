// Longer than 300 lines on purpose: the whole data model in one module, which drizzle-kit diffs to write each
// migration and docs/data-model.md is checked against; tables reference each other across features.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import {
  type DeviceCheckAnswers,
  DOWNLOAD_SIZES,
  LICENCE_REVOKED_REASONS,
  LICENCE_WAYS,
  type NightBundleSetting,
  type NightWindows,
  PARENTAL_HIDES,
  PUSH_NOTIFICATION_KINDS,
  RENDITION_KINDS,
  RENDITION_STATES,
  SUPPORT_ACTIONS,
  SUPPORT_NOTE_MAX,
  SUPPORT_SMS_OUTCOMES,
} from '@filamu/shared';
import { newPaymentReference } from './payment-reference.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** Plans are priced in whole UGX; every subscriber of a plan expires at its global expiry. */
export const subscriptionPlans = pgTable(
  'subscription_plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    planName: text('plan_name').notNull(),
    priceUgx: bigint('price_ugx', { mode: 'number' }).notNull(),
    description: text('description').notNull().default(''),
    features: jsonb('features').$type<string[]>().notNull().default([]),
    isActive: boolean('is_active').notNull().default(true),
    isVisible: boolean('is_visible').notNull().default(true),
    displayOrder: integer('display_order').notNull().default(0),
    /** The instant every subscription on this plan ends (entered as Kampala local time). */
    globalExpiryAt: timestamp('global_expiry_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('subscription_plans_price_non_negative', sql`${t.priceUgx} >= 0`)],
);

/**
 * Email is stored lower-cased and phone in canonical 256XXXXXXXXX form, so the unique
 * indexes make "same address, other spelling" the same account.
 * Subscribed is derived: now < subscription_end_date.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    /** Required at registration; null only for the configured admin. */
    phone: text('phone'),
    fullName: text('full_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** The one admin configured by ADMIN_EMAIL; it cannot be managed or deleted. */
    isProtected: boolean('is_protected').notNull().default(false),
    subscriptionPlanId: uuid('subscription_plan_id').references(() => subscriptionPlans.id, { onDelete: 'restrict' }),
    subscriptionStartDate: timestamp('subscription_start_date', { withTimezone: true }),
    subscriptionEndDate: timestamp('subscription_end_date', { withTimezone: true }),
    /** Re-downloads an admin granted on top of the monthly allowance, kept until used (decision 0122). */
    extraRedownloads: integer('extra_redownloads').notNull().default(0),
    /**
     * When English unlocked in the current paid period (decision 0177): counts while it is on or after
     * `subscriptionStartDate`, so a Kinayuganda movie added later does not lock English again, and a new period
     * (which moves the start) begins with the rule afresh.
     */
    englishUnlockedAt: timestamp('english_unlocked_at', { withTimezone: true }),
    /**
     * When the phone was proven the person's (decision 0197): a code sent to it was used (registration's confirm
     * step, a phone change, a recovery) or a completed mobile-money payment came from it. Null until then, and again
     * when the number changes; recovery codes go only to a proven phone.
     */
    phoneVerifiedAt: timestamp('phone_verified_at', { withTimezone: true }),
    /** When a code sent to the email was used; null again when the email changes (decision 0197). */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** The person's language (decision 0258): their SMS, push and error messages; the phone sends its choice. */
    language: text('language').$type<'en' | 'lg'>().notNull().default('en'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('users_language_known', sql`${t.language} in ('en', 'lg')`),
    check('users_extra_redownloads_in_range', sql`${t.extraRedownloads} >= 0 and ${t.extraRedownloads} <= 100`),
    uniqueIndex('users_email_unique').on(t.email),
    uniqueIndex('users_phone_unique').on(t.phone),
    uniqueIndex('users_single_protected')
      .on(t.isProtected)
      .where(sql`${t.isProtected}`),
    // The reminder sweep's range scan (subscriptions ending in the next few days).
    index('users_subscription_end').on(t.subscriptionEndDate),
  ],
);

export const agents = pgTable(
  'agents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    phone: text('phone'),
    fullName: text('full_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('agents_email_unique').on(t.email), uniqueIndex('agents_phone_unique').on(t.phone)],
);

/**
 * One row per sign-in. The JWT only names the row; a request is authenticated while the row
 * is live (not revoked, not expired), so revocation takes effect on the very next request.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id').references(() => agents.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    /** The browser's User-Agent at sign-in (truncated), so the person can recognise the device. */
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
    /** Until when this session shows titles the parental PIN hides (a right PIN was entered; decision 0170). */
    parentalUnlockedUntil: timestamp('parental_unlocked_until', { withTimezone: true }),
  },
  (t) => [
    check('sessions_one_subject', sql`(${t.userId} is null) <> (${t.agentId} is null)`),
    index('sessions_user_live')
      .on(t.userId)
      .where(sql`${t.revokedAt} is null`),
    index('sessions_agent_live')
      .on(t.agentId)
      .where(sql`${t.revokedAt} is null`),
  ],
);

/**
 * Per-account sign-in counters (shared by every server process): confirmed failures, the backoff they earned,
 * and the password checks in flight (`pending`, trusted until `pending_until` so a crashed process cannot wedge it).
 */
export const authThrottle = pgTable('auth_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }),
  blockedUntil: timestamp('blocked_until', { withTimezone: true }),
  pending: integer('pending').notNull().default(0),
  pendingUntil: timestamp('pending_until', { withTimezone: true }),
});

/** Failed sign-ins per client IP and account tried: the per-IP ceiling against bulk guessing (ADR 0060). */
export const loginIpFailures = pgTable(
  'login_ip_failures',
  {
    /** The address key (`addressKey`: IPv4 as is, IPv6 by its /64), not the raw address. */
    ip: text('ip').notNull(),
    /** Sign-in and recovery keep separate budgets at an address (decision 0194). */
    budget: text('budget').notNull().default('sign-in'),
    accountKey: text('account_key').notNull(),
    failures: integer('failures').notNull(),
    lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.ip, t.accountKey] }), index('login_ip_failures_last').on(t.lastFailureAt)],
);

/** Proof-of-work challenges already spent (decision 0195): a solution works once; rows lapse with the challenge. */
export const proofOfWorkUses = pgTable(
  'proof_of_work_uses',
  {
    challengeId: text('challenge_id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('proof_of_work_uses_expiry').on(t.expiresAt)],
);

/** Fixed-window request counters for the rate limits on costly flows (ADR 0061); a row lapses at `expires_at`. */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_counters_expiry').on(t.expiresAt)],
);

/** Every mail the product sends goes through here first; a sender marks it sent. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    kind: text('kind').notNull(),
    status: text('status', { enum: ['queued', 'sent', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    /** The mail this one is a copy of, when an admin pressed Resend in the console (decision 0156). */
    resentFrom: uuid('resent_from'),
    /** A code mail's code stops working then and is masked in the body (decision 0202); null: no code, or masked. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('mail_outbox_expiring')
      .on(t.expiresAt)
      .where(sql`${t.expiresAt} is not null`),
    index('mail_outbox_queued')
      .on(t.createdAt)
      .where(sql`${t.status} = 'queued'`),
    // The console's Messages view: newest first in keyset pages, and one address's mail (decision 0156).
    index('mail_outbox_recent').on(t.createdAt.desc(), t.id.desc()),
    index('mail_outbox_to_address').on(sql`lower(${t.toAddress})`, t.createdAt.desc()),
  ],
);

/**
 * Text messages to send through the SMS gateway (Africa's Talking, or its simulator), decision 0146. A row is claimed
 * by one replica (`sending`, attempt counted) before the call, so a gateway that accepted and then timed out is never
 * asked again; `next_attempt_at` spaces the retries of calls the gateway did not accept.
 */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Canonical 256XXXXXXXXX. */
    toPhone: text('to_phone').notNull(),
    body: text('body').notNull(),
    /** What the message is for (password_reset, …), for the log and the operator. */
    purpose: text('purpose').notNull(),
    status: text('status', { enum: ['queued', 'sending', 'sent', 'delivered', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** Not worth sending after this (a code that has expired); null = no deadline. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    gatewayMessageId: text('gateway_message_id'),
    parts: integer('parts'),
    /** As the gateway wrote it, e.g. "UGX 35.0000". */
    cost: text('cost'),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** The message this one is a copy of, when an admin pressed Resend in the console (decision 0156). */
    resentFrom: uuid('resent_from'),
  },
  (t) => [
    index('sms_outbox_due')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'queued'`),
    uniqueIndex('sms_outbox_gateway_message_id').on(t.gatewayMessageId),
    // The console's Messages view: newest first in keyset pages, and one phone's messages (decision 0156).
    index('sms_outbox_recent').on(t.createdAt.desc(), t.id.desc()),
    index('sms_outbox_to_phone').on(t.toPhone, t.createdAt.desc()),
  ],
);

export const REMINDER_KINDS = ['plan_ends_in_3_days', 'plan_ends_today'] as const;

/**
 * Plan reminders sent (decision 0150): one row per person, subscription period (its end), kind and channel, inserted in
 * the transaction that queues the message, so the unique key makes each reminder go out once across replicas and
 * crashes. `queued` is false when the person could not be reached on that channel (no phone, no push subscription).
 */
export const planReminders = pgTable(
  'plan_reminders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The subscription end the reminder is about: a renewal moves the end, so the new period is reminded afresh. */
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    kind: text('kind', { enum: REMINDER_KINDS }).notNull(),
    /** `sms`, `push`, … (the channel's name). */
    channel: text('channel').notNull(),
    queued: boolean('queued').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('plan_reminders_once').on(t.userId, t.periodEnd, t.kind, t.channel)],
);

/** What a one-time code proves: `recovery` resets the password, `phone` proves a number (decision 0227). */
export const ONE_TIME_CODE_PURPOSES = ['recovery', 'phone'] as const;

/**
 * One-time codes (decisions 0148, 0158, 0198, 0227): six digits, stored as an HMAC, ten minutes, five tries, used
 * once. Each request has its own code: a new one leaves the open ones working, and all of an account's die when its
 * phone, email or password changes.
 */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ONE_TIME_CODE_PURPOSES }).notNull(),
    /**
     * Where the code went. Recovery: `phone` or `email`, the account's channel it proves. Phone: canonical
     * 256XXXXXXXXX, a new number, the account's own (the confirm step) or one an unproven account holds (a claim):
     * what the account's number becomes.
     */
    destination: text('destination').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('one_time_codes_open')
      .on(t.userId, t.purpose)
      .where(sql`${t.usedAt} is null`),
    check('one_time_codes_purpose', sql`${t.purpose} in ('recovery', 'phone')`),
  ],
);

/**
 * A user's parental PIN (decision 0170): PBKDF2-SHA256 with a random salt, the same verifier the device keeps for
 * offline checks. Wrong tries are counted here by one conditional update each, and the fifth locks it.
 */
export const parentalPins = pgTable(
  'parental_pins',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** '18' hides 18+; '13' hides 13+ and 18+. */
    hides: text('hides', { enum: PARENTAL_HIDES }).notNull(),
    salt: text('salt').notNull(),
    pinHash: text('pin_hash').notNull(),
    iterations: integer('iterations').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('parental_pins_hides_known', sql`${t.hides} in ('18', '13')`),
    check('parental_pins_attempts_in_range', sql`${t.failedAttempts} >= 0 and ${t.failedAttempts} <= 100`),
  ],
);

/**
 * One row per periodic job that must run on one replica at a time (db/job-runs.ts): a pass is claimed by moving
 * `next_run_at` forward with a conditional update, so of several replicas whose timers fire together exactly one
 * wins. `last_report` keeps what the last finished pass did (for operators and tests).
 */
export const jobRuns = pgTable('job_runs', {
  name: text('name').primaryKey(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
  runs: integer('runs').notNull().default(0),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }),
  lastReport: jsonb('last_report'),
});

/** Secrets generated on first start (JWT key) when none is configured, shared by every process. */
/**
 * Web Push subscriptions (decision 0152): one per browser on a device, bound to the account signed in when it was
 * made. The endpoint is the push service's URL for that browser; removed when the push service says it is gone.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    /** The browser's P-256 public key and auth secret (base64url), which the payload is encrypted to. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_unique').on(t.endpoint),
    index('push_subscriptions_user').on(t.userId),
  ],
);

/**
 * The push outbox (decision 0153): one row per notification per subscription, claimed by one replica. `sending` is
 * committed before the push service is called, so an accepted push is never sent again. `gone`: the push service
 * said the subscription no longer exists (it is deleted; subscription_id turns null).
 */
export const pushMessages = pgTable(
  'push_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id').references(() => pushSubscriptions.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: PUSH_NOTIFICATION_KINDS }).notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** The screen a tap opens (a path of the app). */
    url: text('url').notNull(),
    status: text('status', { enum: ['queued', 'sending', 'sent', 'failed', 'gone'] })
      .notNull()
      .default('queued'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('push_messages_due')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'queued'`),
    index('push_messages_user').on(t.userId, t.createdAt),
  ],
);

/**
 * One row per person per Kampala day a "new Kinayuganda movies" push was queued (decision 0154): the primary key is
 * what makes the daily sweep exactly once per person per day across replicas.
 */
export const pushDigests = pgTable(
  'push_digests',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** Kampala calendar day, YYYY-MM-DD. */
    day: text('day').notNull(),
    /** The newest movie this push told the person about; the next push counts movies after it. */
    newestMovieAt: timestamp('newest_movie_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.day] })],
);

export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

/**
 * Each title's content key (decision 0229), sealed under the master key: AES-256-GCM bound to the movie id, so a
 * sealed key copied onto another movie's row does not open. The plain key exists only in the server's memory and,
 * wrapped for one device, in a licence.
 */
export const titleKeys = pgTable('title_keys', {
  movieId: uuid('movie_id')
    .primaryKey()
    .references(() => movies.id, { onDelete: 'cascade' }),
  sealedKey: text('sealed_key').notNull(),
  createdAt: createdAt(),
});

/**
 * Each encrypted film file's chunk hashes (decision 0243), written when the file is stored: the SHA-256 of every 1 MiB
 * chunk, one after another, in base64url, as the signed manifest carries them. Keyed by the object's key, which names
 * one file for ever (a new encryption is a new key); the row goes with its movie.
 */
export const filmManifests = pgTable('film_manifests', {
  objectKey: text('object_key').primaryKey(),
  movieId: uuid('movie_id')
    .notNull()
    .references(() => movies.id, { onDelete: 'cascade' }),
  bytes: bigint('bytes', { mode: 'number' }).notNull(),
  hashes: text('hashes').notNull(),
  createdAt: createdAt(),
});

/**
 * One row per payment attempt. Our id is DPO's CompanyRef; the amount is the plan's price when the
 * payment started, never the client's. Status only moves forward from pending.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The short reference a person reads out to support (FLM-7K3Q9, decision 0180); set once, at insert. */
    reference: text('reference').notNull().$defaultFn(newPaymentReference),
    /** Null once the user is deleted: the payment stays for the books, without the person. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => subscriptionPlans.id, { onDelete: 'restrict' }),
    planName: text('plan_name').notNull(),
    amountUgx: bigint('amount_ugx', { mode: 'number' }).notNull(),
    currency: text('currency').notNull().default('UGX'),
    dpoToken: text('dpo_token'),
    dpoTransRef: text('dpo_trans_ref'),
    phone: text('phone'),
    mno: text('mno'),
    status: text('status', { enum: ['pending', 'completed', 'failed', 'expired', 'review'] })
      .notNull()
      .default('pending'),
    resultCode: text('result_code'),
    resultExplanation: text('result_explanation'),
    /** When the gateway stops waiting for this payment (DPO's payment time limit). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** When the reconciler should look at this pending payment next. */
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }).notNull(),
    checkAttempts: integer('check_attempts').notNull().default(0),
    /** When a prompt to a phone was first asked for: before that the payment is not the customer's (decision 0180). */
    chargeRequestedAt: timestamp('charge_requested_at', { withTimezone: true }),
    /** When the payer cancelled it (decision 0181); the payment is then `failed`. */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** What DPO's verifyToken reported as paid when the payment left `pending` (shown to the admin reviewing it). */
    reportedAmount: text('reported_amount'),
    reportedCurrency: text('reported_currency'),
    /** An admin's decision on a `review` payment (ADR 0052): once set it never changes. */
    reviewResolution: text('review_resolution', { enum: ['activated', 'refused'] }),
    reviewNote: text('review_note'),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  },
  (t) => [
    index('payments_status_created').on(t.status, t.createdAt),
    uniqueIndex('payments_dpo_token_unique').on(t.dpoToken),
    uniqueIndex('payments_reference_unique').on(t.reference),
    // One payment waiting for a phone per person: two concurrent charges of two payments resolve to one (decision 0181).
    uniqueIndex('payments_one_waiting_per_user')
      .on(t.userId)
      .where(sql`${t.status} = 'pending' and ${t.chargeRequestedAt} is not null`),
    index('payments_user_created').on(t.userId, t.createdAt),
    index('payments_pending_due')
      .on(t.nextCheckAt)
      .where(sql`${t.status} = 'pending'`),
    check('payments_amount_non_negative', sql`${t.amountUgx} >= 0`),
  ],
);

/**
 * The DPO simulator's gateway state (sandbox mode only, decision 0088): shared by every replica, as DPO itself is.
 * A charge's outcome is computed from `charged_at` on read; `state` records it once some replica has seen it land.
 */
export const DPO_SANDBOX_STATES = ['open', 'paid', 'review', 'declined', 'expired', 'cancelled'] as const;
export const dpoSandboxTransactions = pgTable(
  'dpo_sandbox_transactions',
  {
    transToken: text('trans_token').primaryKey(),
    transRef: text('trans_ref').notNull(),
    companyRef: text('company_ref'),
    amount: text('amount').notNull(),
    currency: text('currency').notNull(),
    description: text('description').notNull(),
    customerPhone: text('customer_phone'),
    customerEmail: text('customer_email'),
    state: text('state', { enum: DPO_SANDBOX_STATES }).notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    chargePhone: text('charge_phone'),
    chargeMno: text('charge_mno'),
    chargedAt: timestamp('charged_at', { withTimezone: true }),
    chargeRequests: integer('charge_requests').notNull().default(0),
    paidAmount: text('paid_amount'),
    websiteVerified: boolean('website_verified').notNull().default(false),
  },
  (t) => [
    index('dpo_sandbox_company_ref').on(t.companyRef),
    index('dpo_sandbox_open_created')
      .on(t.createdAt)
      .where(sql`${t.state} = 'open'`),
  ],
);

/** Films' short numbers, in the order films are added (decision 0249); migration 0033 numbered the films before it. */
export const movieShortNumbers = pgSequence('movies_short_number_seq', { startWith: 1000, minValue: 1 });

export const MOVIE_CATEGORIES = ['Kinayuganda', 'English'] as const;
export const MOVIE_RATINGS = ['all', 'pg', '13', '18'] as const;

/**
 * The library. Keys are generated by the server; size is what storage reported when the movie was
 * saved, never the client's figure. Deleting a movie removes its files and soft-deletes the row, so
 * download history keeps its title.
 */
export const movies = pgTable(
  'movies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description'),
    category: text('category', { enum: MOVIE_CATEGORIES }).notNull(),
    vj: text('vj').notNull().default('N/A'),
    s3Key: text('s3_key').notNull(),
    thumbnailKey: text('thumbnail_key'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    contentType: text('content_type').notNull(),
    /** What ffprobe read from the uploaded file (null until probed, or where ffmpeg is not installed). */
    durationSeconds: doublePrecision('duration_seconds'),
    width: integer('width'),
    height: integer('height'),
    /**
     * The poster in the small widths library cards need (WebP), made from the thumbnail or, without one, from a frame
     * of the video; null until made.
     */
    posterVariants: jsonb('poster_variants').$type<{ width: number; key: string }[]>(),
    isActive: boolean('is_active').notNull().default(true),
    /** Maturity rating (decision 0166); movies saved before ratings existed got 18 and `rating_confirmed` false. */
    rating: text('rating', { enum: MOVIE_RATINGS }).notNull().default('18'),
    ratingConfirmed: boolean('rating_confirmed').notNull().default(true),
    /**
     * When an admin took the movie down for rights (decision 0231): hidden, never granted or licensed again, and every
     * licence of it revoked. Activating it again clears this (the rights came back).
     */
    takenDownAt: timestamp('taken_down_at', { withTimezone: true }),
    /**
     * The original as phones get it (decision 0235): the upload encrypted with the title's key, under this key, with
     * this nonce (8 bytes, base64url). The upload at `s3_key` stays the transcoder's source and is never linked to a
     * phone once this is set; null until the encryption job has run.
     */
    originalFileKey: text('original_file_key'),
    originalFileNonce: text('original_file_nonce'),
    /** The Media Council certificate, when the operator keeps it. */
    certificateNumber: text('certificate_number'),
    certificateDate: date('certificate_date', { mode: 'string' }),
    /**
     * The number a person types to ask for the film's unlock code by USSD (decision 0249): given in sequence when the
     * film is added, never reused.
     */
    shortNumber: integer('short_number')
      .notNull()
      .default(sql`nextval('movies_short_number_seq')`),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    check('movies_category_known', sql`${t.category} in ('Kinayuganda', 'English')`),
    check('movies_rating_known', sql`${t.rating} in ('all', 'pg', '13', '18')`),
    check('movies_size_positive', sql`${t.sizeBytes} > 0`),
    uniqueIndex('movies_s3_key_unique').on(t.s3Key),
    uniqueIndex('movies_original_file_key_unique').on(t.originalFileKey),
    uniqueIndex('movies_short_number_unique').on(t.shortNumber),
    check('movies_original_file_whole', sql`(${t.originalFileKey} is null) = (${t.originalFileNonce} is null)`),
    // The library listing: live movies by category, newest first.
    index('movies_live_by_category')
      .on(t.category, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.isActive} and ${t.deletedAt} is null`),
    // Case-insensitive substring search (ILIKE '%…%') on title or description, served by trigram indexes.
    index('movies_title_trgm').using('gin', sql`${t.title} gin_trgm_ops`),
    index('movies_description_trgm').using('gin', sql`${t.description} gin_trgm_ops`),
  ],
);

/** Which plans give access to which movies (agents and admins see every active movie). */
export const moviePlans = pgTable(
  'movie_plans',
  {
    movieId: uuid('movie_id')
      .notNull()
      .references(() => movies.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => subscriptionPlans.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.movieId, t.planId] }), index('movie_plans_plan').on(t.planId)],
);

/**
 * The catalogue's version: one row, bumped by statement triggers (migration 0005_catalog_version) in the same
 * transaction as every change to `movies` or `movie_plans`, whoever makes it. Each server replica keeps the
 * live catalogue in memory and compares its version with this one on every library request
 * (docs/decisions/0065-cached-catalogue.md).
 */
export const catalogVersion = pgTable(
  'catalog_version',
  {
    id: integer('id').primaryKey(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('catalog_version_one_row', sql`${t.id} = 1`)],
);

/**
 * The rendition ladder of a movie (decision 0124): one row per size made from the upload, written by the transcode
 * jobs. `storageKey` is set only once the file is complete and in place (jobs write to a temporary key first), so a
 * row in `ready` always names a whole file.
 */
export const movieRenditions = pgTable(
  'movie_renditions',
  {
    movieId: uuid('movie_id')
      .notNull()
      .references(() => movies.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: RENDITION_KINDS }).notNull(),
    state: text('state', { enum: RENDITION_STATES }).notNull().default('queued'),
    /** 0–1 while encoding. */
    progress: doublePrecision('progress').notNull().default(0),
    etaSeconds: integer('eta_seconds'),
    storageKey: text('storage_key'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    width: integer('width'),
    height: integer('height'),
    /** Total bitrate of the file (bits per second), read back by ffprobe. */
    bitsPerSecond: integer('bits_per_second'),
    /**
     * The file's nonce (8 bytes, base64url) when it is stored encrypted with the title's key (decision 0235); null
     * for a file made before encryption, until the encryption job replaces it.
     */
    fileNonce: text('file_nonce'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.movieId, t.kind] }),
    check(
      'movie_renditions_ready_has_file',
      sql`${t.state} <> 'ready' or (${t.storageKey} is not null and ${t.sizeBytes} > 0)`,
    ),
    uniqueIndex('movie_renditions_storage_key_unique').on(t.storageKey),
  ],
);

/**
 * Subtitles of a movie, one per language (decision 0172): always stored as checked WebVTT text (SRT is converted on
 * the way in), small enough to live in the row. They go with the movie (cascade) and move the catalogue version.
 */
export const movieSubtitles = pgTable(
  'movie_subtitles',
  {
    movieId: uuid('movie_id')
      .notNull()
      .references(() => movies.id, { onDelete: 'cascade' }),
    /** A lower-case language code (`en`, `lg`, `sw`, `en-gb`…). */
    language: text('language').notNull(),
    label: text('label').notNull(),
    vtt: text('vtt').notNull(),
    /** UTF-8 bytes of `vtt`, as a download carries it. */
    bytes: integer('bytes').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.movieId, t.language] })],
);

/** Settings the operator changes in the console (one row). */
export const operatorSettings = pgTable(
  'operator_settings',
  {
    id: integer('id').primaryKey(),
    /** UGX per GB (10⁹ bytes) of mobile data: what sizes are priced at before a download (decision 0125). */
    dataPricePerGbUgx: integer('data_price_per_gb_ugx').notNull().default(6000),
    /** Plan cards and checkout warn when less than this many hours of a plan are left (decision 0176). */
    planWarningHours: integer('plan_warning_hours').notNull().default(72),
    /** A plan is no longer sold in its last this-many hours; 0 sells it to the end (decision 0176). */
    planSaleCutoffHours: integer('plan_sale_cutoff_hours').notNull().default(6),
    /** The SMS budget (decision 0201), validated by its contract on write and on read; null: the defaults. */
    smsBudget: jsonb('sms_budget'),
    updatedAt: updatedAt(),
    /** UGX per GB of mobile data inside a night window (issue 21/22, decision 0255). */
    nightPricePerGbUgx: integer('night_price_per_gb_ugx').notNull().default(2000),
    /** The night windows, Kampala time, validated by `NightWindows` on write and on read; null: 00:00–06:00. */
    nightWindows: jsonb('night_windows').$type<NightWindows>(),
    /**
     * A change takes effect for the next window (decision 0255): until `night_changes_at` the price and windows in
     * force are the ones before it (`night_before`); null when the last change is in force.
     */
    nightBefore: jsonb('night_before').$type<NightBundleSetting>(),
    nightChangesAt: timestamp('night_changes_at', { withTimezone: true }),
  },
  (t) => [
    check('operator_settings_one_row', sql`${t.id} = 1`),
    check('operator_settings_price_range', sql`${t.dataPricePerGbUgx} between 100 and 100000`),
    check('operator_settings_night_price_range', sql`${t.nightPricePerGbUgx} between 100 and 100000`),
    check('operator_settings_plan_warning_range', sql`${t.planWarningHours} between 0 and 720`),
    check('operator_settings_plan_cutoff_range', sql`${t.planSaleCutoffHours} between 0 and 168`),
  ],
);

/**
 * Texts counted against the SMS budget (decision 0201): one row per purpose (codes, receipts, reminders,
 * credentials), period (hour, day) and the period's start. Raised by a conditional upsert (`sent < ceiling`), so
 * every replica shares the count and no request or dispatcher passes a ceiling.
 */
export const smsBudgetCounts = pgTable(
  'sms_budget_counts',
  {
    purpose: text('purpose').notNull(),
    period: text('period', { enum: ['hour', 'day'] }).notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    sent: integer('sent').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.purpose, t.period, t.startsAt] })],
);

export const DOWNLOAD_STATUSES = ['starting', 'downloading', 'paused', 'completed', 'failed'] as const;

/**
 * One download per (user or agent, movie): the grant is this row, so the unique indexes decide
 * concurrent grants. Progress only grows and never passes the size; completion needs every byte.
 */
export const downloads = pgTable(
  'downloads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id').references(() => agents.id, { onDelete: 'cascade' }),
    movieId: uuid('movie_id')
      .notNull()
      .references(() => movies.id, { onDelete: 'restrict' }),
    status: text('status', { enum: DOWNLOAD_STATUSES }).notNull().default('starting'),
    downloadedBytes: bigint('downloaded_bytes', { mode: 'number' }).notNull().default(0),
    totalBytes: bigint('total_bytes', { mode: 'number' }).notNull(),
    resumedCount: integer('resumed_count').notNull().default(0),
    /** Which file this download fetches (decision 0126): the original or a rendition; resume never mixes them. */
    size: text('size', { enum: DOWNLOAD_SIZES }).notNull().default('original'),
    /**
     * Every byte handed to the client for this download, re-fetches after drops included: the data it really cost.
     * `deliveredBytes` counts each byte once; this counts what crossed the network.
     */
    fetchedBytes: bigint('fetched_bytes', { mode: 'number' }).notNull().default(0),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The last grant or progress report: an active download silent for an hour is marked paused. */
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /**
     * Local driver: the byte intervals `/files` handed to the client under this download's links, merged and
     * sorted (`[start, end)` pairs), and their total: what completion is decided from, not the client's word.
     */
    deliveredRanges: jsonb('delivered_ranges').$type<[number, number][]>().notNull().default([]),
    deliveredBytes: bigint('delivered_bytes', { mode: 'number' }).notNull().default(0),
    /** Links minted since delivery last grew: a download asking again and again without progress is refused. */
    linksSinceProgress: integer('links_since_progress').notNull().default(0),
    /**
     * The largest share (0–1) of its file this download has had delivered, whatever size it was then (decision 0191):
     * a size switch starts the new file from zero, but only passing this share again is progress, so switching sizes
     * never resets the link count.
     */
    bestDeliveredShare: doublePrecision('best_delivered_share').notNull().default(0),
    /**
     * Copies of the file sent under this grant: every byte `/files` sent for it over the size of the download's file
     * (re-fetches and other sizes included). A grant delivers at most MAX_COPIES_PER_GRANT (decision 0191); a
     * re-download is a new grant and starts again from zero.
     */
    copiesSent: doublePrecision('copies_sent').notNull().default(0),
    /**
     * S3 only (decision 0192): when the download's live link expires. A presigned link cannot be revoked, so while one
     * is live every new link of the same file expires with it: one live window per download, never extended.
     */
    linkExpiresAt: timestamp('link_expires_at', { withTimezone: true }),
    /**
     * A film received from an agent's phone (issue 19/22, decision 0246): the agent whose signed file it was, for the
     * console's counts. No foreign key: a deleted agent's name goes, the count of what they sent stays meaningless
     * but harmless, and a receiver's licence never fails because the sender's row is gone.
     */
    receivedFromAgentId: uuid('received_from_agent_id'),
    /**
     * When the film came to the person's phone from another phone (a `.filamu` file or a transfer, issue 19/22): the
     * download was completed by that licence, not by fetching, so its data was saved. Null for a fetched film.
     */
    receivedAt: timestamp('received_at', { withTimezone: true }),
    /**
     * When the phone said it has the whole file (`/complete`, decision 0213). A download the server completed from its
     * delivered bytes but the phone has not confirmed may still fetch what it lost on the way, for the same file and
     * within the copies cap; once confirmed, its links end.
     */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /**
     * A re-download of this completed movie is under way (decision 0121): the row stays `completed` (the person has
     * the movie, for every rule and count) while its links work again and its delivered bytes count from zero.
     */
    redownloadStartedAt: timestamp('redownload_started_at', { withTimezone: true }),
    /**
     * Of `fetched_bytes`, those served while a night window was open (issue 21/22, decision 0255): by the server's
     * clock and the windows in force then, a stretch of bytes split by the share of its time inside a window.
     */
    nightBytes: bigint('night_bytes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    check('downloads_night_bytes_in_range', sql`${t.nightBytes} >= 0 and ${t.nightBytes} <= ${t.fetchedBytes}`),
    check('downloads_delivered_in_range', sql`${t.deliveredBytes} >= 0 and ${t.deliveredBytes} <= ${t.totalBytes}`),
    check('downloads_one_subject', sql`(${t.userId} is null) <> (${t.agentId} is null)`),
    check('downloads_bytes_in_range', sql`${t.downloadedBytes} >= 0 and ${t.downloadedBytes} <= ${t.totalBytes}`),
    uniqueIndex('downloads_user_movie_unique').on(t.userId, t.movieId),
    uniqueIndex('downloads_agent_movie_unique').on(t.agentId, t.movieId),
    index('downloads_active_by_activity')
      .on(t.lastActivityAt)
      .where(sql`${t.status} in ('starting', 'downloading')`),
    index('downloads_completed_by_movie')
      .on(t.movieId)
      .where(sql`${t.status} = 'completed'`),
    index('downloads_received_from_agent')
      .on(t.receivedFromAgentId)
      .where(sql`${t.receivedFromAgentId} is not null`),
    index('downloads_received_at')
      .on(t.receivedAt)
      .where(sql`${t.receivedAt} is not null`),
    index('downloads_completed_at')
      .on(t.completedAt)
      .where(sql`${t.status} = 'completed'`),
  ],
);

/**
 * A film that came to a person's phone from another phone while they had no plan (issue 19/22 §5): it waits on the
 * phone for a plan, so a plan bought after it is one the film brought — counted for the operator and, when the film
 * came from an agent's phone, for that agent. One row per person and film: the first time it waited.
 */
export const receivedFilmsWaiting = pgTable(
  'received_films_waiting',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    movieId: uuid('movie_id')
      .notNull()
      .references(() => movies.id, { onDelete: 'cascade' }),
    /** The agent whose phone made the file (decision 0246); no foreign key, as `downloads.received_from_agent_id`. */
    fromAgentId: uuid('from_agent_id'),
    waitingSince: timestamp('waiting_since', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.movieId] }),
    index('received_films_waiting_by_agent')
      .on(t.fromAgentId)
      .where(sql`${t.fromAgentId} is not null`),
  ],
);

/**
 * Licences (decision 0230): a film's content key wrapped for one phone's key, issued with a download's grant. A
 * download has at most one live licence (the single-device rule): a licence on another phone is revoked (`moved`)
 * when the film goes to a new one, and every licence of a film taken down for rights is revoked (`taken_down`).
 * Deleting a person deletes their downloads and so their licences: the phone's next check finds them unknown.
 */
export const licences = pgTable(
  'licences',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    downloadId: uuid('download_id')
      .notNull()
      .references(() => downloads.id, { onDelete: 'cascade' }),
    movieId: uuid('movie_id')
      .notNull()
      .references(() => movies.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id').references(() => agents.id, { onDelete: 'cascade' }),
    /** The session's device id, and the SHA-256 (base64url) of the phone key the content key was wrapped for. */
    deviceId: text('device_id').notNull(),
    deviceKeyId: text('device_key_id').notNull(),
    way: text('way', { enum: LICENCE_WAYS }).notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason', { enum: LICENCE_REVOKED_REASONS }),
  },
  (t) => [
    check('licences_one_subject', sql`(${t.userId} is null) <> (${t.agentId} is null)`),
    check('licences_way_known', sql`${t.way} in ('download', 'redownload', 'transfer')`),
    check(
      'licences_revoked_with_reason',
      sql`(${t.revokedAt} is null) = (${t.revokedReason} is null) and (${t.revokedReason} is null or ${t.revokedReason} in ('moved', 'taken_down'))`,
    ),
    uniqueIndex('licences_one_live_per_download')
      .on(t.downloadId)
      .where(sql`${t.revokedAt} is null`),
    index('licences_by_movie').on(t.movieId),
  ],
);

/**
 * The phone keys given a device secret for sealed film keys (decision 0249), per account: the secret itself is derived
 * from the master key and the key id, never stored. Kept so the USSD service can find the phone from the three digits
 * a request code carries, and license the film to it (its session's device id and public key, as a licence needs).
 */
export const sealedKeyPhones = pgTable(
  'sealed_key_phones',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id').references(() => agents.id, { onDelete: 'cascade' }),
    /** The SHA-256 (base64url) of the phone key, as licences name it, and the three digits request codes carry. */
    keyId: text('key_id').notNull(),
    keyDigits: text('key_digits').notNull(),
    /** The phone key (SPKI, base64url) and the device id of the session that last fetched the sealed keys. */
    publicKey: text('public_key').notNull(),
    deviceId: text('device_id').notNull(),
    firstIssuedAt: timestamp('first_issued_at', { withTimezone: true }).notNull(),
    lastIssuedAt: timestamp('last_issued_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    check('sealed_key_phones_one_subject', sql`(${t.userId} is null) <> (${t.agentId} is null)`),
    uniqueIndex('sealed_key_phones_user_key')
      .on(t.userId, t.keyId)
      .where(sql`${t.userId} is not null`),
    uniqueIndex('sealed_key_phones_agent_key')
      .on(t.agentId, t.keyId)
      .where(sql`${t.agentId} is not null`),
  ],
);

export const REDOWNLOAD_SOURCES = ['monthly', 'granted'] as const;

/**
 * Every re-download of a movie a person completed before (decision 0121): what the monthly allowance counts and what
 * analytics count apart from first downloads. `month` is the Kampala calendar month it was taken in; `source` says
 * whether it used the month's allowance or an extra one an admin granted. At most one is open per download.
 */
export const redownloads = pgTable(
  'redownloads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    downloadId: uuid('download_id')
      .notNull()
      .references(() => downloads.id, { onDelete: 'cascade' }),
    /** `YYYY-MM`, Kampala time. */
    month: text('month').notNull(),
    source: text('source', { enum: REDOWNLOAD_SOURCES }).notNull(),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('redownloads_user_month').on(t.userId, t.month),
    uniqueIndex('redownloads_one_open_per_download')
      .on(t.downloadId)
      .where(sql`${t.completedAt} is null`),
  ],
);

/**
 * A person's history as the console shows it (decision 0214): each support action an admin took for them (a re-download
 * granted, a password reset), who and when, the admin's note, and whether a text went to the person. Never a password.
 * Goes with the person; the admin's name stays while their account does.
 */
export const supportActions = pgTable(
  'support_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    adminId: uuid('admin_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action', { enum: SUPPORT_ACTIONS }).notNull(),
    note: text('note'),
    /** Whether a text went (`queued`) or why not (`phone_not_confirmed`, `no_phone`, `sms_off`). */
    sms: text('sms', { enum: SUPPORT_SMS_OUTCOMES }).notNull(),
    /** The text in the outbox, for its status (sent, delivered, failed) in the history. */
    smsId: uuid('sms_id').references(() => smsOutbox.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('support_actions_note_length', sql`char_length(${t.note}) <= ${sql.raw(String(SUPPORT_NOTE_MAX))}`),
    index('support_actions_user_recent').on(t.userId, t.createdAt.desc()),
  ],
);

/**
 * Where each person stopped in each movie (decision 0164): one row per person and movie, the newest `updated_at`
 * (the phone's clock when it was saved) wins, in one statement so late or concurrent writes never go backwards.
 */
export const watchPositions = pgTable(
  'watch_positions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    movieId: uuid('movie_id')
      .notNull()
      .references(() => movies.id, { onDelete: 'cascade' }),
    positionSeconds: doublePrecision('position_seconds').notNull(),
    durationSeconds: doublePrecision('duration_seconds').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.movieId] }),
    index('watch_positions_user_recent').on(t.userId, t.updatedAt),
    check('watch_positions_bounds', sql`${t.positionSeconds} >= 0 and ${t.positionSeconds} <= ${t.durationSeconds}`),
  ],
);

/**
 * What phones said on the device check page (decision 0253): each rendition's decoder answer and whether its sample
 * played (`answers`, the fixed shape of DeviceCheckAnswers), the phone as read from its User-Agent and hints, and the
 * two verdicts the console counts. Kept when the sender's account goes (`user_id` set null): the figure is the phones'.
 */
export const deviceChecks = pgTable(
  'device_checks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userAgent: text('user_agent'),
    model: text('model'),
    androidVersion: text('android_version'),
    chromeVersion: text('chrome_version'),
    hevcSmall: boolean('hevc_small').notNull(),
    h264Small: boolean('h264_small').notNull(),
    answers: jsonb('answers').$type<DeviceCheckAnswers>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('device_checks_recent').on(t.createdAt.desc(), t.id.desc())],
);

/**
 * The films a person queued for tonight (issue 21/22): the phone keeps the real queue; this copy only decides who gets
 * the push when a night window opens. Replaced whole by each PUT, at most TONIGHT_QUEUE_MAX rows per person.
 */
export const tonightQueueItems = pgTable(
  'tonight_queue_items',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    movieId: uuid('movie_id')
      .notNull()
      .references(() => movies.id, { onDelete: 'cascade' }),
    size: text('size', { enum: DOWNLOAD_SIZES }).notNull(),
    /** The person's order, from 0. */
    position: integer('position').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.movieId] })],
);

/**
 * One row per person per night window a window-start push was queued for (decision 0255): inserted on conflict do
 * nothing in the transaction that queues the push, so two replicas, or a pass run again after a crash, push once.
 */
export const nightWindowPushes = pgTable(
  'night_window_pushes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The window's opening instant. */
    opensAt: timestamp('opens_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.opensAt] })],
);
