import { contracts, CreateAgentResponse, ResetAgentPasswordResponse } from '@filamu/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgentAs,
  createTestApp,
  freshIp,
  loginAdmin,
  newAgent,
  type TestApp,
  testDatabases,
} from '../../../test/harness.ts';
import { mailOutbox, smsOutbox } from '../../db/schema.ts';
import { STALE_SENDING_MS } from '../../lib/outbox-claim.ts';
import { deliverSmsOutbox, forgetUnsendableSmsSecrets, REMOVED_SENT, REMOVED_UNSENT } from '../sms/outbox.ts';

const LOGIN_URL = 'https://filamu.example/login';

/** Agent credentials by SMS (decision 0151): sent to the agent's phone, then gone from the outbox. */
describe.each(testDatabases)('agent credentials by SMS on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { PUBLIC_URL: 'https://filamu.example' } });
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const db = () => t.deps.database.db;
  const textsTo = (phone: string) => db().select().from(smsOutbox).where(eq(smsOutbox.toPhone, phone));
  /** Anywhere in the SMS outbox, whatever the row. */
  const storedAnywhere = async (secret: string) =>
    (
      await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(smsOutbox)
        .where(sql`${smsOutbox.body} like ${`%${secret}%`}`)
    )[0]!.n;
  /** What the phone received, read the way a client does: the admin's simulator inbox. */
  const inbox = async (phone: string) => {
    const res = await t.call(contracts.system.smsSimulatorMessages, { token: admin });
    expect(res.status).toBe(200);
    return (res.json.messages as { to: string; text: string }[]).filter((m) => m.to === `+${phone}`);
  };
  const dispatch = async () => {
    while ((await deliverSmsOutbox(t.deps, t.deps.sms)) > 0);
  };
  const agentLogin = (email: string, password: string) =>
    t.request('POST', '/api/auth/agent/login', { body: { email, password }, ip: freshIp() });

  it('a new agent gets the sign-in by SMS; once the gateway took it, the password is gone from the outbox', async () => {
    const { res, agent, password } = await createAgentAs(t, admin, { send_credentials_via: 'sms' });
    const created = CreateAgentResponse.parse(res.json);
    expect(created).toMatchObject({ credentialsSmsQueued: true, credentialsEmailQueued: false });
    expect(created.whatsappLink).toMatch(/^https:\/\/wa\.me\/256/);
    // Only while it waits to be sent.
    expect((await textsTo(agent.phone))[0]).toMatchObject({ purpose: 'agent_credentials', status: 'queued' });
    expect(await storedAnywhere(password)).toBe(1);

    await dispatch();
    const expected = `Your Filamu agent account. Sign in at ${LOGIN_URL} (Agent login). Email: ${agent.email} Password: ${password} Keep it private.`;
    expect((await inbox(agent.phone)).map((m) => m.text)).toEqual([expected]);
    const [row] = await textsTo(agent.phone);
    expect(['sent', 'delivered']).toContain(row!.status);
    expect(row!.body).toBe(REMOVED_SENT);
    expect(await storedAnywhere(password)).toBe(0);
    expect((await agentLogin(agent.email, password)).status).toBe(200);
  });

  it('a reset sends the new password by SMS and email as chosen, and neither outbox keeps it', async () => {
    const { agent, password: old } = await createAgentAs(t, admin);
    const res = await t.request('POST', `/api/agents/${agent.id}/reset-password`, {
      token: admin,
      body: { send_credentials_via: 'both' },
    });
    expect(res.status, res.text).toBe(200);
    const reset = ResetAgentPasswordResponse.parse(res.json);
    expect(reset).toMatchObject({ credentialsSmsQueued: true, credentialsEmailQueued: true });
    await dispatch();
    const [text] = await inbox(agent.phone);
    expect(text!.text).toMatch(/^New Filamu agent password\. Sign in at /);
    expect(text!.text).toContain(`Password: ${reset.newPassword} `);
    expect(await storedAnywhere(reset.newPassword)).toBe(0);
    const [mail] = await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, agent.email));
    expect(mail!.body).not.toContain(reset.newPassword);
    expect((await agentLogin(agent.email, old)).status).toBe(401);
    expect((await agentLogin(agent.email, reset.newPassword)).status).toBe(200);
  });

  it('a text the gateway refuses for good, or whose sender stopped mid-call, loses the password too', async () => {
    // 2567000004NN: the simulator answers status NN (403 InvalidPhoneNumber: never retried).
    const refused = await createAgentAs(t, admin, { send_credentials_via: 'sms', phone: '0700000403' });
    await dispatch();
    const [failed] = await textsTo(refused.agent.phone);
    expect(failed).toMatchObject({ status: 'failed', body: REMOVED_UNSENT });
    expect(await inbox(refused.agent.phone)).toEqual([]);

    const stuck = await createAgentAs(t, admin, { send_credentials_via: 'sms' });
    const stale = new Date(t.clock.now().getTime() - STALE_SENDING_MS - 1000);
    await db()
      .update(smsOutbox)
      .set({ status: 'sending', updatedAt: stale })
      .where(eq(smsOutbox.toPhone, stuck.agent.phone));
    await dispatch();
    expect((await textsTo(stuck.agent.phone))[0]).toMatchObject({ status: 'failed', body: REMOVED_UNSENT });
    expect(await storedAnywhere(stuck.password)).toBe(0);
  });

  it('with the dispatcher off nothing is queued, and a restart clears what it left queued', async () => {
    const off = await createTestApp(kind, {
      database: t.deps.database,
      keepDatabaseOpen: true,
      clock: t.clock,
      env: { SMS_DISPATCH_INTERVAL_MS: '0' },
    });
    try {
      const res = await off.request('POST', '/api/agents', {
        token: await loginAdmin(off),
        body: newAgent({ send_credentials_via: 'sms' }),
      });
      expect(res.status).toBe(201);
      const created = CreateAgentResponse.parse(res.json);
      expect(created.credentialsSmsQueued).toBe(false);
      expect(await textsTo(created.agent.phone!)).toEqual([]);
    } finally {
      await off.close();
    }
    // Queued by a server whose dispatcher was on, then restarted without it: nothing will send it.
    admin = await loginAdmin(t);
    const left = await createAgentAs(t, admin, { send_credentials_via: 'sms' });
    expect(await forgetUnsendableSmsSecrets(db(), true)).toBe(0);
    expect(await forgetUnsendableSmsSecrets(db(), false)).toBe(1);
    expect((await textsTo(left.agent.phone))[0]).toMatchObject({ status: 'failed', body: REMOVED_UNSENT });
    expect(await storedAnywhere(left.password)).toBe(0);
  });
});
