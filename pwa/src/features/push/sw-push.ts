/// <reference lib="webworker" />
import { PUSH_NOTIFICATION_KINDS, type PushPayload } from '@filamu/shared';

/**
 * The service worker's side of Web Push (decision 0152): show what the server pushed, and open the right screen
 * when the notification is tapped. Plain checks instead of the zod schema, to keep zod out of the worker.
 */
declare const self: ServiceWorkerGlobalScope;

const FALLBACK_URL = '/dashboard';

function readPayload(data: PushMessageData | null): PushPayload | null {
  try {
    const value = data?.json() as Partial<PushPayload> | undefined;
    if (!value || !PUSH_NOTIFICATION_KINDS.includes(value.kind as PushPayload['kind'])) return null;
    if (typeof value.title !== 'string' || typeof value.body !== 'string') return null;
    return {
      kind: value.kind!,
      title: value.title.slice(0, 120),
      body: value.body.slice(0, 300),
      url: typeof value.url === 'string' ? value.url : FALLBACK_URL,
      tag: typeof value.tag === 'string' ? value.tag : value.kind!,
    };
  } catch {
    return null;
  }
}

/** Only screens of this app: anything else opens the dashboard. */
function screenUrl(url: unknown): string {
  try {
    const target = new URL(typeof url === 'string' ? url : FALLBACK_URL, self.location.origin);
    return target.origin === self.location.origin ? target.href : new URL(FALLBACK_URL, self.location.origin).href;
  } catch {
    return new URL(FALLBACK_URL, self.location.origin).href;
  }
}

async function windows(): Promise<WindowClient[]> {
  return (await self.clients.matchAll({ type: 'window' })) as WindowClient[];
}

async function showPush(data: PushMessageData | null): Promise<void> {
  const payload = readPayload(data);
  if (!payload) return;
  // A payment confirmed while Filamu is on screen: the open page says so itself; the push is for a closed page.
  if (payload.kind === 'payment_confirmed' && (await windows()).some((w) => w.visibilityState === 'visible')) return;
  await self.registration.showNotification(payload.title, {
    body: payload.body,
    icon: '/icon-192.png',
    badge: '/icon-192.png',
    tag: payload.tag,
    data: { url: payload.url, kind: payload.kind },
  });
}

/** An open Filamu window goes to the screen (and comes to the front); without one, a new window opens there. */
async function openScreen(url: unknown): Promise<void> {
  const href = screenUrl(url);
  for (const client of await windows()) {
    const navigated = await client.navigate(href).catch(() => null);
    if (!navigated) continue;
    await navigated.focus().catch(() => undefined);
    return;
  }
  await self.clients.openWindow(href);
}

export function listenForPushes(): void {
  self.addEventListener('push', (event) => {
    event.waitUntil(showPush(event.data));
  });
  self.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const data = event.notification.data as { url?: unknown } | null;
    event.waitUntil(openScreen(data?.url));
  });
}
