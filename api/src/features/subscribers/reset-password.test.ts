import { ResetSubscriberPasswordResponse } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';

const UNKNOWN_ID = '7f1c9a52-3b1e-4c6d-9a8b-2e5f4d3c2b1a';

describe.each(testDatabases)('the admin resets a subscriber password on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let adminId: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
    adminId = (await t.request('GET', '/api/auth/profile', { token: adminToken })).json.id;
  });
  afterAll(() => t.close());

  const reset = (id: string, token = adminToken) =>
    t.request('POST', `/api/admin/subscribers/${id}/reset-password`, { token });
  const login = (identifier: string, password: string) =>
    t.request('POST', '/api/auth/login', {
      body: { identifier, password, currentDeviceId: 'phone-after-reset' },
      ip: freshIp(),
    });

  it('answers a new password once, ends every session, and only the new password signs in', async () => {
    const { body, token, user } = await registerUser(t);
    expect((await t.request('GET', '/api/auth/profile', { token })).status).toBe(200);

    const res = await reset(user.id);
    expect(res.status).toBe(200);
    const { newPassword, message } = ResetSubscriberPasswordResponse.parse(res.json);
    expect(newPassword).toHaveLength(16);
    expect(message).toContain(body.fullName);

    // Never kept in clear: the row holds a hash that is not the password.
    const [row] = await t.deps.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.passwordHash).not.toContain(newPassword);
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);

    const old = await t.request('GET', '/api/auth/profile', { token });
    expectErrorEnvelope(old, 401, 'unauthenticated', 'Your password was reset. Please sign in with the new password.');

    expect((await login(body.email, body.password)).status).toBe(401);
    const signedIn = await login(body.phone, newPassword);
    expect(signedIn.status).toBe(200);
    expect((await t.request('GET', '/api/auth/profile', { token: signedIn.json.token })).json.email).toBe(body.email);
  });

  it('gives a different password each time', async () => {
    const { user } = await registerUser(t);
    const first = ResetSubscriberPasswordResponse.parse((await reset(user.id)).json).newPassword;
    const second = ResetSubscriberPasswordResponse.parse((await reset(user.id)).json).newPassword;
    expect(first).not.toBe(second);
  });

  it('refuses the protected admin, the admin themselves, unknown users and non-admins', async () => {
    expectErrorEnvelope(await reset(adminId), 403, 'forbidden', 'The protected admin account cannot be managed.');

    const other = await registerUser(t);
    await t.deps.database.db.update(users).set({ isAdmin: true }).where(eq(users.id, other.user.id));
    const before = (await t.deps.database.db.select().from(users).where(eq(users.id, other.user.id)))[0]!;
    expectErrorEnvelope(await reset(other.user.id, other.token), 409, 'conflict');
    const after = (await t.deps.database.db.select().from(users).where(eq(users.id, other.user.id)))[0]!;
    expect(after.passwordHash).toBe(before.passwordHash);

    expectErrorEnvelope(await reset(UNKNOWN_ID), 404, 'not_found');
    const plain = await registerUser(t);
    expectErrorEnvelope(await reset(other.user.id, plain.token), 403, 'forbidden');
    expect((await login(other.body.email, other.body.password)).status).toBe(200);
  });
});
