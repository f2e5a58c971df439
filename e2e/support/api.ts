import { randomUUID } from 'node:crypto';
import { adminCredentials, baseURL } from './browser.ts';

/** Calls the API directly (test set-up only), as a given device. */
export async function apiCall<T>(
  path: string,
  init: { method?: string; body?: unknown; token?: string; deviceId?: string } = {},
): Promise<T> {
  const response = await fetch(`${baseURL()}/api${path}`, {
    method: init.method ?? 'GET',
    headers: {
      'Content-Type': 'application/json',
      'X-Device-Id': init.deviceId ?? randomUUID(),
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const json = (await response.json()) as T;
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path} → ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

/** Signs the server's admin in on a new device; returns what later admin calls need. */
export async function signInAdmin(): Promise<{ token: string; deviceId: string }> {
  const deviceId = randomUUID();
  const { email, password } = adminCredentials();
  const { token } = await apiCall<{ token: string }>('/auth/login', {
    method: 'POST',
    deviceId,
    body: { identifier: email, password, currentDeviceId: deviceId },
  });
  return { token, deviceId };
}
