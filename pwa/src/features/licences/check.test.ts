import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { randomUUID } from 'node:crypto';
import type { Licence, LicenceCheckResponse } from '@filamu/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installBrowserStubs, jsonResponse } from '../../lib/test-support.ts';

/**
 * The online check on fake-indexeddb (decision 0233), against a fetch that answers like the server: which of the
 * asked ids no longer hold. What is asserted is what the licence store holds afterwards.
 */
type Store = typeof import('./store.ts');
type Check = typeof import('./check.ts');

function licence(movieId = randomUUID()): Licence {
  return {
    id: randomUUID(),
    movieId,
    deviceId: 'd1',
    deviceKeyId: 'k1',
    wrappedKey: 'wrapped',
    way: 'download',
    issuedAt: '2026-11-01T10:00:00.000Z',
    token: 'signed',
  };
}

/** The server: revoked ids with their reason; every other id still holds. Records each request's ids. */
function fakeServer(revoked: Map<string, LicenceCheckResponse['revoked'][number]['reason']>) {
  const requests: string[][] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    expect(url).toBe('/api/licences/check');
    expect(init.method).toBe('POST');
    const { ids } = JSON.parse(String(init.body)) as { ids: string[] };
    requests.push(ids);
    if (ids.length > 500) return jsonResponse(400, { error: { code: 'validation_error', message: 'Too many.' } });
    return jsonResponse(200, {
      revoked: ids.filter((id) => revoked.has(id)).map((id) => ({ id, reason: revoked.get(id)! })),
    });
  });
  vi.stubGlobal('fetch', fetch);
  return { fetch, requests };
}

let store: Store;
let check: Check;

beforeEach(async () => {
  vi.resetModules();
  vi.stubGlobal('indexedDB', new IDBFactory());
  installBrowserStubs({ pathname: '/downloads' });
  vi.stubGlobal('navigator', { onLine: true });
  store = await import('./store.ts');
  check = await import('./check.ts');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the online licence check', () => {
  it('marks revoked the licences the server no longer holds, for every person on the phone, with no session', async () => {
    const nakato = `user:${randomUUID()}`;
    const okello = `agent:${randomUUID()}`;
    const [kept, moved, takenDown, deleted] = [licence(), licence(), licence(), licence()];
    await store.keepLicence(nakato, kept);
    await store.keepLicence(nakato, moved);
    await store.keepLicence(okello, takenDown);
    await store.keepLicence(okello, deleted);
    const { requests } = fakeServer(
      new Map([
        [moved.id, 'moved'],
        [takenDown.id, 'taken_down'],
        [deleted.id, 'deleted'],
      ] as const),
    );

    await check.checkHeldLicences();

    expect(requests).toHaveLength(1);
    expect(new Set(requests[0])).toEqual(new Set([kept.id, moved.id, takenDown.id, deleted.id]));
    expect((await store.licenceOf(nakato, kept.movieId))?.revoked).toBeUndefined();
    expect((await store.licenceOf(nakato, moved.movieId))?.revoked).toBe('moved');
    expect((await store.licenceOf(okello, takenDown.movieId))?.revoked).toBe('taken_down');
    expect((await store.licenceOf(okello, deleted.movieId))?.revoked).toBe('deleted');
    // No session on this phone: the request carried no token.
    const headers = (vi.mocked(globalThis.fetch).mock.calls[0]![1] as RequestInit).headers as Record<string, string>;
    expect(headers.Authorization).toBeUndefined();
  });

  it('asks in batches of at most 500 and does not ask again about a licence already revoked', async () => {
    const owner = `user:${randomUUID()}`;
    const held = Array.from({ length: 1201 }, () => licence());
    for (const one of held) await store.keepLicence(owner, one);
    const last = held[1200]!;
    const { requests } = fakeServer(new Map([[last.id, 'taken_down']] as const));

    await check.checkHeldLicences();
    expect(requests.map((ids) => ids.length)).toEqual([500, 500, 201]);
    expect((await store.licenceOf(owner, last.movieId))?.revoked).toBe('taken_down');
    expect((await store.licencesOf(owner)).filter((l) => l.revoked)).toHaveLength(1);

    await check.checkHeldLicences();
    expect(requests.slice(3).flat()).toHaveLength(1200);
    expect(requests.slice(3).flat()).not.toContain(last.id);
  });

  it('sends nothing when the phone holds no licence', async () => {
    const { fetch } = fakeServer(new Map());
    await check.checkHeldLicences();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('keeps what an earlier batch heard when a later one fails, and the next check asks again', async () => {
    const owner = `user:${randomUUID()}`;
    const held = Array.from({ length: 501 }, () => licence());
    for (const one of held) await store.keepLicence(owner, one);
    let calls = 0;
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      calls += 1;
      if (calls === 2) throw new TypeError('Failed to fetch');
      const { ids } = JSON.parse(String(init.body)) as { ids: string[] };
      return jsonResponse(200, { revoked: ids.map((id) => ({ id, reason: 'moved' })) });
    });

    await expect(check.checkHeldLicences()).rejects.toMatchObject({ code: 'network' });
    expect((await store.licencesOf(owner)).filter((l) => l.revoked)).toHaveLength(500);

    await check.checkHeldLicences();
    expect((await store.licencesOf(owner)).every((l) => l.revoked === 'moved')).toBe(true);
  });

  it('runs at start when online, is silent when it fails, and runs again when the phone comes back online', async () => {
    const owner = `user:${randomUUID()}`;
    const one = licence();
    await store.keepLicence(owner, one);
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });

    await expect(check.startLicenceCheck()).resolves.toBeUndefined();
    expect((await store.licenceOf(owner, one.movieId))?.revoked).toBeUndefined();

    const { requests } = fakeServer(new Map([[one.id, 'moved']] as const));
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(async () => expect((await store.licenceOf(owner, one.movieId))?.revoked).toBe('moved'));
    expect(requests).toHaveLength(1);
  });

  it('does not ask while the phone is offline', async () => {
    await store.keepLicence(`user:${randomUUID()}`, licence());
    vi.stubGlobal('navigator', { onLine: false });
    const { fetch } = fakeServer(new Map());
    await check.startLicenceCheck();
    expect(fetch).not.toHaveBeenCalled();
  });
});
