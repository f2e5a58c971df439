import { contracts } from '@filamu/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installBrowserStubs, jsonResponse, testUser as user } from './test-support.ts';

describe('api client', () => {
  beforeEach(() => {
    vi.resetModules();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends JSON with the device id and bearer token and parses the response', async () => {
    installBrowserStubs();
    const fetchMock = vi.fn(async () => jsonResponse(200, user));
    vi.stubGlobal('fetch', fetchMock);
    const { useSessionStore } = await import('./session.ts');
    const { api } = await import('./api.ts');
    useSessionStore.getState().signInUser('tok', user);

    const result = await api(contracts.auth.updateProfile, { body: { fullName: 'Nakato' } });
    expect(result.fullName).toBe('Nakato');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/users/profile');
    expect(init.method).toBe('PUT');
    const headers = init.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer tok');
    expect(headers['X-Device-Id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(String(init.body))).toEqual({ fullName: 'Nakato' });
  });

  it('turns an error body into an ApiError with code, message and issues', async () => {
    installBrowserStubs({ pathname: '/register' });
    vi.stubGlobal('fetch', async () =>
      jsonResponse(400, {
        error: {
          code: 'validation_error',
          message: 'Invalid request.',
          requestId: 'r1',
          issues: [{ path: 'phone', message: 'Bad phone' }],
        },
      }),
    );
    const { api, ApiError } = await import('./api.ts');
    const error = await api(contracts.auth.register, {
      body: { email: 'a@b.ug', password: 'x', fullName: 'A', phone: '1' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'validation_error', message: 'Invalid request.' });
    expect((error as InstanceType<typeof ApiError>).issues).toEqual([{ path: 'phone', message: 'Bad phone' }]);
  });

  it('on a 401 with a token clears the session, renews the device id and goes to /login', async () => {
    const { store, assign } = installBrowserStubs({ pathname: '/profile' });
    vi.stubGlobal('fetch', async () =>
      jsonResponse(401, { error: { code: 'unauthenticated', message: 'Signed in elsewhere.', requestId: 'r' } }),
    );
    const { useSessionStore } = await import('./session.ts');
    const { getDeviceId } = await import('./device-id.ts');
    const { api } = await import('./api.ts');
    useSessionStore.getState().signInUser('tok', user);
    const before = getDeviceId();

    await expect(api(contracts.auth.profile)).rejects.toMatchObject({ status: 401 });
    expect(useSessionStore.getState().status).toBe('guest');
    expect(store.get('filamu.session')).toBeUndefined();
    expect(getDeviceId()).not.toBe(before);
    expect(assign).toHaveBeenCalledWith('/login');
    const { useToastStore } = await import('./toast.ts');
    expect(useToastStore.getState().toasts).toMatchObject([
      { title: 'You have been signed out', description: 'Signed in elsewhere.' },
    ]);
  });

  it('on a 403 keeps the session and stays on the page: the person is refused, not signed out', async () => {
    const { store, assign } = installBrowserStubs({ pathname: '/subscription' });
    vi.stubGlobal('fetch', async () =>
      jsonResponse(403, { error: { code: 'forbidden', message: 'Agents already have access.', requestId: 'r' } }),
    );
    const { useSessionStore } = await import('./session.ts');
    const { api } = await import('./api.ts');
    useSessionStore.getState().signInUser('tok', user);

    await expect(api(contracts.payments.history)).rejects.toMatchObject({
      status: 403,
      message: 'Agents already have access.',
    });
    expect(useSessionStore.getState().status).toBe('user');
    expect(store.get('filamu.session')).toBeDefined();
    expect(assign).not.toHaveBeenCalled();
  });

  it('does not redirect on a failed sign-in (401 without a token)', async () => {
    const { assign } = installBrowserStubs({ pathname: '/login' });
    vi.stubGlobal('fetch', async () =>
      jsonResponse(401, { error: { code: 'unauthenticated', message: 'Invalid credentials.', requestId: 'r' } }),
    );
    const { api } = await import('./api.ts');
    await expect(
      api(contracts.auth.login, { body: { identifier: 'x', password: 'y', currentDeviceId: 'd' } }),
    ).rejects.toMatchObject({ message: 'Invalid credentials.' });
    expect(assign).not.toHaveBeenCalled();
  });
});
