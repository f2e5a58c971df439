import { randomUUID } from 'node:crypto';
import { NightBundle, NightBundleAdminView, TonightQueue } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  TestClock,
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { addMovie, createPlan } from '../../../test/library.ts';
import { movies } from '../../db/schema.ts';

/** An instant given as Kampala wall time (UTC+3), as an ISO string in UTC. */
const kampala = (local: string) => new Date(`${local}:00+03:00`).toISOString();
const HOUR = 3_600_000;

describe.each(testDatabases)('night bundle hours on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    // 20:00 in Kampala.
    t = await createTestApp(kind, { clock: new TestClock(kampala('2026-11-29T20:00')) });
    adminToken = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const put = (token: string | undefined, body: unknown) =>
    t.request('PUT', '/api/admin/settings/night-bundle', { token, body });
  const read = async () => {
    const res = await t.request('GET', '/api/settings/night-bundle');
    expect(res.status, res.text).toBe(200);
    return NightBundle.parse(res.json);
  };

  it('answers the defaults to anyone: UGX 2,000 a GB from midnight to six, by the server’s clock', async () => {
    expect(await read()).toEqual({
      dayPricePerGbUgx: 6000,
      nightPricePerGbUgx: 2000,
      windows: [{ start: '00:00', end: '06:00' }],
      openNow: null,
      next: { opensAt: kampala('2026-11-30T00:00'), closesAt: kampala('2026-11-30T06:00') },
    });
    t.clock.advance(5 * HOUR);
    expect((await read()).openNow).toEqual({
      opensAt: kampala('2026-11-30T00:00'),
      closesAt: kampala('2026-11-30T06:00'),
    });
  });

  it('refuses bad prices and windows in words, and leaves the setting as it was', async () => {
    for (const [body, message] of [
      [{ nightPricePerGbUgx: 99, windows: [{ start: '00:00', end: '06:00' }] }, /at least UGX 100/],
      [{ nightPricePerGbUgx: 100_001, windows: [{ start: '00:00', end: '06:00' }] }, /at most UGX 100,000/],
      [{ nightPricePerGbUgx: 1999.5, windows: [{ start: '00:00', end: '06:00' }] }, /whole number/],
      [{ nightPricePerGbUgx: 2000, windows: [] }, /at least one night window/],
      [{ nightPricePerGbUgx: 2000, windows: [{ start: '24:00', end: '06:00' }] }, /HH:MM, from 00:00 to 23:59/],
      [{ nightPricePerGbUgx: 2000, windows: [{ start: '7pm', end: '06:00' }] }, /HH:MM/],
      [{ nightPricePerGbUgx: 2000, windows: [{ start: '02:00', end: '02:00' }] }, /end at another time/],
      [
        {
          nightPricePerGbUgx: 2000,
          windows: [
            { start: '22:00', end: '02:00' },
            { start: '01:00', end: '05:00' },
          ],
        },
        /must not overlap/,
      ],
      [
        {
          nightPricePerGbUgx: 2000,
          windows: ['00', '03', '06', '09', '12'].map((h) => ({ start: `${h}:00`, end: `${h}:30` })),
        },
        /At most 4 night windows/,
      ],
    ] as const) {
      expectErrorEnvelope(await put(adminToken, body), 400, 'validation_error', message);
    }
    const { token } = await registerUser(t);
    const good = { nightPricePerGbUgx: 1000, windows: [{ start: '23:00', end: '05:00' }] };
    expectErrorEnvelope(await put(undefined, good), 401, 'unauthenticated');
    expectErrorEnvelope(await put(token, good), 403, 'forbidden');
    expect((await read()).nightPricePerGbUgx).toBe(2000);
  });

  it('keeps the window under way when the operator changes the hours, and applies them from the next one', async () => {
    // 01:00 in Kampala: tonight's 00:00–06:00 window is open.
    const change = {
      nightPricePerGbUgx: 1500,
      windows: [
        { start: '22:00', end: '02:00' },
        { start: '13:00', end: '14:00' },
      ],
    };
    const saved = await put(adminToken, change);
    expect(saved.status, saved.text).toBe(200);
    expect(NightBundleAdminView.parse(saved.json)).toEqual({ ...change, takesEffectAt: kampala('2026-11-30T06:00') });
    expect((await t.request('GET', '/api/admin/settings/night-bundle', { token: adminToken })).json).toEqual(
      saved.json,
    );
    // The phone still reads tonight’s window whole, at tonight’s price.
    expect(await read()).toMatchObject({
      nightPricePerGbUgx: 2000,
      windows: [{ start: '00:00', end: '06:00' }],
      openNow: { opensAt: kampala('2026-11-30T00:00'), closesAt: kampala('2026-11-30T06:00') },
    });
    // After 06:00 the new hours are in force: the next window is 13:00–14:00 at the new price.
    t.clock.advance(6 * HOUR);
    expect(await read()).toMatchObject({
      nightPricePerGbUgx: 1500,
      windows: change.windows,
      openNow: null,
      next: { opensAt: kampala('2026-11-30T13:00'), closesAt: kampala('2026-11-30T14:00') },
    });
    expect((await t.request('GET', '/api/admin/settings/night-bundle', { token: adminToken })).json).toEqual({
      ...change,
      takesEffectAt: null,
    });
    // By day a change is in force at once.
    const back = { nightPricePerGbUgx: 2000, windows: [{ start: '00:00', end: '06:00' }] };
    expect((await put(adminToken, back)).json).toEqual({ ...back, takesEffectAt: null });
    expect((await read()).next.opensAt).toBe(kampala('2026-12-01T00:00'));
  });
});

describe.each(testDatabases)('tonight’s list on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let movieIds: string[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
    const planId = await createPlan(t, adminToken);
    movieIds = [];
    for (let i = 0; i < 3; i++) movieIds.push((await addMovie(t, adminToken, { planIds: [planId] })).movie.id);
  });
  afterAll(() => t.close());

  const get = (token?: string) => t.request('GET', '/api/users/me/tonight', { token });
  const put = (token: string | undefined, body: unknown) => t.request('PUT', '/api/users/me/tonight', { token, body });

  it('keeps the list a person saves, replacing it whole each time, in their order', async () => {
    const { token } = await registerUser(t);
    expect((await get(token)).json).toEqual({ items: [] });
    const first = {
      items: [
        { movieId: movieIds[1]!, size: 'original' },
        { movieId: movieIds[0]!, size: 'original' },
      ],
    };
    const saved = await put(token, first);
    expect(saved.status, saved.text).toBe(200);
    expect(TonightQueue.parse(saved.json)).toEqual(first);
    expect((await get(token)).json).toEqual(first);
    const second = { items: [{ movieId: movieIds[2]!, size: 'original' }] };
    expect((await put(token, second)).json).toEqual(second);
    expect((await get(token)).json).toEqual(second);
    // Another person's list is their own.
    const other = await registerUser(t);
    expect((await get(other.token)).json).toEqual({ items: [] });
    expect((await put(token, { items: [] })).json).toEqual({ items: [] });
    expect((await get(token)).json).toEqual({ items: [] });
  });

  it('refuses an unknown film, a film twice, a size not ready and more than 20 films, keeping the list', async () => {
    const { token } = await registerUser(t);
    const kept = { items: [{ movieId: movieIds[0]!, size: 'original' }] };
    await put(token, kept);
    expectErrorEnvelope(
      await put(token, { items: [{ movieId: randomUUID(), size: 'original' }] }),
      400,
      'validation_error',
      /not on Filamu now/,
    );
    expectErrorEnvelope(
      await put(token, { items: [kept.items[0], kept.items[0]] }),
      400,
      'validation_error',
      /already in tonight’s list/,
    );
    expectErrorEnvelope(
      await put(token, { items: [{ movieId: movieIds[1]!, size: 'small' }] }),
      409,
      'conflict',
      /: Small is not ready for this movie yet/,
    );
    expectErrorEnvelope(
      await put(token, { items: Array.from({ length: 21 }, () => ({ movieId: randomUUID(), size: 'original' })) }),
      400,
      'validation_error',
      /At most 20 films/,
    );
    expectErrorEnvelope(await put(token, { items: [{ movieId: 'x', size: 'huge' }] }), 400, 'validation_error');
    expect((await get(token)).json).toEqual(kept);
    // A film taken off Filamu can no longer be queued.
    await t.deps.database.db.update(movies).set({ isActive: false }).where(eq(movies.id, movieIds[2]!));
    expectErrorEnvelope(
      await put(token, { items: [{ movieId: movieIds[2]!, size: 'original' }] }),
      400,
      'validation_error',
      /not on Filamu now/,
    );
    await t.deps.database.db.update(movies).set({ isActive: true }).where(eq(movies.id, movieIds[2]!));
  });

  it('is for signed-in people only', async () => {
    expectErrorEnvelope(await get(), 401, 'unauthenticated');
    expectErrorEnvelope(await put(undefined, { items: [] }), 401, 'unauthenticated');
  });
});
