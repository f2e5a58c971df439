import { contracts, fromBase64url } from '@filamu/shared';
import { create } from 'zustand';
import { api } from '../../lib/api.ts';
import { writeLocal } from '../../lib/local-storage.ts';
import { STORAGE_KEYS } from '../../lib/storage-names.ts';

/**
 * When to offer notifications (decision 0152): never on a first visit; only once this phone has finished a download
 * or seen a payment confirmed. "Not now" is kept on this phone: the offer does not come back by itself, the
 * switch on the profile's Security tab turns notifications on later.
 */
const STORAGE_KEY = STORAGE_KEYS.push;

interface Remembered {
  eligible: boolean;
  notNow: boolean;
}

function read(): Remembered {
  try {
    const raw = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
    const parsed = raw ? (JSON.parse(raw) as Partial<Remembered>) : {};
    return { eligible: parsed.eligible === true, notNow: parsed.notNow === true };
  } catch {
    return { eligible: false, notNow: false };
  }
}

export const usePushOffer = create<Remembered>(() => read());

function remember(change: Partial<Remembered>): void {
  usePushOffer.setState(change);
  // Refused by the phone: the offer is simply made again next time.
  writeLocal(STORAGE_KEY, JSON.stringify(usePushOffer.getState()));
}

/** A first download finished or a payment was confirmed: notifications may be offered from now on. */
export const offerNotifications = () => remember({ eligible: true });
export const declineNotifications = () => remember({ notNow: true });

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
  );
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

export async function notificationsOn(): Promise<boolean> {
  if (!pushSupported() || Notification.permission !== 'granted') return false;
  return (await currentSubscription()) !== null;
}

export type EnableResult = 'on' | 'denied' | 'failed';

/** Call from the person's tap: the permission prompt first, then the subscription, then the server keeps it. */
export async function enableNotifications(): Promise<EnableResult> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  try {
    const registration = await navigator.serviceWorker.ready;
    const { publicKey } = await api(contracts.push.publicKey);
    const subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: fromBase64url(publicKey),
      }));
    const json = subscription.toJSON();
    await api(contracts.push.subscribe, {
      body: { endpoint: subscription.endpoint, keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } },
    });
    return 'on';
  } catch (error) {
    console.error('Turning notifications on failed', error);
    return 'failed';
  }
}

/** Notifications off on this phone: the server forgets the subscription, then the browser drops it. */
export async function disableNotifications(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await api(contracts.push.unsubscribe, { body: { endpoint: subscription.endpoint } });
  await subscription.unsubscribe();
}
