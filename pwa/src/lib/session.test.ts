import type { UserProfile } from '@filamu/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installBrowserStubs, jsonResponse, testUser } from './test-support.ts';

const user: UserProfile = {
  ...testUser,
  isSubscribed: true,
  subscriptionPlan: 'Basic',
  subscription_start_date: '2026-01-01T00:00:00Z',
  subscription_end_date: '2026-12-31T00:00:00Z',
  daysRemaining: 30,
};

const unauthorized = () => jsonResponse(401, { error: { code: 'unauthenticated', message: 'Ended.', requestId: 'r' } });

async function loadModules() {
  const session = await import('./session.ts');
  const bootstrap = await import('./session-bootstrap.ts');
  return { ...session, ...bootstrap };
}

describe('saved session', () => {
  beforeEach(() => {
    vi.resetModules();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('opens signed in with the saved profile, before any request', async () => {
    installBrowserStubs({ saved: { token: 'tok', kind: 'user', profile: user } });
    const { useSessionStore } = await loadModules();
    // Shown at once, but not fresh: screens showing the profile load it again.
    expect(useSessionStore.getState()).toMatchObject({ status: 'user', token: 'tok', user, userLoadedAt: 0 });
  });

  it('keeps the token but drops a profile that does not look right, and loads it again', async () => {
    installBrowserStubs({ saved: { token: 'tok', kind: 'user', profile: { ...user, fullName: 42 } } });
    const { useSessionStore } = await loadModules();
    expect(useSessionStore.getState()).toMatchObject({ status: 'loading', token: 'tok', user: null });
  });

  it('reads the earlier format (token and kind only) as a session whose profile must be loaded', async () => {
    installBrowserStubs({ saved: { token: 'tok', kind: 'agent' } });
    const { useSessionStore } = await loadModules();
    expect(useSessionStore.getState()).toMatchObject({ status: 'loading', token: 'tok', kind: 'agent' });
  });

  it('treats unreadable storage as signed out', async () => {
    installBrowserStubs({ saved: '{not json' });
    const { useSessionStore } = await loadModules();
    expect(useSessionStore.getState().status).toBe('guest');
  });

  it('saves each profile it is given with the token', async () => {
    const { store } = installBrowserStubs();
    const { useSessionStore } = await loadModules();
    useSessionStore.getState().signInUser('tok', user);
    useSessionStore.getState().setUser({ ...user, fullName: 'Nakato B.' });
    expect(JSON.parse(store.get('filamu.session')!)).toMatchObject({
      token: 'tok',
      kind: 'user',
      profile: { fullName: 'Nakato B.' },
    });
  });

  it('keeps the saved profile object when the refreshed one is the same, so screens reading it do not render again', async () => {
    installBrowserStubs();
    const { useSessionStore } = await loadModules();
    useSessionStore.getState().signInUser('tok', user);
    const saved = useSessionStore.getState().user;
    let notified = 0;
    const stop = useSessionStore.subscribe((state, previous) => {
      if (state.user !== previous.user) notified += 1;
    });
    useSessionStore.getState().setUser({ ...user });
    expect(useSessionStore.getState().user).toBe(saved);
    useSessionStore.getState().setUser({ ...user, isSubscribed: !user.isSubscribed });
    expect(useSessionStore.getState().user).toMatchObject({ isSubscribed: !user.isSubscribed });
    expect(notified).toBe(1);
    stop();
  });

  it('ignores a profile that arrives after sign-out', async () => {
    const { store } = installBrowserStubs();
    const { useSessionStore } = await loadModules();
    useSessionStore.getState().setUser(user);
    expect(useSessionStore.getState().status).toBe('guest');
    expect(store.has('filamu.session')).toBe(false);
  });
});

describe('refreshing the saved session', () => {
  beforeEach(() => {
    vi.resetModules();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('keeps the session on a network error and refreshes it when back online', async () => {
    const { store, win } = installBrowserStubs({ saved: { token: 'tok', kind: 'user', profile: user } });
    const fetchMock = vi.fn(async (): Promise<Response> => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchMock);
    const { useSessionStore, bootstrapSession } = await loadModules();

    await bootstrapSession();
    expect(useSessionStore.getState()).toMatchObject({ status: 'user', token: 'tok', user, unreachable: true });
    expect(JSON.parse(store.get('filamu.session')!)).toMatchObject({ token: 'tok', profile: { id: 'u1' } });

    fetchMock.mockImplementation(async () => jsonResponse(200, { ...user, fullName: 'Nakato B.' }));
    win.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(useSessionStore.getState().user?.fullName).toBe('Nakato B.'));
    expect(useSessionStore.getState().unreachable).toBe(false);
  });

  it('keeps the session on a server error (5xx)', async () => {
    installBrowserStubs({ saved: { token: 'tok', kind: 'user', profile: user } });
    vi.stubGlobal('fetch', async () =>
      jsonResponse(503, { error: { code: 'unavailable', message: 'Down', requestId: 'r' } }),
    );
    const { useSessionStore, bootstrapSession } = await loadModules();
    await bootstrapSession();
    expect(useSessionStore.getState()).toMatchObject({ status: 'user', token: 'tok' });
  });

  it('keeps a session without a saved profile loading (not signed out) while offline', async () => {
    installBrowserStubs({ saved: { token: 'tok', kind: 'user' } });
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const { useSessionStore, bootstrapSession } = await loadModules();
    await bootstrapSession();
    expect(useSessionStore.getState()).toMatchObject({ status: 'loading', token: 'tok', unreachable: true });
  });

  it('signs out on a 401 and forgets the saved profile', async () => {
    const { store } = installBrowserStubs({ saved: { token: 'tok', kind: 'user', profile: user } });
    vi.stubGlobal('fetch', async () => unauthorized());
    const { useSessionStore, bootstrapSession } = await loadModules();
    await bootstrapSession();
    expect(useSessionStore.getState()).toMatchObject({ status: 'guest', token: null, user: null });
    expect(store.has('filamu.session')).toBe(false);
  });

  it('does not let a 401 for an earlier token sign out the session that replaced it', async () => {
    installBrowserStubs({ saved: { token: 'old', kind: 'user', profile: user } });
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (answer = resolve)));
    const { useSessionStore, bootstrapSession } = await loadModules();
    const refreshing = bootstrapSession();
    useSessionStore.getState().signInUser('new', user);
    answer(unauthorized());
    await refreshing;
    expect(useSessionStore.getState()).toMatchObject({ status: 'user', token: 'new' });
  });
});

describe('the person whose films a signed-out phone keeps showing (decision 0233)', () => {
  beforeEach(() => {
    vi.resetModules();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is the last person signed in, kept when the server ends the session', async () => {
    const { store } = installBrowserStubs({ saved: { token: 'tok', kind: 'user', profile: user } });
    vi.stubGlobal('fetch', async () => unauthorized());
    const { useSessionStore, bootstrapSession } = await loadModules();
    const { shownOwnerId, currentOwnerId } = await import('./owner.ts');
    expect(useSessionStore.getState().keptOwnerId).toBe('user:u1');
    await bootstrapSession();
    expect(useSessionStore.getState()).toMatchObject({ status: 'guest', keptOwnerId: 'user:u1' });
    expect(currentOwnerId()).toBeNull();
    expect(shownOwnerId()).toBe('user:u1');
    expect(store.get('filamu.keptOwner')).toBe('user:u1');

    // The next visit, signed out, still knows whose films these are.
    vi.resetModules();
    const again = await import('./session.ts');
    expect(again.useSessionStore.getState()).toMatchObject({ status: 'guest', keptOwnerId: 'user:u1' });
  });

  it('is replaced when someone else signs in, and forgotten when the person logs out', async () => {
    const { store } = installBrowserStubs({ saved: { token: 'tok', kind: 'user', profile: user } });
    const { useSessionStore } = await loadModules();
    const { shownOwnerId } = await import('./owner.ts');
    useSessionStore.getState().signInUser('other', { ...user, id: 'u2', fullName: 'Okello' });
    expect(shownOwnerId()).toBe('user:u2');
    useSessionStore.getState().clear();
    expect(shownOwnerId()).toBe('user:u2');
    useSessionStore.getState().forgetKeptOwner();
    expect(shownOwnerId()).toBeNull();
    expect(store.has('filamu.keptOwner')).toBe(false);
  });
});
