import { AGENT_SIGN_IN_HINT, AuthResponse, Message, SIGN_IN_IDENTIFIER_HINT, UserProfile } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema.ts';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  newUser,
  registerUser,
  testDatabases,
  withoutRequestId,
} from '../../../test/harness.ts';

const INVALID = 'Invalid credentials. Please try again.';

describe.each(testDatabases)('user accounts on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const login = (identifier: string, password: string, extra: Record<string, unknown> = {}) =>
    t.request('POST', '/api/auth/login', { body: { identifier, password, ...extra }, ip: freshIp() });
  const profile = (token: string) => t.request('GET', '/api/auth/profile', { token });
  const userRows = (where: ReturnType<typeof eq>) => t.deps.database.db.select().from(users).where(where);

  describe('register', () => {
    it('creates the account, signs it in on this device and stores canonical phone and lower-cased email', async () => {
      const body = newUser({ email: 'Mixed.Case@Example.COM', phone: '+256 772 100 001', currentDeviceId: 'phone-a' });
      const res = await t.request('POST', '/api/auth/register', { body, ip: freshIp() });
      expect(res.status).toBe(201);
      const parsed = AuthResponse.parse(res.json);
      expect(parsed.user).toMatchObject({
        kind: 'user',
        email: 'mixed.case@example.com',
        phone: '256772100001',
        fullName: body.fullName,
        isAdmin: false,
        isSubscribed: false,
        subscriptionPlan: null,
        daysRemaining: null,
      });
      expect(parsed.user.deviceIDs).toContain('phone-a');

      const me = await profile(parsed.token);
      expect(me.status).toBe(200);
      expect(UserProfile.parse(me.json)).toMatchObject({ id: parsed.user.id, email: 'mixed.case@example.com' });

      const [row] = await userRows(eq(users.id, parsed.user.id));
      expect(row).toMatchObject({ email: 'mixed.case@example.com', phone: '256772100001', isAdmin: false });
      expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
      expect(row!.passwordHash).not.toContain(body.password);
    });

    it('takes the device id from the X-Device-Id header when the body has none', async () => {
      const { currentDeviceId: _ignored, ...body } = newUser();
      const res = await t.request('POST', '/api/auth/register', { body, deviceId: 'header-device', ip: freshIp() });
      expect(res.status).toBe(201);
      expect(AuthResponse.parse(res.json).user.deviceIDs).toEqual(['header-device']);
    });

    it.each([
      ['a 7-character password', { password: 'short77' }, ['password']],
      ['a 257-character password', { password: 'p'.repeat(257) }, ['password']],
      ['an invalid phone', { phone: '0612345678' }, ['phone']],
      ['a bad email', { email: 'not-an-email' }, ['email']],
      ['a blank full name', { fullName: '   ' }, ['fullName']],
      ['several bad fields', { email: 'x@', phone: '12', password: 'abc' }, ['email', 'phone', 'password']],
    ])('refuses %s with 400 validation_error naming the field', async (_name, overrides, fields) => {
      const body = newUser(overrides);
      const res = await t.request('POST', '/api/auth/register', { body, ip: freshIp() });
      expectErrorEnvelope(res, 400, 'validation_error');
      const paths = res.json.error.issues.map((i: { path: string }) => i.path);
      for (const field of fields) expect(paths).toContain(field);
      expect(await userRows(eq(users.email, String(body.email).toLowerCase()))).toHaveLength(0);
    });

    it('refuses a missing field', async () => {
      const { phone: _phone, ...body } = newUser();
      const res = await t.request('POST', '/api/auth/register', { body, ip: freshIp() });
      expectErrorEnvelope(res, 400, 'validation_error');
      expect(res.json.error.issues).toContainEqual({ path: 'phone', message: 'Phone number is required.' });
    });

    it.each([
      ['256 characters', 'Ab1 '.repeat(63) + 'Ab1!'],
      ['spaces and unicode', '  pässwörd ✓ Kampala 🎬  '],
    ])('keeps a password of %s exactly as typed', async (_name, password) => {
      const { body } = await registerUser(t, { password });
      const ok = await login(body.email, password);
      expect(ok.status).toBe(200);
      AuthResponse.parse(ok.json);
      const trailing = await login(body.email, `${password} `);
      // One character more than the maximum is refused before it is checked.
      if (password.length === 256) expectErrorEnvelope(trailing, 400, 'validation_error');
      else expectErrorEnvelope(trailing, 401, 'unauthenticated', INVALID);
      expectErrorEnvelope(await login(body.email, password.slice(0, -1)), 401, 'unauthenticated', INVALID);
      const trimmed = await login(body.email, password.trim());
      if (password.trim() !== password) expectErrorEnvelope(trimmed, 401, 'unauthenticated', INVALID);
    });

    it('refuses the same email in another case with 409 and keeps one row', async () => {
      const { body } = await registerUser(t, { email: 'dup.case@example.com' });
      const res = await t.request('POST', '/api/auth/register', {
        body: newUser({ email: 'DUP.Case@EXAMPLE.com' }),
        ip: freshIp(),
      });
      expectErrorEnvelope(res, 409, 'conflict', 'An account with this email already exists.');
      expect(await userRows(eq(users.email, body.email))).toHaveLength(1);
    });

    it.each([
      ['0772…', '+256 772 300 001', '256772300001'],
      ['+256 772 …', '256772300002', '0772300002'],
      ['256772…', '0772 300 003', '+256772300003'],
    ])(
      'refuses the same confirmed phone first spelt %s in another spelling with 409',
      async (_name, first, ...others) => {
        const { user } = await registerUser(t, { phone: first });
        // A number nobody confirmed can be claimed (proven-channels.test.ts); a confirmed one is refused.
        await t.deps.database.db.update(users).set({ phoneVerifiedAt: t.clock.now() }).where(eq(users.id, user.id));
        for (const other of others) {
          const res = await t.request('POST', '/api/auth/register', { body: newUser({ phone: other }), ip: freshIp() });
          expectErrorEnvelope(res, 409, 'conflict', 'An account with this phone number already exists.');
        }
        expect(await userRows(eq(users.phone, user.phone))).toHaveLength(1);
      },
    );
  });

  describe('login', () => {
    let account: ReturnType<typeof newUser>;
    beforeAll(async () => {
      account = (await registerUser(t, { email: 'login.me@example.com', phone: '0772400001' })).body;
    });

    it.each(['login.me@example.com', 'LOGIN.ME@Example.com', '  login.me@example.com  '])(
      'accepts the email %j in any case',
      async (identifier) => {
        const res = await login(identifier, account.password, { currentDeviceId: 'email-device' });
        expect(res.status).toBe(200);
        const parsed = AuthResponse.parse(res.json);
        expect(parsed.user.email).toBe('login.me@example.com');
        expect(parsed.user.deviceIDs).toEqual(['email-device']);
        expect((await profile(parsed.token)).status).toBe(200);
      },
    );

    it.each(['0772400001', '256772400001', '+256772400001', '+256 772 400 001', '0772-400-001'])(
      'accepts the phone spelt %j',
      async (identifier) => {
        const res = await login(identifier, account.password);
        expect(res.status).toBe(200);
        expect(AuthResponse.parse(res.json).user.phone).toBe('256772400001');
      },
    );

    it('answers a wrong password and an unknown account identically', async () => {
      const wrongPassword = await login(account.email, 'not the password');
      const unknownEmail = await login('nobody.here@example.com', 'not the password');
      const unknownPhone = await login('0772999998', 'not the password');
      for (const res of [wrongPassword, unknownEmail, unknownPhone]) {
        expectErrorEnvelope(res, 401, 'unauthenticated', INVALID);
        expect(withoutRequestId(res.json)).toEqual(withoutRequestId(wrongPassword.json));
      }
      expect(unknownEmail.json.error.requestId).not.toBe(wrongPassword.json.error.requestId);
    });

    it.each(['just-a-name', '12345', '0712 34', '@example.com', 'name@', '0612345678'])(
      'says %j is neither an email nor a phone number (400, before any password is checked)',
      async (identifier) => {
        const res = await login(identifier, account.password);
        expectErrorEnvelope(res, 400, 'validation_error', `identifier: ${SIGN_IN_IDENTIFIER_HINT}`);
        expect(res.json.error.issues).toEqual([{ path: 'identifier', message: SIGN_IN_IDENTIFIER_HINT }]);
      },
    );

    it('answers the agent form with an email hint when it is sent something else', async () => {
      const res = await t.request('POST', '/api/auth/agent/login', {
        body: { email: '0772123456', password: 'whatever-it-is' },
        ip: freshIp(),
      });
      expectErrorEnvelope(res, 400, 'validation_error', `email: ${AGENT_SIGN_IN_HINT}`);
    });

    it('refuses an empty identifier or password with 400', async () => {
      const res = await t.request('POST', '/api/auth/login', { body: { identifier: '', password: '' }, ip: freshIp() });
      expectErrorEnvelope(res, 400, 'validation_error');
      const paths = res.json.error.issues.map((i: { path: string }) => i.path);
      expect(paths).toEqual(expect.arrayContaining(['identifier', 'password']));
    });
  });

  describe('profile', () => {
    it('returns the signed-in user', async () => {
      const { token, user } = await registerUser(t);
      const res = await profile(token);
      expect(res.status).toBe(200);
      expect(UserProfile.parse(res.json)).toEqual(user);
    });

    it('changes only fullName and email and returns the profile', async () => {
      const { token, user, body } = await registerUser(t);
      const res = await t.request('PUT', '/api/users/profile', {
        token,
        body: { fullName: '  New Name  ', email: 'New.Address@Example.com', currentPassword: body.password },
      });
      expect(res.status).toBe(200);
      const updated = UserProfile.parse(res.json);
      expect(updated).toMatchObject({
        id: user.id,
        fullName: 'New Name',
        email: 'new.address@example.com',
        phone: user.phone,
        isAdmin: false,
      });
      const [row] = await userRows(eq(users.id, user.id));
      expect(row).toMatchObject({ fullName: 'New Name', email: 'new.address@example.com', phone: user.phone });
      // The new email signs in; the old one no longer names the account.
      expect((await login('new.address@example.com', body.password)).status).toBe(200);
      expect((await login(body.email, body.password)).status).toBe(401);

      const nameOnly = await t.request('PUT', '/api/users/profile', {
        token: (await login('new.address@example.com', body.password)).json.token,
        body: { fullName: 'Only Name' },
      });
      expect(nameOnly.status).toBe(200);
      expect(nameOnly.json).toMatchObject({ fullName: 'Only Name', email: 'new.address@example.com' });
    });

    it.each([
      ['isAdmin', { fullName: 'Sneaky', isAdmin: true }],
      ['phone', { phone: '0772555555' }],
      ['subscription_end_date', { subscription_end_date: '2030-01-01T00:00:00.000Z' }],
    ])('refuses the extra key %s with 400 and changes nothing', async (key, body) => {
      const { token, user } = await registerUser(t);
      const [before] = await userRows(eq(users.id, user.id));
      const res = await t.request('PUT', '/api/users/profile', { token, body });
      expectErrorEnvelope(res, 400, 'validation_error');
      expect(JSON.stringify(res.json.error.issues)).toContain(key);
      const [after] = await userRows(eq(users.id, user.id));
      expect(after).toEqual(before);
    });

    it('changes the email only with the current password: a session alone cannot take the account', async () => {
      const { token, user, body } = await registerUser(t);
      const email = `taken.over.${Date.now()}@example.com`;
      const missing = await t.request('PUT', '/api/users/profile', { token, body: { email } });
      expectErrorEnvelope(missing, 400, 'validation_error');
      expect(missing.json.error.issues).toEqual([
        { path: 'currentPassword', message: 'Enter your current password to change your email.' },
      ]);
      const wrong = await t.request('PUT', '/api/users/profile', {
        token,
        body: { fullName: 'Taken Over', email, currentPassword: 'not the password' },
      });
      expectErrorEnvelope(wrong, 400, 'bad_request', 'Current password is incorrect.');
      expect(wrong.json.error.issues).toEqual([{ path: 'currentPassword', message: 'Current password is incorrect.' }]);
      const [row] = await userRows(eq(users.id, user.id));
      expect(row).toMatchObject({ email: user.email, fullName: user.fullName });
      // The session was not the problem: it still works, and the right password changes the email.
      expect((await profile(token)).status).toBe(200);
      const right = await t.request('PUT', '/api/users/profile', {
        token,
        body: { email, currentPassword: body.password },
      });
      expect([right.status, right.json.email]).toEqual([200, email]);
    });

    it("refuses {} with 400 'No changes'", async () => {
      const { token } = await registerUser(t);
      const res = await t.request('PUT', '/api/users/profile', { token, body: {} });
      expectErrorEnvelope(res, 400, 'validation_error', 'No changes');
    });

    it('refuses an email another account holds (any case) with 409', async () => {
      const other = await registerUser(t);
      const { token, user, body } = await registerUser(t);
      const res = await t.request('PUT', '/api/users/profile', {
        token,
        body: { email: other.body.email.toUpperCase(), currentPassword: body.password },
      });
      expectErrorEnvelope(res, 409, 'conflict', 'An account with this email already exists.');
      const [row] = await userRows(eq(users.id, user.id));
      expect(row!.email).toBe(user.email);
    });
  });

  describe('change password', () => {
    it('answers a wrong current password with 400 and keeps the session', async () => {
      const { token, body } = await registerUser(t);
      const res = await t.request('POST', '/api/users/change-password', {
        token,
        body: { currentPassword: 'wrong password', newPassword: 'another password' },
      });
      expectErrorEnvelope(res, 400, 'bad_request', 'Current password is incorrect.');
      expect(res.json.error.issues).toEqual([{ path: 'currentPassword', message: 'Current password is incorrect.' }]);
      expect((await profile(token)).status).toBe(200);
      expect((await login(body.email, body.password)).status).toBe(200);
      expect((await login(body.email, 'another password')).status).toBe(401);
    });

    it('refuses a too-short new password with 400', async () => {
      const { token, body } = await registerUser(t);
      const res = await t.request('POST', '/api/users/change-password', {
        token,
        body: { currentPassword: body.password, newPassword: 'short' },
      });
      expectErrorEnvelope(res, 400, 'validation_error');
      expect(res.json.error.issues.map((i: { path: string }) => i.path)).toContain('newPassword');
    });

    it('changes it, ends every other session, keeps this one', async () => {
      const { token, body, user } = await registerUser(t, { currentDeviceId: 'device-current' });
      // Sign-in is single-device, so a second live session can only be older state: put one in directly.
      const now = t.clock.now();
      const [other] = await t.deps.database.db
        .insert(sessions)
        .values({
          userId: user.id,
          deviceId: 'device-other',
          createdAt: now,
          lastSeenAt: now,
          expiresAt: new Date(now.getTime() + 86_400_000),
        })
        .returning();
      const otherToken = await t.deps.tokens.sign(
        { sessionId: other!.id, subjectId: user.id, kind: 'user' },
        other!.expiresAt,
      );
      expect((await profile(otherToken)).status).toBe(200);

      const res = await t.request('POST', '/api/users/change-password', {
        token,
        body: { currentPassword: body.password, newPassword: 'a brand new password' },
      });
      expect(res.status).toBe(200);
      expect(Message.parse(res.json).message).toBe('Password changed successfully.');

      expectErrorEnvelope(await profile(otherToken), 401, 'unauthenticated');
      expect((await profile(token)).status).toBe(200);
      const [otherRow] = await t.deps.database.db.select().from(sessions).where(eq(sessions.id, other!.id));
      expect(otherRow).toMatchObject({ revokedReason: 'password_changed' });
      expect(otherRow!.revokedAt).not.toBeNull();

      expectErrorEnvelope(await login(body.email, body.password), 401, 'unauthenticated', INVALID);
      expect((await login(body.email, 'a brand new password')).status).toBe(200);
    });
  });

  describe('logout', () => {
    it('ends the session: the same token is then 401', async () => {
      const { token } = await registerUser(t);
      const res = await t.request('POST', '/api/auth/logout', { token, body: {} });
      expect(res.status).toBe(200);
      expect(Message.parse(res.json).message).toBe('Logged out successfully.');
      expectErrorEnvelope(await profile(token), 401, 'unauthenticated');
      expectErrorEnvelope(await t.request('POST', '/api/auth/logout', { token, body: {} }), 401, 'unauthenticated');
    });

    it('works without a body', async () => {
      const { token } = await registerUser(t);
      expect((await t.request('POST', '/api/auth/logout', { token })).status).toBe(200);
      expect((await profile(token)).status).toBe(401);
    });
  });
});
