import { ParentalPinStatus, UserMovieList, UserProfile } from '@filamu/shared';
import { pbkdf2Sync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { addMovie, createPlan, subscribe } from '../../../test/library.ts';

const MINUTE = 60_000;

/** Parental PIN (decision 0170): set with the password, 5 wrong tries lock 15 minutes, hides ratings on the server. */
describe.each(testDatabases)('parental PIN on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let planId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
    planId = await createPlan(t, adminToken);
    for (const [title, rating] of [
      ['Family Safari', 'all'],
      ['Teen Troubles', '13'],
      ['Midnight Gunmen', '18'],
    ] as const) {
      ids[title] = (await addMovie(t, adminToken, { title, rating, planIds: [planId] })).movie.id;
      t.clock.advance(1000);
    }
  });
  afterAll(() => t.close());

  async function subscriber() {
    const { token, user, body } = await registerUser(t);
    await subscribe(t, adminToken, user.id, planId);
    return { token, password: body.password as string };
  }

  const setPin = (token: string, body: Record<string, unknown>) =>
    t.request('PUT', '/api/users/parental-pin', { token, body });
  const verify = (token: string, pin: string) =>
    t.request('POST', '/api/users/parental-pin/verify', { token, body: { pin } });
  const titles = async (token: string, query = '') => {
    const res = await t.request('GET', `/api/users/movies?${query}`, { token });
    expect(res.status, res.text).toBe(200);
    const list = UserMovieList.parse(res.json);
    return { titles: list.movies.map((m) => m.title).sort(), hidden: list.hiddenByParentalPin };
  };

  it('sets a 4-digit PIN with the password only, and gives the device a verifier, never the PIN', async () => {
    const { token, password } = await subscriber();
    expectErrorEnvelope(
      await setPin(token, { pin: '1234', hides: '18', currentPassword: 'not-it' }),
      400,
      'bad_request',
      'Current password is incorrect.',
    );
    for (const pin of ['123', '12345', '12a4', ' 1234']) {
      expectErrorEnvelope(
        await setPin(token, { pin, hides: '18', currentPassword: password }),
        400,
        'validation_error',
      );
    }
    expectErrorEnvelope(
      await setPin(token, { pin: '1234', hides: '21', currentPassword: password }),
      400,
      'validation_error',
    );
    const unset = UserProfile.parse((await t.request('GET', '/api/auth/profile', { token })).json).parentalPin;
    expect(unset).toMatchObject({ pinSet: false, hides: null, offlineVerifier: null });

    const res = await setPin(token, { pin: '1234', hides: '18', currentPassword: password });
    expect(res.status, res.text).toBe(200);
    const status = ParentalPinStatus.parse(res.json);
    expect(status).toMatchObject({ pinSet: true, hides: '18', unlockedUntil: null, lockedUntil: null });
    expect(res.text).not.toContain('1234');
    // What the device checks offline: PBKDF2-SHA256 of the PIN with the salt given (WebCrypto can redo it).
    const v = status.offlineVerifier!;
    const derived = pbkdf2Sync('1234', Buffer.from(v.salt, 'base64url'), v.iterations, 32, 'sha256');
    expect(derived.toString('base64url')).toBe(v.hash);
    expect(v.iterations).toBeGreaterThanOrEqual(100_000);
    // The profile (kept with the session for offline use) carries the same status.
    const profile = UserProfile.parse((await t.request('GET', '/api/auth/profile', { token })).json);
    expect(profile.parentalPin?.offlineVerifier).toEqual(v);
    // Two PINs alike still get different salts.
    const other = await subscriber();
    const second = ParentalPinStatus.parse(
      (await setPin(other.token, { pin: '1234', hides: '18', currentPassword: other.password })).json,
    );
    expect(second.offlineVerifier!.hash).not.toBe(v.hash);
    expect(second.offlineVerifier!.salt).not.toBe(v.salt);
  });

  it('tells the English rule how many still-needed Kinayuganda films the PIN hides, and none once it is entered', async () => {
    const { token, password } = await subscriber();
    const status = async () => {
      const res = await t.request('GET', '/api/users/me/kinayuganda-download-status', { token });
      expect(res.status, res.text).toBe(200);
      return res.json as { required: number; completed: number; hiddenByParentalPin: number };
    };
    expect(await status()).toMatchObject({ required: 3, completed: 0, hiddenByParentalPin: 0 });
    await setPin(token, { pin: '2468', hides: '13', currentPassword: password });
    // They still count for the rule; the notice says two of them are hidden rather than showing "0 of 3" alone.
    expect(await status()).toMatchObject({ required: 3, completed: 0, hiddenByParentalPin: 2 });
    expect((await verify(token, '2468')).status).toBe(200);
    expect(await status()).toMatchObject({ required: 3, hiddenByParentalPin: 0 });
  });

  it('hides 18+ from the library, search and detail, and shows them again when the PIN is entered or removed', async () => {
    const { token, password } = await subscriber();
    expect(await titles(token)).toEqual({
      titles: ['Family Safari', 'Midnight Gunmen', 'Teen Troubles'],
      hidden: null,
    });
    await setPin(token, { pin: '4321', hides: '18', currentPassword: password });
    expect(await titles(token)).toEqual({ titles: ['Family Safari', 'Teen Troubles'], hidden: '18' });
    expect((await titles(token, 'search=midnight')).titles).toEqual([]);
    expect((await titles(token, 'rating=18')).titles).toEqual([]);
    expectErrorEnvelope(
      await t.request('GET', `/api/users/movies/${ids['Midnight Gunmen']}`, { token }),
      403,
      'pin_required',
    );
    expectErrorEnvelope(
      await t.request('POST', '/api/users/movies/generate-download-url', {
        token,
        body: { movieId: ids['Midnight Gunmen'] },
      }),
      403,
      'pin_required',
    );
    // Only this user is affected.
    const other = await subscriber();
    expect((await titles(other.token, 'search=midnight')).titles).toEqual(['Midnight Gunmen']);

    // A right PIN shows them on this session for 30 minutes.
    const unlocked = ParentalPinStatus.parse((await verify(token, '4321')).json);
    expect(unlocked.unlockedUntil).toBe(new Date(t.clock.now().getTime() + 30 * MINUTE).toISOString());
    expect(await titles(token, 'search=midnight')).toEqual({ titles: ['Midnight Gunmen'], hidden: null });
    const grant = await t.request('POST', '/api/users/movies/generate-download-url', {
      token,
      body: { movieId: ids['Midnight Gunmen'] },
    });
    expect(grant.status, grant.text).toBe(200);
    t.clock.advance(30 * MINUTE + 1000);
    expect((await titles(token, 'search=midnight')).titles).toEqual([]);

    // "Hide again" before the 30 minutes are up.
    await verify(token, '4321');
    expect((await titles(token)).hidden).toBeNull();
    const relocked = await t.request('POST', '/api/users/parental-pin/lock', { token });
    expect(ParentalPinStatus.parse(relocked.json).unlockedUntil).toBeNull();
    expect((await titles(token)).hidden).toBe('18');

    // Hide 13+ as well.
    await setPin(token, { pin: '4321', hides: '13', currentPassword: password });
    expect(await titles(token)).toEqual({ titles: ['Family Safari'], hidden: '13' });

    // Turning it off needs the password, and shows everything.
    expectErrorEnvelope(
      await t.request('POST', '/api/users/parental-pin/remove', { token, body: { currentPassword: 'wrong' } }),
      400,
      'bad_request',
    );
    expect((await titles(token)).hidden).toBe('13');
    const removed = await t.request('POST', '/api/users/parental-pin/remove', {
      token,
      body: { currentPassword: password },
    });
    expect(ParentalPinStatus.parse(removed.json)).toMatchObject({ pinSet: false, offlineVerifier: null });
    expect(await titles(token)).toEqual({
      titles: ['Family Safari', 'Midnight Gunmen', 'Teen Troubles'],
      hidden: null,
    });
  });

  it('locks for 15 minutes after 5 wrong tries, on the server, even for the right PIN', async () => {
    const { token, password } = await subscriber();
    expectErrorEnvelope(await verify(token, '1111'), 409, 'conflict');
    await setPin(token, { pin: '2468', hides: '18', currentPassword: password });
    for (const left of [4, 3, 2, 1]) {
      expectErrorEnvelope(
        await verify(token, '0000'),
        403,
        'pin_wrong',
        `Wrong PIN. ${left} ${left === 1 ? 'try' : 'tries'} left.`,
      );
    }
    const fifth = await verify(token, '0000');
    expectErrorEnvelope(fifth, 429, 'pin_locked', /locked.*15 minutes/);
    expect(fifth.headers.get('retry-after')).toBe('900');
    const right = await verify(token, '2468');
    expectErrorEnvelope(right, 429, 'pin_locked', /Try again in 15 minutes/);
    expect((await titles(token)).hidden).toBe('18');
    const status = ParentalPinStatus.parse((await t.request('GET', '/api/users/parental-pin', { token })).json);
    expect(status.lockedUntil).toBe(new Date(t.clock.now().getTime() + 15 * MINUTE).toISOString());

    t.clock.advance(10 * MINUTE);
    expectErrorEnvelope(await verify(token, '2468'), 429, 'pin_locked', /Try again in 5 minutes/);
    t.clock.advance(5 * MINUTE);
    // The lock is over: the count starts again.
    expectErrorEnvelope(await verify(token, '0000'), 403, 'pin_wrong', 'Wrong PIN. 4 tries left.');
    expect((await verify(token, '2468')).status).toBe(200);
    // A right PIN clears the count.
    expectErrorEnvelope(await verify(token, '0000'), 403, 'pin_wrong', 'Wrong PIN. 4 tries left.');
  });

  it('counts concurrent wrong tries exactly: no more than 5 are compared', async () => {
    const { token, password } = await subscriber();
    await setPin(token, { pin: '1357', hides: '18', currentPassword: password });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => verify(token, String(1000 + i))));
    const codes = answers.map((res) => (res.json.error as { code: string }).code);
    expect(codes.filter((code) => code === 'pin_wrong')).toHaveLength(4);
    expect(codes.filter((code) => code === 'pin_locked')).toHaveLength(8);
    for (const res of answers) expectErrorEnvelope(res, res.status, res.status === 429 ? 'pin_locked' : 'pin_wrong');
    expectErrorEnvelope(await verify(token, '1357'), 429, 'pin_locked');
  });

  it('a forgotten PIN is reset with the password: the lock is lifted and the old PIN stops working', async () => {
    const { token, password } = await subscriber();
    await setPin(token, { pin: '1111', hides: '18', currentPassword: password });
    for (let i = 0; i < 5; i++) await verify(token, '9999');
    expectErrorEnvelope(await verify(token, '1111'), 429, 'pin_locked');
    expectErrorEnvelope(
      await setPin(token, { pin: '2222', hides: '18', currentPassword: 'guess' }),
      400,
      'bad_request',
      'Current password is incorrect.',
    );
    const reset = await setPin(token, { pin: '2222', hides: '18', currentPassword: password });
    expect(ParentalPinStatus.parse(reset.json)).toMatchObject({ pinSet: true, lockedUntil: null });
    expectErrorEnvelope(await verify(token, '1111'), 403, 'pin_wrong', 'Wrong PIN. 4 tries left.');
    expect((await verify(token, '2222')).status).toBe(200);
    // A new PIN hides again on this session too.
    await setPin(token, { pin: '3333', hides: '18', currentPassword: password });
    expect((await titles(token)).hidden).toBe('18');
  });

  it('is for users only', async () => {
    const res = await t.request('GET', '/api/users/parental-pin');
    expectErrorEnvelope(res, 401, 'unauthenticated');
  });
});
