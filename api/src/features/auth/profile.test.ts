import { AuthResponse, UserProfile } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema.ts';
import {
  type TestApp,
  createAgentAs,
  createTestApp,
  freshIp,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { USER_AGENT_MAX } from './user-agent.ts';

const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const MINUTE = 60_000;

describe.each(testDatabases)('the profile’s current device on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const login = (identifier: string, password: string, userAgent?: string) =>
    t.request('POST', '/api/auth/login', {
      body: { identifier, password, currentDeviceId: 'phone-1' },
      headers: userAgent ? { 'user-agent': userAgent } : {},
      ip: freshIp(),
    });
  const profile = async (token: string) => {
    const res = await t.request('GET', '/api/auth/profile', { token });
    expect(res.status).toBe(200);
    return UserProfile.parse(res.json);
  };

  it('describes the browser, system and sign-in time recorded from the User-Agent at login', async () => {
    const { body } = await registerUser(t);
    const signedInAt = t.clock.now().toISOString();
    const res = await login(body.email, body.password, CHROME_ANDROID);
    expect(res.status).toBe(200);
    const signedIn = AuthResponse.parse(res.json);
    const expected = { browser: 'Chrome', system: 'Android', signedInAt, lastActiveAt: signedInAt };
    expect(signedIn.user.currentDevice).toEqual(expected);
    expect((await profile(signedIn.token)).currentDevice).toEqual(expected);
    // Kept for older clients (product §3 deviceIDs).
    expect(signedIn.user.deviceIDs).toEqual(['phone-1']);

    // Last active moves on as the session is used (at most every 5 minutes); sign-in time stays.
    t.clock.advance(2 * 60 * MINUTE);
    const later = (await profile(signedIn.token)).currentDevice;
    expect(later).toEqual({ ...expected, lastActiveAt: t.clock.now().toISOString() });
  });

  it('describes the device a new sign-in opened, not the one it signed out', async () => {
    const { body } = await registerUser(t);
    await login(body.email, body.password, CHROME_ANDROID);
    const second = AuthResponse.parse((await login(body.email, body.password, SAFARI_IPHONE)).json);
    expect((await profile(second.token)).currentDevice).toMatchObject({ browser: 'Safari', system: 'iOS' });
  });

  it('records the User-Agent at registration and agent login too, truncated', async () => {
    const registered = await t.request('POST', '/api/auth/register', {
      body: {
        email: `ua-${Date.now()}@example.com`,
        fullName: 'UA Person',
        phone: '0772999111',
        password: 'long-enough-pw',
        currentDeviceId: 'phone-2',
      },
      headers: { 'user-agent': `${SAFARI_IPHONE} ${'x'.repeat(USER_AGENT_MAX)}` },
      ip: freshIp(),
    });
    expect(registered.status).toBe(201);
    const user = AuthResponse.parse(registered.json).user;
    expect(user.currentDevice).toMatchObject({ browser: 'Safari', system: 'iOS' });
    const [row] = await t.deps.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(row!.userAgent).toHaveLength(USER_AGENT_MAX);

    const { body, password } = await createAgentAs(t, await loginAdmin(t));
    const agentRes = await t.request('POST', '/api/auth/agent/login', {
      body: { email: body.email, password },
      headers: { 'user-agent': CHROME_ANDROID },
      ip: freshIp(),
    });
    expect(agentRes.status).toBe(200);
    const agentId = (agentRes.json as { agent: { id: string } }).agent.id;
    const [agentSession] = await t.deps.database.db.select().from(sessions).where(eq(sessions.agentId, agentId));
    expect(agentSession!.userAgent).toBe(CHROME_ANDROID);
  });

  it('says "Unknown browser" when the sign-in sent no User-Agent, and never the device id', async () => {
    const { body } = await registerUser(t);
    const signedIn = AuthResponse.parse((await login(body.email, body.password)).json);
    const device = (await profile(signedIn.token)).currentDevice;
    expect(device).toMatchObject({ browser: 'Unknown browser', system: null });
    expect(JSON.stringify(device)).not.toContain('phone-1');
  });

  it('keeps the current device in the profile returned by a profile update', async () => {
    const { body } = await registerUser(t);
    const signedIn = AuthResponse.parse((await login(body.email, body.password, CHROME_ANDROID)).json);
    const res = await t.request('PUT', '/api/users/profile', { token: signedIn.token, body: { fullName: 'New Name' } });
    expect(res.status).toBe(200);
    expect(UserProfile.parse(res.json).currentDevice).toMatchObject({ browser: 'Chrome', system: 'Android' });
  });
});
