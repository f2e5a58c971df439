import { z } from 'zod';

/** Push service URLs are a few hundred characters; anything far longer is not one. */
export const PUSH_ENDPOINT_MAX = 1024;

const withoutPadding = (value: string) => {
  let end = value.length;
  while (end > 0 && value[end - 1] === '=') end -= 1;
  return value.slice(0, end);
};

const base64Url = (name: string, bytes: number) => {
  // Unpadded base64url of `bytes` bytes is this long; browsers send it unpadded, some libraries pad it.
  const length = Math.ceil((bytes * 4) / 3);
  return z
    .string({ message: `${name} is required.` })
    .max(length + 2, `${name} must be ${bytes} bytes in base64url.`)
    .transform(withoutPadding)
    .refine(
      (value) => value.length === length && /^[A-Za-z0-9_-]+$/.test(value),
      `${name} must be ${bytes} bytes in base64url.`,
    );
};

/** What `PushSubscription.toJSON()` gives: the push service's URL for this browser and the keys to encrypt to. */
export const PushSubscriptionBody = z.object({
  endpoint: z
    .string({ message: 'endpoint is required.' })
    .max(PUSH_ENDPOINT_MAX, `endpoint must be at most ${PUSH_ENDPOINT_MAX} characters.`)
    .pipe(z.url({ protocol: /^https?$/, message: 'endpoint must be an https URL.' })),
  expirationTime: z.number().nullable().optional(),
  keys: z.object(
    {
      /** The browser's P-256 public key, uncompressed (65 bytes). */
      p256dh: base64Url('keys.p256dh', 65),
      /** The browser's auth secret (16 bytes). */
      auth: base64Url('keys.auth', 16),
    },
    { message: 'keys is required.' },
  ),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

export const PushUnsubscribeBody = z.object({
  endpoint: z
    .string({ message: 'endpoint is required.' })
    .min(1, 'endpoint is required.')
    .max(PUSH_ENDPOINT_MAX, `endpoint must be at most ${PUSH_ENDPOINT_MAX} characters.`),
});

export const PushPublicKey = z.object({
  /** The server's VAPID public key (base64url), the browser's `applicationServerKey`. */
  publicKey: z.string(),
});

export const PushSubscribed = z.object({ subscribed: z.boolean() });

export const PUSH_NOTIFICATION_KINDS = [
  'payment_confirmed',
  'new_movies',
  'plan_ends_in_3_days',
  'plan_ends_today',
  'night-window',
] as const;
export type PushNotificationKind = (typeof PUSH_NOTIFICATION_KINDS)[number];

/** The JSON a push carries to the service worker (encrypted on the way). */
export const PushPayload = z.object({
  kind: z.enum(PUSH_NOTIFICATION_KINDS),
  title: z.string(),
  body: z.string(),
  /** A path of the app the tap opens. */
  url: z.string(),
  /** Same tag: a newer notification replaces an older one instead of piling up. */
  tag: z.string(),
});
export type PushPayload = z.infer<typeof PushPayload>;
