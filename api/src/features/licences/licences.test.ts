import { randomUUID } from 'node:crypto';
import {
  decryptFilmRange,
  DownloadUrlResponse,
  kampalaMonth,
  LICENCE_ELSEWHERE,
  Licence,
  LicenceCheckResponse,
  PlatformAnalytics,
  RedownloadAllowance,
} from '@filamu/shared';
import { and, eq, isNull } from 'drizzle-orm';
import { compactVerify, importJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloads, licences, redownloads, users } from '../../db/schema.ts';
import {
  type TestApp,
  capturingLogger,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { type AddedMovie, addMovie, createPlan, fetchLink, subscribe } from '../../../test/library.ts';
import { filmEncryptor, newFilmNonce } from '../content-keys/film-encryption.ts';
import { phoneKeys, unwrap } from './phone-keys.testing.ts';

/**
 * Licences (decision 0230), as a phone sees them: asked for with the download link, wrapped for the asking phone's
 * key only, one live licence per film and person, moved to a new phone only by a re-download, and checked online.
 */

describe.each(testDatabases)('licences on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  const log = capturingLogger();

  beforeAll(async () => {
    t = await createTestApp(kind, { logger: log.logger });
    adminToken = await loginAdmin(t);
  });
  afterAll(() => t.close());

  async function subscriber() {
    const planId = await createPlan(t, adminToken);
    const kina = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId] });
    const english = await addMovie(t, adminToken, { category: 'English', planIds: [planId] });
    const registered = await registerUser(t);
    await subscribe(t, adminToken, registered.user.id as string, planId);
    return { ...registered, token: registered.token, kina, english };
  }

  const grant = (token: string, movie: AddedMovie, body: Record<string, unknown> = {}) =>
    t.request('POST', '/api/users/movies/generate-download-url', {
      token,
      body: { movieId: movie.movie.id, ...body },
    });
  async function licensedLink(token: string, movie: AddedMovie, spki: string, body: Record<string, unknown> = {}) {
    const res = await grant(token, movie, { devicePublicKey: spki, ...body });
    expect(res.status, res.text).toBe(200);
    const link = DownloadUrlResponse.parse(res.json);
    expect(link.licence).not.toBeNull();
    return { link, licence: link.licence! };
  }
  const check = async (ids: string[]) => {
    const res = await t.request('POST', '/api/licences/check', { body: { ids } });
    expect(res.status, res.text).toBe(200);
    return LicenceCheckResponse.parse(res.json).revoked;
  };
  const signIn = async (body: { email: string; password: string }, deviceId: string) => {
    const res = await t.request('POST', '/api/auth/login', {
      body: { identifier: body.email, password: body.password, currentDeviceId: deviceId },
      ip: freshIp(),
    });
    expect(res.status, res.text).toBe(200);
    return res.json.token as string;
  };

  it('comes with the link, opens on the asking phone only, and decrypts what the server encrypted with the title key', async () => {
    const { token, user, kina } = await subscriber();
    const phone = await phoneKeys();
    const { licence } = await licensedLink(token, kina, phone.spki);
    expect(licence).toMatchObject({ movieId: kina.movie.id, way: 'download' });
    expect(licence.token.length).toBeLessThan(1_200);

    // The server encrypts the film with the title's key; the phone reads it back with the key from its licence.
    const film = Buffer.from('A Kinayuganda film, narrated by VJ Junior, bytes and all.');
    const nonce = newFilmNonce();
    const titleKey = await t.deps.contentKeys.keyOf(kina.movie.id);
    const encryptor = filmEncryptor(titleKey, nonce);
    const encrypted = Buffer.concat([encryptor.update(film), encryptor.final()]);
    const key = await unwrap(phone.pair.privateKey, licence);
    expect(Buffer.from(await decryptFilmRange(key, nonce, 0, encrypted)).equals(film)).toBe(true);

    // Another phone's key cannot open it.
    const other = await phoneKeys();
    await expect(unwrap(other.pair.privateKey, licence)).rejects.toThrow();

    // Signed by the server: who, which phone, which title.
    const verified = await compactVerify(licence.token, await importJWK(t.deps.licenceSigner.publicJwk, 'ES256'));
    const claims = JSON.parse(new TextDecoder().decode(verified.payload)) as Record<string, unknown>;
    expect(claims).toMatchObject({
      lid: licence.id,
      mid: kina.movie.id,
      sub: `user:${user.id as string}`,
      dev: licence.deviceId,
      kid: licence.deviceKeyId,
      key: licence.wrappedKey,
    });
    expect(await check([licence.id])).toEqual([]);
  });

  it('is refused with the grant: English before the Kinayuganda rule is met gets neither link nor licence', async () => {
    const { token, english } = await subscriber();
    const phone = await phoneKeys();
    expectErrorEnvelope(await grant(token, english, { devicePublicKey: phone.spki }), 403, 'download_locked');
    const rows = await t.deps.database.db.select().from(licences).where(eq(licences.movieId, english.movie.id));
    expect(rows).toHaveLength(0);
    // Nor can it be asked for on its own: there is no download to license.
    const res = await t.request('POST', '/api/users/licences', {
      token,
      body: { movieId: english.movie.id, devicePublicKey: phone.spki },
    });
    expectErrorEnvelope(res, 404, 'not_found', /Download this film first/);
  });

  it('is one licence for one phone: asked again, or twenty times at once, it is the same one', async () => {
    const { token, kina } = await subscriber();
    const phone = await phoneKeys();
    const { licence } = await licensedLink(token, kina, phone.spki);
    const again = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.request('POST', '/api/users/licences', {
          token,
          body: { movieId: kina.movie.id, devicePublicKey: phone.spki },
        }),
      ),
    );
    for (const res of again) {
      expect(res.status, res.text).toBe(200);
      expect(Licence.parse(res.json).id).toBe(licence.id);
    }
    const rows = await t.deps.database.db.select().from(licences).where(eq(licences.movieId, kina.movie.id));
    expect(rows).toHaveLength(1);
  });

  it('moves to a new phone only by a re-download, and the old phone hears it at its next check', async () => {
    const { token, body, kina } = await subscriber();
    const first = await phoneKeys();
    const { link, licence } = await licensedLink(token, kina, first.spki);
    expect((await fetchLink(t, link.downloadUrl)).bytes).toEqual(kina.bytes);
    await t.deps.deliveries.settled(link.downloadId);
    await t.request('PUT', `/api/users/downloads/${link.downloadId}/complete`, { token, body: {} });

    // Signed in on a second phone (the first is signed out by the single-device rule).
    const second = await phoneKeys();
    const secondToken = await signIn(body as { email: string; password: string }, `second-phone-${randomUUID()}`);
    const elsewhere = await t.request('POST', '/api/users/licences', {
      token: secondToken,
      body: { movieId: kina.movie.id, devicePublicKey: second.spki },
    });
    expectErrorEnvelope(elsewhere, 409, 'licence_elsewhere', 'This film was saved on another phone.');
    expectErrorEnvelope(await grant(secondToken, kina, { devicePublicKey: second.spki }), 409, 'already_downloaded');
    const moved = await licensedLink(secondToken, kina, second.spki, { redownload: true });
    expect(moved.licence.id).not.toBe(licence.id);
    expect(moved.licence.way).toBe('redownload');
    expect(moved.link.redownloads?.usedThisMonth).toBe(1);
    await expect(unwrap(second.pair.privateKey, moved.licence)).resolves.toBeDefined();

    // The first phone's check — it needs no session — says its licence moved; the second's holds.
    expect(await check([licence.id, moved.licence.id])).toEqual([{ id: licence.id, reason: 'moved' }]);
    // The first phone signs in again: its film is on the second phone now.
    const backToken = await signIn(body as { email: string; password: string }, `first-again-${randomUUID()}`);
    expectErrorEnvelope(
      await t.request('POST', '/api/users/licences', {
        token: backToken,
        body: { movieId: kina.movie.id, devicePublicKey: first.spki },
      }),
      409,
      'licence_elsewhere',
    );
  });

  const allowance = async (token: string) => {
    const res = await t.request('GET', '/api/users/me/redownloads', { token });
    expect(res.status, res.text).toBe(200);
    return RedownloadAllowance.parse(res.json);
  };
  const askLicence = (token: string, movie: AddedMovie, spki: string, body: Record<string, unknown> = {}) =>
    t.request('POST', '/api/users/licences', {
      token,
      body: { movieId: movie.movie.id, devicePublicKey: spki, ...body },
    });
  const liveLicences = (downloadId: string) =>
    t.deps.database.db
      .select()
      .from(licences)
      .where(and(eq(licences.downloadId, downloadId), isNull(licences.revokedAt)));

  /** Phone A downloads the film; phone B re-downloads it, and its licence moves to B (A still holds the file). */
  async function movedToSecondPhone() {
    const { token, body, user, kina } = await subscriber();
    const credentials = body as { email: string; password: string };
    const first = await phoneKeys();
    const { link, licence } = await licensedLink(token, kina, first.spki);
    await fetchLink(t, link.downloadUrl);
    await t.deps.deliveries.settled(link.downloadId);
    await t.request('PUT', `/api/users/downloads/${link.downloadId}/complete`, { token, body: {} });
    const second = await phoneKeys();
    const secondToken = await signIn(credentials, `second-phone-${randomUUID()}`);
    const moved = await licensedLink(secondToken, kina, second.spki, { redownload: true });
    expect(moved.licence.way).toBe('redownload');
    return {
      credentials,
      userId: user.id as string,
      kina,
      first,
      downloadId: link.downloadId,
      firstLicence: licence,
      secondLicence: moved.licence,
    };
  }

  it('moves back with move: true to a phone that kept the file, for one re-download and no bytes', async () => {
    const { credentials, kina, first, downloadId, firstLicence, secondLicence } = await movedToSecondPhone();
    const aToken = await signIn(credentials, `first-again-${randomUUID()}`);
    // Without `move`, as before: the film is on another phone.
    expectErrorEnvelope(await askLicence(aToken, kina, first.spki), 409, 'licence_elsewhere', LICENCE_ELSEWHERE);
    const before = await allowance(aToken);
    expect(before.usedThisMonth).toBe(1);

    const res = await askLicence(aToken, kina, first.spki, { move: true });
    expect(res.status, res.text).toBe(200);
    const back = Licence.parse(res.json);
    expect(back.id).not.toBe(firstLicence.id);
    expect(back.id).not.toBe(secondLicence.id);
    expect(back.way).toBe('redownload');
    await expect(unwrap(first.pair.privateKey, back)).resolves.toBeDefined();
    expect(await allowance(aToken)).toMatchObject({ usedThisMonth: before.usedThisMonth + 1, extra: before.extra });
    // The re-download is counted against the download whose licence moved, and is done: no bytes to wait for.
    const spent = await t.deps.database.db.select().from(redownloads).where(eq(redownloads.downloadId, downloadId));
    expect(spent).toHaveLength(2);
    expect(spent.filter((r) => r.completedAt !== null)).toHaveLength(1);
    // B hears at its next check that its licence moved; A's holds.
    expect(await check([secondLicence.id, back.id])).toEqual([{ id: secondLicence.id, reason: 'moved' }]);

    // Asked again with `move` from the phone that holds it: the same licence, nothing more spent.
    const again = await askLicence(aToken, kina, first.spki, { move: true });
    expect(again.status, again.text).toBe(200);
    expect(Licence.parse(again.json).id).toBe(back.id);
    expect((await allowance(aToken)).usedThisMonth).toBe(before.usedThisMonth + 1);
    expect(await liveLicences(downloadId)).toHaveLength(1);
  });

  it('moves once when twenty move requests come at once from a third phone', async () => {
    const { credentials, kina, downloadId, secondLicence } = await movedToSecondPhone();
    const third = await phoneKeys();
    const thirdToken = await signIn(credentials, `third-phone-${randomUUID()}`);
    const before = await allowance(thirdToken);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => askLicence(thirdToken, kina, third.spki, { move: true })),
    );
    const ids = new Set(
      answers.map((res) => {
        expect(res.status, res.text).toBe(200);
        return Licence.parse(res.json).id;
      }),
    );
    expect(ids.size).toBe(1);
    expect((await allowance(thirdToken)).usedThisMonth).toBe(before.usedThisMonth + 1);
    const live = await liveLicences(downloadId);
    expect(live.map((l) => l.id)).toEqual([...ids]);
    expect(live[0]!.way).toBe('redownload');
    expect(await check([secondLicence.id])).toEqual([{ id: secondLicence.id, reason: 'moved' }]);
  });

  it('refuses a move with redownload_limit when none is left, changing nothing, then takes an extra an admin granted', async () => {
    const { credentials, userId, kina, first, downloadId, secondLicence } = await movedToSecondPhone();
    const perMonth = t.deps.config.redownloadsPerMonth;
    const now = t.clock.now();
    // The rest of the month's allowance, used on earlier re-downloads.
    for (let i = 1; i < perMonth; i++) {
      await t.deps.database.db
        .insert(redownloads)
        .values({ userId, downloadId, month: kampalaMonth(now), source: 'monthly', createdAt: now, completedAt: now });
    }
    const aToken = await signIn(credentials, `first-again-${randomUUID()}`);
    const before = await allowance(aToken);
    expect(before).toMatchObject({ usedThisMonth: perMonth, extra: 0, remaining: 0 });
    const rowsBefore = await t.deps.database.db.select().from(licences).where(eq(licences.downloadId, downloadId));

    expectErrorEnvelope(
      await askLicence(aToken, kina, first.spki, { move: true }),
      409,
      'redownload_limit',
      new RegExp(`You have used all ${perMonth} re-downloads for this month\\. They renew on .+contact support`),
    );
    expect(await allowance(aToken)).toEqual(before);
    expect(await t.deps.database.db.select().from(licences).where(eq(licences.downloadId, downloadId))).toEqual(
      rowsBefore,
    );
    expect(await check([secondLicence.id])).toEqual([]);

    // An extra re-download from support: the move takes it, and the month's count stays.
    await t.deps.database.db.update(users).set({ extraRedownloads: 1 }).where(eq(users.id, userId));
    const res = await askLicence(aToken, kina, first.spki, { move: true });
    expect(res.status, res.text).toBe(200);
    expect(Licence.parse(res.json).way).toBe('redownload');
    expect(await allowance(aToken)).toMatchObject({ usedThisMonth: perMonth, extra: 0, remaining: 0 });
    expect(await check([secondLicence.id])).toEqual([{ id: secondLicence.id, reason: 'moved' }]);
  });

  it('is unknown to the check once its person is deleted, and a made-up id is too', async () => {
    const { token, user, kina } = await subscriber();
    const phone = await phoneKeys();
    const { licence } = await licensedLink(token, kina, phone.spki);
    const made = randomUUID();
    expect(await check([made])).toEqual([{ id: made, reason: 'deleted' }]);
    const deleted = await t.request('DELETE', `/api/admin/subscribers/${user.id as string}`, { token: adminToken });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await check([licence.id])).toEqual([{ id: licence.id, reason: 'deleted' }]);
  });

  it('refuses a key that is not a sound RSA key, with a clear error and nothing written', async () => {
    const { token, kina } = await subscriber();
    const ec = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
    const ecSpki = Buffer.from(await crypto.subtle.exportKey('spki', ec.publicKey)).toString('base64url');
    for (const devicePublicKey of ['A'.repeat(400), ecSpki.padEnd(320, 'A')]) {
      expectErrorEnvelope(await grant(token, kina, { devicePublicKey }), 400, 'bad_request', /phone’s key/);
    }
    expectErrorEnvelope(await grant(token, kina, { devicePublicKey: 'x'.repeat(2_000) }), 400, 'validation_error');
    // Refused before the grant: no download was started, so the film is not counted against the person.
    const started = await t.deps.database.db.select().from(downloads).where(eq(downloads.movieId, kina.movie.id));
    expect(started).toEqual([]);
  });

  it('is revoked for every phone when the film is taken down for rights, until the admin activates it again', async () => {
    const { token, kina } = await subscriber();
    const phone = await phoneKeys();
    const { licence } = await licensedLink(token, kina, phone.spki);
    const path = `/api/admin/movies/${kina.movie.id}/take-down`;
    expectErrorEnvelope(
      await t.request('POST', path, { token: adminToken, body: { reason: ' ' } }),
      400,
      'validation_error',
    );
    expectErrorEnvelope(await t.request('POST', path, { token, body: { reason: 'Rights ended' } }), 403, 'forbidden');

    const taken = await t.request('POST', path, { token: adminToken, body: { reason: 'Rights ended with the VJ' } });
    expect(taken.status, taken.text).toBe(200);
    expect(taken.json).toEqual({
      message: `"${kina.movie.title}" was taken down. 1 phone stops playing it at the next online check.`,
      revokedLicences: 1,
    });
    expect(await check([licence.id])).toEqual([{ id: licence.id, reason: 'taken_down' }]);
    // Hidden, never granted or licensed again; the admin sees when, and the log says who and why.
    expectErrorEnvelope(await grant(token, kina, { devicePublicKey: phone.spki }), 404, 'not_found');
    expectErrorEnvelope(
      await t.request('POST', '/api/users/licences', {
        token,
        body: { movieId: kina.movie.id, devicePublicKey: phone.spki },
      }),
      403,
      'forbidden',
      'This film was taken down by Filamu and can no longer be played.',
    );
    const listed = await t.request('GET', '/api/admin/movies', { token: adminToken });
    const row = (listed.json.movies as { id: string; is_active: boolean; taken_down_at: string | null }[]).find(
      (m) => m.id === kina.movie.id,
    );
    expect(row).toMatchObject({ is_active: false, taken_down_at: t.clock.now().toISOString() });
    expect(log.entries()).toContainEqual(
      expect.objectContaining({
        action: 'movie_taken_down',
        movieId: kina.movie.id,
        detail: 'Rights ended with the VJ',
      }),
    );

    // The rights came back: activated again, the film is licensed anew to the phone that holds it.
    const activated = await t.request('PUT', `/api/admin/movies/${kina.movie.id}/toggle-active`, {
      token: adminToken,
      body: { is_active: true },
    });
    expect(activated.json.movie).toMatchObject({ is_active: true, taken_down_at: null });
    const again = await t.request('POST', '/api/users/licences', {
      token,
      body: { movieId: kina.movie.id, devicePublicKey: phone.spki },
    });
    expect(again.status, again.text).toBe(200);
    expect(Licence.parse(again.json).id).not.toBe(licence.id);
  });

  it('counts for the operator: issued by way and by film, revoked by reason, in the admin analytics', async () => {
    const figures = async () => {
      const res = await t.request('GET', '/api/admin/analytics?days=7', { token: adminToken });
      expect(res.status, res.text).toBe(200);
      return PlatformAnalytics.parse(res.json).licences;
    };
    const issuedBy = (f: Awaited<ReturnType<typeof figures>>, way: string) =>
      f.byWay.find((w) => w.way === way)!.issued;
    const before = await figures();

    const { token, body, kina } = await subscriber();
    const first = await phoneKeys();
    const { link } = await licensedLink(token, kina, first.spki);
    await fetchLink(t, link.downloadUrl);
    await t.deps.deliveries.settled(link.downloadId);
    const secondToken = await signIn(body as { email: string; password: string }, `second-phone-${randomUUID()}`);
    await licensedLink(secondToken, kina, (await phoneKeys()).spki, { redownload: true });
    const taken = await t.request('POST', `/api/admin/movies/${kina.movie.id}/take-down`, {
      token: adminToken,
      body: { reason: 'Rights ended' },
    });
    expect(taken.status, taken.text).toBe(200);

    const after = await figures();
    expect(after.byWay.map((w) => w.way)).toEqual(['download', 'redownload', 'transfer']);
    expect(issuedBy(after, 'download') - issuedBy(before, 'download')).toBe(1);
    expect(issuedBy(after, 'redownload') - issuedBy(before, 'redownload')).toBe(1);
    expect(issuedBy(after, 'transfer') - issuedBy(before, 'transfer')).toBe(0);
    expect(after.revoked.moved - before.revoked.moved).toBe(1);
    expect(after.revoked.takenDown - before.revoked.takenDown).toBe(1);
    expect(after.byFilm).toContainEqual({ movieId: kina.movie.id, title: kina.movie.title, issued: 2 });
  });

  it('never writes a content key, plain or wrapped, to a log line', async () => {
    const { token, kina } = await subscriber();
    const phone = await phoneKeys();
    const { licence } = await licensedLink(token, kina, phone.spki);
    const titleKey = await t.deps.contentKeys.keyOf(kina.movie.id);
    const lines = JSON.stringify(log.entries());
    expect(lines.length).toBeGreaterThan(0);
    for (const secret of [
      titleKey.toString('hex'),
      titleKey.toString('base64'),
      titleKey.toString('base64url'),
      licence.wrappedKey.slice(0, 40),
    ]) {
      expect(lines).not.toContain(secret);
    }
  });
});
