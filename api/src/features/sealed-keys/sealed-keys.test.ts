import { createHash } from 'node:crypto';
import { contracts, FIRST_SHORT_NUMBER, keyDigitsOf, SEALED_KEYS_PAGE, SealedKeysResponse } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movies, sealedKeyPhones } from '../../db/schema.ts';
import {
  type TestApp,
  createAgentAs,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { type AddedMovie, addMovie, createPlan } from '../../../test/library.ts';
import { phoneKeys } from '../licences/phone-keys.testing.ts';

/**
 * The sealed keys a signed-in phone fetches in the background (decision 0249): its device secret wrapped for its key,
 * and a sealed key for every live film, a page at a time, with the phone key recorded for its account.
 */
describe.each(testDatabases)('sealed keys on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let live: AddedMovie;
  let hidden: AddedMovie;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
    const planId = await createPlan(t, adminToken);
    live = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId] });
    hidden = await addMovie(t, adminToken, { category: 'English', planIds: [planId] });
    await t.deps.database.db.update(movies).set({ isActive: false }).where(eq(movies.id, hidden.movie.id));
  });
  afterAll(() => t.close());

  const fetchSealed = (token: string | undefined, body: unknown) =>
    t.call(contracts.unlock.sealedKeys, { token, body });

  it('refuses a guest, a missing or unsound phone key, and bad paging, with the envelope', async () => {
    const phone = await phoneKeys();
    expectErrorEnvelope(await fetchSealed(undefined, { devicePublicKey: phone.spki }), 401, 'unauthenticated');
    const user = await registerUser(t);
    expectErrorEnvelope(await fetchSealed(user.token, {}), 400, 'validation_error');
    expectErrorEnvelope(await fetchSealed(user.token, { devicePublicKey: 'A'.repeat(400) }), 400, 'bad_request');
    expectErrorEnvelope(
      await fetchSealed(user.token, { devicePublicKey: phone.spki, after: -1 }),
      400,
      'validation_error',
    );
    expectErrorEnvelope(
      await fetchSealed(user.token, { devicePublicKey: phone.spki, after: 1.5 }),
      400,
      'validation_error',
    );
    const rows = await t.deps.database.db
      .select()
      .from(sealedKeyPhones)
      .where(eq(sealedKeyPhones.userId, user.user.id));
    expect(rows).toEqual([]);
  });

  it('gives the device secret wrapped for the phone and a 24-byte sealed key for each live film', async () => {
    const user = await registerUser(t);
    const phone = await phoneKeys();
    const res = await fetchSealed(user.token, { devicePublicKey: phone.spki });
    expect(res.status, res.text).toBe(200);
    const sealed = SealedKeysResponse.parse(res.json);
    const keyId = createHash('sha256').update(Buffer.from(phone.spki, 'base64url')).digest('base64url');
    expect(sealed.deviceKeyId).toBe(keyId);
    expect(sealed.keyDigits).toBe(keyDigitsOf(keyId));
    // RSA-OAEP with a 2048-bit key: 256 bytes, which the phone's private key opens into 32.
    expect(Buffer.from(sealed.wrappedDeviceSecret, 'base64url').length).toBe(256);
    const secret = await crypto.subtle
      .decrypt(
        { name: 'RSA-OAEP' },
        await crypto.subtle
          .generateKey(
            { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
            false,
            ['decrypt'],
          )
          .then((pair) => pair.privateKey),
        Buffer.from(sealed.wrappedDeviceSecret, 'base64url'),
      )
      .catch(() => null);
    // Another phone's key cannot open it.
    expect(secret).toBeNull();
    const ids = sealed.films.map((f) => f.movieId);
    expect(ids).toContain(live.movie.id);
    expect(ids).not.toContain(hidden.movie.id);
    for (const film of sealed.films) {
      expect(film.shortNumber).toBeGreaterThanOrEqual(FIRST_SHORT_NUMBER);
      expect(Buffer.from(film.sealedKey, 'base64url').length).toBe(24);
    }
    const numbers = sealed.films.map((f) => f.shortNumber);
    expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
    expect(sealed.next).toBeNull();
    // About 40 bytes a film (16 of id, 24 of sealed key); in JSON with base64url, under 120.
    expect(JSON.stringify(sealed.films).length / sealed.films.length).toBeLessThan(120);
  });

  it('gives only films numbered after `after`, and the same sealed keys again', async () => {
    const user = await registerUser(t);
    const phone = await phoneKeys();
    const all = SealedKeysResponse.parse((await fetchSealed(user.token, { devicePublicKey: phone.spki })).json);
    const first = all.films[0]!;
    const later = SealedKeysResponse.parse(
      (await fetchSealed(user.token, { devicePublicKey: phone.spki, after: first.shortNumber })).json,
    );
    expect(later.films.map((f) => f.movieId)).not.toContain(first.movieId);
    expect(later.films).toEqual(all.films.slice(1));
    expect(later.wrappedDeviceSecret).not.toBe(all.wrappedDeviceSecret); // OAEP is randomised
    expect(later.deviceKeyId).toBe(all.deviceKeyId);
    expect(SEALED_KEYS_PAGE).toBe(500);
  });

  it('records each phone key of an account once, for users and agents, whatever the requests at once', async () => {
    const user = await registerUser(t);
    const phone = await phoneKeys();
    const statuses = await Promise.all(
      Array.from({ length: 6 }, () => fetchSealed(user.token, { devicePublicKey: phone.spki }).then((r) => r.status)),
    );
    expect(statuses).toEqual(Array(6).fill(200));
    const rows = await t.deps.database.db
      .select()
      .from(sealedKeyPhones)
      .where(eq(sealedKeyPhones.userId, user.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ publicKey: phone.spki, agentId: null });
    expect(rows[0]!.keyDigits).toMatch(/^\d{3}$/);

    const created = await createAgentAs(t, adminToken);
    const login = await t.request('POST', '/api/auth/agent/login', {
      body: { email: created.body.email, password: created.password },
      ip: freshIp(),
    });
    const agentRes = await fetchSealed(login.json.token, { devicePublicKey: phone.spki });
    expect(agentRes.status, agentRes.text).toBe(200);
    const agentRows = await t.deps.database.db
      .select()
      .from(sealedKeyPhones)
      .where(eq(sealedKeyPhones.agentId, created.agent.id));
    expect(agentRows).toHaveLength(1);
    expect(agentRows[0]!.keyId).toBe(rows[0]!.keyId);
  });
});
