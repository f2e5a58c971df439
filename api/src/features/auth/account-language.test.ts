import { ApiErrorBody, canonicalUgandaPhone, contracts, serverTranslator, UserProfile } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, smsOutbox } from '../../db/schema.ts';
import {
  type TestApp,
  createTestApp,
  freshIp,
  registerProvenUser,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { addMovie } from '../../../test/library.ts';

const { auth } = contracts;
const luganda = serverTranslator('lg');
const english = serverTranslator('en');

/** Decision 0258: the account's language, and error messages in the request's language with the same code. */
describe.each(testDatabases)('languages on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const envelope = (res: { status: number; json: unknown }) => {
    expect(res.status).toBeLessThan(500);
    return ApiErrorBody.parse(res.json).error;
  };

  it('a wrong password: the same code and status, the message in the Accept-Language asked for', async () => {
    const { body } = await registerUser(t);
    const login = (language?: string) =>
      t.call(auth.login, {
        body: { identifier: body.email, password: 'not-the-password' },
        ip: freshIp(),
        headers: language ? { 'accept-language': language } : {},
      });
    const plain = await login();
    const inLuganda = await login('lg-UG,lg;q=0.9,en;q=0.5');
    expect(inLuganda.status).toBe(plain.status);
    expect(plain.status).toBe(401);
    expect(envelope(plain)).toMatchObject({ code: 'unauthenticated', message: english.t('error.invalidCredentials') });
    expect(envelope(inLuganda)).toMatchObject({
      code: 'unauthenticated',
      message: luganda.t('error.invalidCredentials'),
    });
    expect(luganda.t('error.invalidCredentials')).not.toBe(english.t('error.invalidCredentials'));
  });

  it("a form's field messages in Luganda too, under the same paths", async () => {
    const res = await t.call(auth.register, {
      body: { fullName: 'Nakato', email: 'not-an-email', phone: '0772123456', password: 'long-enough-1' },
      ip: freshIp(),
      headers: { 'accept-language': 'lg' },
    });
    const error = envelope(res);
    expect(res.status).toBe(400);
    expect(error.code).toBe('validation_error');
    expect(error.issues).toEqual([{ path: 'email', message: luganda.t('error.emailInvalid') }]);
    expect(error.message).toBe(`email: ${luganda.t('error.emailInvalid')}`);
  });

  it('registers in the language of the phone, changes it on the profile, and refuses an unknown one with a 400', async () => {
    const { token, user } = await registerUser(t, { language: 'lg' });
    expect(UserProfile.parse(user).language).toBe('lg');
    const update = (language: unknown) => t.call(auth.updateProfile, { token, body: { language } });

    const english = await update('en');
    expect(english.status).toBe(200);
    expect(UserProfile.parse(english.json).language).toBe('en');
    const back = await update('lg');
    expect(UserProfile.parse(back.json).language).toBe('lg');
    const profile = await t.call(auth.profile, { token });
    expect(UserProfile.parse(profile.json).language).toBe('lg');

    for (const bad of ['fr', 'LG', '', 5, null, 'lg'.repeat(5000)]) {
      const res = await update(bad);
      expect(res.status, String(bad).slice(0, 20)).toBe(400);
      // Signed in, the account's language answers, whatever the browser asks for.
      expect(envelope(res).code).toBe('validation_error');
      expect(envelope(res).issues?.[0]).toEqual({ path: 'language', message: luganda.t('error.language') });
    }
    expect(UserProfile.parse((await t.call(auth.profile, { token })).json).language).toBe('lg');
  });

  it('a recovery code by SMS in the account’s language', async () => {
    const { body } = await registerProvenUser(t, { language: 'lg' });
    const res = await t.call(auth.requestRecoveryCode, { body: { identifier: body.phone }, ip: freshIp() });
    expect(res.status).toBe(200);
    const phone = canonicalUgandaPhone(body.phone as string)!;
    const [sms] = await t.deps.database.db.select().from(smsOutbox).where(eq(smsOutbox.toPhone, phone));
    const code = /\d{6}/.exec(sms!.body)?.[0];
    expect(sms!.body).toBe(luganda.t('sms.recoveryCode', { code: code!, minutes: 10 }));
  });

  it('a recovery code by mail in the account’s language, with what to do if it was not asked for', async () => {
    const { body } = await registerUser(t, { language: 'lg' });
    expect((await t.call(auth.requestRecoveryCode, { body: { identifier: body.email }, ip: freshIp() })).status).toBe(
      200,
    );
    const [mail] = await t.deps.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, body.email));
    const code = /\b(\d{6})\b/.exec(mail!.body)![1]!;
    expect(mail).toMatchObject({ kind: 'password_reset', subject: luganda.t('mail.code.subject') });
    expect(mail!.body).toBe(
      `${luganda.t('sms.recoveryCode', { code, minutes: 10 })}\n\n${luganda.t('mail.code.notAsked')}`,
    );
    expect(mail!.subject).not.toBe(english.t('mail.code.subject'));
  });

  it('a download refused for want of a plan: the same code, in the account’s language even without Accept-Language', async () => {
    const movie = await addMovie(t, await loginAdmin(t), { category: 'Kinayuganda' });
    const ask = async (language: 'en' | 'lg') => {
      const { token } = await registerUser(t, { language });
      return t.request('POST', '/api/users/movies/generate-download-url', { token, body: { movieId: movie.movie.id } });
    };
    const [inLuganda, inEnglish] = [await ask('lg'), await ask('en')];
    expect([inLuganda.status, inEnglish.status]).toEqual([403, 403]);
    expect(envelope(inLuganda)).toMatchObject({
      code: 'subscription_required',
      message: luganda.t('error.subscriptionRequired'),
    });
    expect(envelope(inEnglish).message).toBe('You need an active subscription to download movies.');
  });
});
