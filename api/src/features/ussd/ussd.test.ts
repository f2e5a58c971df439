import { createCipheriv, randomBytes } from 'node:crypto';
import {
  contracts,
  decryptFilmRange,
  FILM_NONCE_BYTES,
  filmCounterBlock,
  Licence,
  requestCodeOf,
  SealedKeysResponse,
  UssdDialResponse,
} from '@filamu/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloads, licences, receivedFilmsWaiting, users } from '../../db/schema.ts';
import {
  type TestApp,
  createAgentAs,
  createTestApp,
  freshIp,
  loginAdmin,
  registerProvenUser,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { type AddedMovie, addMovie, createPlan, subscribe } from '../../../test/library.ts';
import { openDeviceSecret, unlockFilmKey } from '../../../../pwa/src/features/licences/sealed-keys.ts';
import { phoneKeys, unwrap } from '../licences/phone-keys.testing.ts';
import { MENU_SCREENS } from './menu.ts';
import { UNLOCK_SCREENS } from './unlock.ts';

/**
 * Unlocking a film with no data (issue 19/22, decisions 0243 and 0249), as the person sees it on the handset: a phone
 * fetched its sealed keys while online; offline, its owner dials Filamu's USSD service (through the simulator, which
 * posts to the callback as Africa's Talking does), types the request code, and the phone opens the film's key with the
 * unlock code. Every refusal is a screen, and the database holds one received download, whatever is dialled at once.
 */
describe.each(testDatabases)('USSD unlock on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let planId: string;
  let kina: AddedMovie;
  let english: AddedMovie;
  let outside: AddedMovie;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
    planId = await createPlan(t, adminToken);
    const otherPlan = await createPlan(t, adminToken);
    kina = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId], title: 'Ekitabo kya Ŋŋaali' });
    english = await addMovie(t, adminToken, { category: 'English', planIds: [planId], title: 'The Long Road' });
    outside = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [otherPlan], title: 'Elsewhere' });
  });
  afterAll(() => t.close());

  const shortNumberOf = async (movie: AddedMovie) => {
    const res = await t.call(contracts.unlock.sealedKeys, {
      token: adminToken,
      body: { devicePublicKey: (await phoneKeys()).spki },
    });
    return SealedKeysResponse.parse(res.json).films.find((f) => f.movieId === movie.movie.id)!.shortNumber;
  };

  /** A phone signed in as `token` that fetched its sealed keys while online. */
  async function onlinePhone(token: string) {
    const keys = await phoneKeys();
    const res = await t.call(contracts.unlock.sealedKeys, { token, body: { devicePublicKey: keys.spki } });
    expect(res.status, res.text).toBe(200);
    const sealed = SealedKeysResponse.parse(res.json);
    const film = (movie: AddedMovie) => sealed.films.find((f) => f.movieId === movie.movie.id)!;
    /** The request code the phone shows for a film, as typed on a keypad. */
    const code = (movie: AddedMovie) => requestCodeOf(film(movie).shortNumber, sealed.keyDigits).replaceAll('-', '');
    return { keys, sealed, film, code };
  }

  async function dial(phoneNumber: string, inputs: string[]) {
    const res = await t.call(contracts.unlock.ussdSimulatorDial, { body: { phoneNumber, inputs } });
    expect(res.status, res.text).toBe(200);
    return UssdDialResponse.parse(res.json);
  }

  /** The last screen of a dial of `1`, then the code. */
  const unlock = async (phoneNumber: string, code: string) => (await dial(phoneNumber, ['1', code])).screens.at(-1)!;

  const downloadsOf = (userId: string, movieId: string) =>
    t.deps.database.db
      .select()
      .from(downloads)
      .where(and(eq(downloads.userId, userId), eq(downloads.movieId, movieId)));

  async function provenSubscriber() {
    const person = await registerProvenUser(t);
    await subscribe(t, adminToken, person.user.id as string, planId);
    return person;
  }

  const unlockCodeIn = (text: string) => /(\d{4} \d{4} \d{4} \d{4} \d{4})$/.exec(text)?.[1];

  it('unlocks a film: the menu, the code, one received download with its licence, and a key the phone opens', async () => {
    const person = await provenSubscriber();
    const phone = await onlinePhone(person.token);
    const session = await dial(person.body.phone, ['1', phone.code(kina)]);
    expect(session.screens.map((s) => [s.kind, s.text.split('\n')[0]])).toEqual([
      ['CON', 'Filamu'],
      ['CON', MENU_SCREENS.askCode],
      ['END', 'Unlock code for Ekitabo kya ??aali:'],
    ]);
    expect(session.screens[0]!.text).toBe(MENU_SCREENS.welcome);
    const last = session.screens.at(-1)!;
    expect(last.text.length).toBeLessThanOrEqual(182);
    const unlockCode = unlockCodeIn(last.text)!;
    expect(unlockCode).toMatch(/^\d{4}( \d{4}){4}$/);

    // The database: the person's received download, completed at once, and its licence for that phone.
    const [download] = await downloadsOf(person.user.id, kina.movie.id);
    expect(download).toMatchObject({ status: 'completed', receivedFromAgentId: null });
    expect(download!.receivedAt).not.toBeNull();
    const [licence] = await t.deps.database.db.select().from(licences).where(eq(licences.downloadId, download!.id));
    expect(licence).toMatchObject({ way: 'transfer', deviceKeyId: phone.sealed.deviceKeyId, revokedAt: null });

    // The phone: the device secret opened into HKDF, the film key opened by the typed code, decrypting as the licence
    // the phone gets once online decrypts.
    const secret = await openDeviceSecret(phone.sealed.wrappedDeviceSecret, phone.keys.pair.privateKey);
    const opened = await unlockFilmKey(secret, phone.film(kina).sealedKey, unlockCode, kina.movie.id);
    if (!opened.ok) throw new Error(opened.reason);
    const online = await t.call(contracts.licences.licenceOfDownloaded, {
      token: person.token,
      body: { movieId: kina.movie.id, devicePublicKey: phone.keys.spki },
    });
    expect(online.status, online.text).toBe(200);
    expect(Licence.parse(online.json).id).toBe(licence!.id);
    const licensed = await unwrap(phone.keys.pair.privateKey, Licence.parse(online.json));
    const titleKey = await t.deps.contentKeys.keyOf(kina.movie.id);
    const nonce = randomBytes(FILM_NONCE_BYTES);
    const plain = randomBytes(100);
    const cipher = createCipheriv('aes-128-ctr', titleKey, filmCounterBlock(nonce, 3));
    const block = Buffer.concat([cipher.update(plain), cipher.final()]);
    const bySealed = await decryptFilmRange(opened.key, nonce, 48, block);
    const byLicence = await decryptFilmRange(licensed, nonce, 48, block);
    expect(Buffer.from(bySealed).equals(plain)).toBe(true);
    expect(Buffer.from(byLicence).equals(plain)).toBe(true);

    // One digit wrong: the phone says so, and opens nothing.
    const digits = unlockCode.replaceAll(' ', '');
    const wrong = `${digits.slice(0, 19)}${(Number(digits[19]) + 1) % 10}`;
    expect(await unlockFilmKey(secret, phone.film(kina).sealedKey, wrong, kina.movie.id)).toEqual({
      ok: false,
      reason: 'wrong-code',
    });

    // Dialled again: the same code, still one download.
    expect(unlockCodeIn((await unlock(person.body.phone, phone.code(kina))).text)).toBe(unlockCode);
    expect(await downloadsOf(person.user.id, kina.movie.id)).toHaveLength(1);
  });

  it('refuses an unproven number, an unknown one and a foreign one, and records nothing', async () => {
    const unproven = await registerUser(t);
    await subscribe(t, adminToken, unproven.user.id as string, planId);
    const phone = await onlinePhone(unproven.token);
    const screen = await unlock(unproven.body.phone, phone.code(kina));
    expect(screen).toMatchObject({ kind: 'END', text: UNLOCK_SCREENS.unprovenNumber });
    expect(await downloadsOf(unproven.user.id, kina.movie.id)).toEqual([]);
    expect(await unlock('0772999001', phone.code(kina))).toMatchObject({
      kind: 'END',
      text: UNLOCK_SCREENS.unknownNumber,
    });
    expect(await unlock('+254711000111', phone.code(kina))).toMatchObject({
      kind: 'END',
      text: UNLOCK_SCREENS.notUganda,
    });
  });

  it('refuses a person with no plan (the film then waits for one) and a film outside the plan', async () => {
    const person = await registerProvenUser(t);
    const phone = await onlinePhone(person.token);
    expect(await unlock(person.body.phone, phone.code(kina))).toMatchObject({
      kind: 'END',
      text: UNLOCK_SCREENS.noPlan,
    });
    expect(await downloadsOf(person.user.id, kina.movie.id)).toEqual([]);
    const waiting = await t.deps.database.db
      .select()
      .from(receivedFilmsWaiting)
      .where(eq(receivedFilmsWaiting.userId, person.user.id));
    expect(waiting.map((w) => w.movieId)).toEqual([kina.movie.id]);

    const subscriber = await provenSubscriber();
    const theirs = await onlinePhone(subscriber.token);
    expect(await unlock(subscriber.body.phone, theirs.code(outside))).toMatchObject({
      kind: 'END',
      text: UNLOCK_SCREENS.notInPlan,
    });
  });

  it('keeps English for after Kinayuganda, as a received film does', async () => {
    const person = await provenSubscriber();
    const phone = await onlinePhone(person.token);
    expect(await unlock(person.body.phone, phone.code(english))).toMatchObject({
      kind: 'END',
      text: UNLOCK_SCREENS.kinayugandaFirst,
    });
    expect(await downloadsOf(person.user.id, english.movie.id)).toEqual([]);
    expect((await unlock(person.body.phone, phone.code(kina))).text).toMatch(/^Unlock code for /);
    expect((await unlock(person.body.phone, phone.code(english))).text).toMatch(/^Unlock code for The Long Road:\n/);
    expect(await downloadsOf(person.user.id, english.movie.id)).toHaveLength(1);
  });

  it("unlocks for an agent's own phone without a plan, under the Kinayuganda rule", async () => {
    const created = await createAgentAs(t, adminToken);
    const login = await t.request('POST', '/api/auth/agent/login', {
      body: { email: created.body.email, password: created.password },
      ip: freshIp(),
    });
    const phone = await onlinePhone(login.json.token as string);
    expect(await unlock(created.body.phone, phone.code(english))).toMatchObject({
      kind: 'END',
      text: UNLOCK_SCREENS.kinayugandaFirst,
    });
    // Agents have the whole library: a film of a plan they do not have as well.
    for (const movie of [kina, outside, english]) {
      expect((await unlock(created.body.phone, phone.code(movie))).text).toMatch(/^Unlock code for /);
    }
    const rows = await t.deps.database.db.select().from(downloads).where(eq(downloads.agentId, created.agent.id));
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.status === 'completed' && r.receivedAt !== null)).toBe(true);
  });

  it('refuses a mistyped code, an unknown film and a phone the account never signed in on', async () => {
    const person = await provenSubscriber();
    const phone = await onlinePhone(person.token);
    const code = phone.code(kina);
    const typo = `${code.slice(0, 2)}${(Number(code[2]) + 1) % 10}${code.slice(3)}`;
    expect(await unlock(person.body.phone, typo)).toMatchObject({ kind: 'END', text: UNLOCK_SCREENS.mistyped });
    expect(await unlock(person.body.phone, '12a4')).toMatchObject({ kind: 'END', text: UNLOCK_SCREENS.notACode });
    expect(await unlock(person.body.phone, requestCodeOf(999_999, phone.sealed.keyDigits))).toMatchObject({
      kind: 'END',
      text: UNLOCK_SCREENS.unknownFilm(999_999),
    });
    const otherDigits = String((Number(phone.sealed.keyDigits) + 1) % 1000).padStart(3, '0');
    expect(await unlock(person.body.phone, requestCodeOf(phone.film(kina).shortNumber, otherDigits))).toMatchObject({
      kind: 'END',
      text: UNLOCK_SCREENS.unknownPhone,
    });
    // Typed with stars between its groups in one answer (the gateway's text is then `1*1234*567*8`), a code still reads.
    const starred = requestCodeOf(phone.film(kina).shortNumber, phone.sealed.keyDigits).replaceAll('-', '*');
    expect((await unlock(person.body.phone, starred)).text).toMatch(/^Unlock code/);
    expect(await downloadsOf(person.user.id, kina.movie.id)).toHaveLength(1);
  });

  it('answers a wrong first choice with END, and the menu steps with CON', async () => {
    const session = await dial('0772123456', ['2', 'ignored']);
    expect(session.screens.map((s) => s.kind)).toEqual(['CON', 'END']);
    expect(session.screens[1]!.text).toBe(MENU_SCREENS.unknownChoice);
    expect(session.unused).toEqual(['ignored']);
  });

  it('records one received download when the same unlock is dialled many times at once', async () => {
    const person = await provenSubscriber();
    const phone = await onlinePhone(person.token);
    const screens = await Promise.all(Array.from({ length: 6 }, () => unlock(person.body.phone, phone.code(kina))));
    const codes = new Set(screens.map((s) => unlockCodeIn(s.text)));
    expect(screens.map((s) => s.kind)).toEqual(Array(6).fill('END'));
    expect(codes.size).toBe(1);
    expect([...codes][0]).toBeDefined();
    const rows = await downloadsOf(person.user.id, kina.movie.id);
    expect(rows).toHaveLength(1);
    const live = await t.deps.database.db.select().from(licences).where(eq(licences.downloadId, rows[0]!.id));
    expect(live).toHaveLength(1);
  });

  it('limits the unlocks asked for from one number', async () => {
    const person = await provenSubscriber();
    const phone = await onlinePhone(person.token);
    for (let i = 0; i < 20; i += 1) {
      expect((await unlock(person.body.phone, '12340')).text).not.toMatch(/^Too many/);
    }
    const refused = await unlock(person.body.phone, phone.code(kina));
    expect(refused.kind).toBe('END');
    expect(refused.text).toMatch(/^Too many codes asked for from this number\. Please try again in \d+ minutes\.$/);
    expect(await downloadsOf(person.user.id, kina.movie.id)).toEqual([]);
    // Another number is not held back by it.
    const other = await provenSubscriber();
    const otherPhone = await onlinePhone(other.token);
    expect((await unlock(other.body.phone, otherPhone.code(kina))).text).toMatch(/^Unlock code for /);
    // A proven number held by an account whose phone proof was withdrawn since is refused again.
    await t.deps.database.db.update(users).set({ phoneVerifiedAt: null }).where(eq(users.id, other.user.id));
    expect((await unlock(other.body.phone, otherPhone.code(english))).text).toBe(UNLOCK_SCREENS.unprovenNumber);
    expect(await shortNumberOf(kina)).toBe(otherPhone.film(kina).shortNumber);
  });
});
