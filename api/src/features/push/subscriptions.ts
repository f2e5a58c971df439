import type { PushSubscriptionBody } from '@filamu/shared';
import { and, desc, eq, notInArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { pushSubscriptions } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';

/**
 * The browsers' push services (decision 0152). The server POSTs to whatever endpoint a subscription names, so only
 * these hosts (and the configured extra origins) are accepted: an endpoint cannot aim the server at anything else.
 */
const PUSH_SERVICE_HOSTS = ['fcm.googleapis.com', 'android.googleapis.com', 'push.services.mozilla.com'];
const PUSH_SERVICE_DOMAINS = ['.notify.windows.com', '.push.apple.com', '.push.services.mozilla.com'];

/** Browsers a person may have subscribed at once; older ones are dropped when a new one arrives. */
const MAX_SUBSCRIPTIONS_PER_USER = 10;

function isPushServiceEndpoint(endpoint: string, extraOrigins: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (extraOrigins.includes(url.origin)) return true;
  if (url.protocol !== 'https:' || url.port !== '' || url.username || url.password) return false;
  const host = url.hostname;
  return PUSH_SERVICE_HOSTS.includes(host) || PUSH_SERVICE_DOMAINS.some((domain) => host.endsWith(domain));
}

/**
 * Keeps this browser's subscription for this person. The endpoint is unique: the same browser subscribing again (new
 * keys, or another person now signed in on that phone) updates the one row, so a phone never notifies two accounts.
 */
export async function subscribe(
  database: Database,
  now: Date,
  userId: string,
  body: PushSubscriptionBody,
  extraOrigins: readonly string[],
): Promise<void> {
  if (!isPushServiceEndpoint(body.endpoint, extraOrigins)) {
    throw new AppError('validation_error', "endpoint: This is not a browser's push service address.", {
      issues: [{ path: 'endpoint', message: "This is not a browser's push service address." }],
    });
  }
  await database.db.transaction(async (tx) => {
    await tx
      .insert(pushSubscriptions)
      .values({
        userId,
        endpoint: body.endpoint,
        p256dh: body.keys.p256dh,
        auth: body.keys.auth,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { userId, p256dh: body.keys.p256dh, auth: body.keys.auth, updatedAt: now },
      });
    const keep = tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(desc(pushSubscriptions.updatedAt), desc(pushSubscriptions.id))
      .limit(MAX_SUBSCRIPTIONS_PER_USER);
    await tx
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.id, keep)));
  });
}

/** Notifications off on this browser. Only the person's own subscription; unknown endpoints are already off. */
export async function unsubscribe(database: Database, userId: string, endpoint: string): Promise<void> {
  await database.db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
}
