import type { UserProfile } from '@filamu/shared';
import { vi } from 'vitest';

/**
 * Minimal browser globals for the API client and the session under Node: localStorage (optionally holding a
 * saved session) and a window that can fire events such as 'online'. Test-only.
 */
export function installBrowserStubs(options: { pathname?: string; saved?: unknown } = {}) {
  const store = new Map<string, string>();
  const { saved } = options;
  if (saved !== undefined) store.set('filamu.session', typeof saved === 'string' ? saved : JSON.stringify(saved));
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, String(v)),
    removeItem: (k: string) => void store.delete(k),
  });
  const assign = vi.fn();
  const win = Object.assign(new EventTarget(), { location: { pathname: options.pathname ?? '/dashboard', assign } });
  vi.stubGlobal('window', win);
  return { store, assign, win };
}

export const testUser: UserProfile = {
  kind: 'user',
  id: 'u1',
  email: 'a@b.ug',
  fullName: 'Nakato',
  phone: '256772123456',
  isAdmin: false,
  isSubscribed: false,
  subscriptionPlan: null,
  subscription_start_date: null,
  subscription_end_date: null,
  daysRemaining: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  deviceIDs: ['d1'],
};

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}
