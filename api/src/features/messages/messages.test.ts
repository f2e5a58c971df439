import { MessageList, ResendResponse, SmsGatewayState } from '@filamu/shared';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  TestClock,
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  registerProvenUser,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { mailOutbox, pushMessages, smsOutbox } from '../../db/schema.ts';
import { deliverSmsOutbox, queueSms } from '../sms/outbox.ts';
import { simulatorRuntime } from '../sms/runtime.ts';
import { HIDDEN_BODY } from './withheld.ts';

describe.each(testDatabases)('the Messages view on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  beforeAll(async () => {
    const clock = new TestClock();
    const sms = simulatorRuntime(clock, pino({ level: 'silent' }), { timeoutMs: 2000, deliveryDelayMs: 5 });
    t = await createTestApp(kind, { clock, sms });
    adminToken = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const db = () => t.deps.database.db;
  const list = async (query: string) => {
    const res = await t.request('GET', `/api/admin/messages?${query}`, { token: adminToken });
    expect(res.status, res.text).toBe(200);
    return MessageList.parse(res.json);
  };
  const resend = (channel: string, id: string, token = adminToken) =>
    t.request('POST', `/api/admin/messages/${channel}/${id}/resend`, { token });
  const sms = (to: string, text: string, purpose = 'receipt') => queueSms(db(), t.clock.now(), { to, text, purpose });

  it('lists SMS and email together, filters by channel and status, and finds a phone typed as 07…', async () => {
    const phone = '256772555001';
    t.clock.advance(1000);
    const receipt = await sms(phone, 'Filamu: UGX 15,000 received for Monthly.');
    t.clock.advance(1000);
    await sms('256772555002', 'Filamu: another person');
    t.clock.advance(1000);
    const code = await sms(phone, 'Filamu code 123456', 'password_reset');
    t.clock.advance(1000);
    const [mail] = await db()
      .insert(mailOutbox)
      .values({
        toAddress: 'Someone@Example.com',
        subject: 'Receipt',
        body: 'Thanks',
        kind: 'receipt',
        createdAt: t.clock.now(),
      })
      .returning();

    const byPhone = await list('q=0772%20555%20001');
    expect(byPhone.messages.map((m) => m.id)).toEqual([code, receipt]);
    const shownCode = byPhone.messages[0]!;
    expect(shownCode).toMatchObject({ channel: 'sms', to: phone, purpose: 'password_reset', status: 'queued' });
    // A code is never shown to the console, and the reason it is not resendable is.
    expect(shownCode.body).not.toContain('123456');
    expect(shownCode.not_resendable).toContain('password reset code');
    expect(byPhone.messages[1]).toMatchObject({
      body: 'Filamu: UGX 15,000 received for Monthly.',
      not_resendable: null,
      // No account has this number.
      recipient_name: null,
    });

    expect((await list('q=%2B256772555001')).messages).toHaveLength(2);
    expect((await list('q=555001')).messages.map((m) => m.id)).toEqual([code, receipt]);
    expect((await list('q=someone%40example.com')).messages.map((m) => m.id)).toEqual([mail!.id]);
    expect((await list('q=example')).messages.map((m) => m.id)).toEqual([mail!.id]);

    const all = await list('limit=100');
    expect(all.messages[0]).toMatchObject({ id: mail!.id, channel: 'email', subject: 'Receipt', parts: null });
    expect((await list('channel=email')).messages.every((m) => m.channel === 'email')).toBe(true);
    expect((await list('channel=sms&limit=100')).messages.every((m) => m.channel === 'sms')).toBe(true);
    expect((await list('channel=push')).messages).toEqual([]);

    await deliverSmsOutbox(t.deps, t.deps.sms);
    const sent = await list(`q=${phone}&status=queued`);
    expect(sent.messages).toEqual([]);
    const after = await list(`q=${phone}&channel=sms`);
    expect(after.messages.every((m) => ['sent', 'delivered'].includes(m.status))).toBe(true);
    expect(after.messages[1]).toMatchObject({ parts: 1, cost: 'UGX 35.0000', attempts: 1 });
  });

  it('pages by keyset without losing or repeating a row, ties and microseconds included', async () => {
    const phone = '256772555100';
    const at = (micro: string) => sql`${`2026-03-01T10:00:00.${micro}Z`}::timestamptz`;
    const rows = [
      ...['123456', '123456', '123456', '123400', '000001'].map((micro, i) => ({
        toPhone: phone,
        body: `m${i}`,
        purpose: 'receipt',
        createdAt: at(micro),
        updatedAt: at(micro),
      })),
    ];
    const ids = (await db().insert(smsOutbox).values(rows).returning({ id: smsOutbox.id })).map((r) => r.id);
    const seen: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const page = await list(`q=${phone}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.messages.length).toBeLessThanOrEqual(2);
      seen.push(...page.messages.map((m) => m.id));
      cursor = page.nextCursor;
      pages += 1;
    }
    expect(pages).toBe(3);
    expect([...seen].sort()).toEqual([...ids].sort());
    expect(new Set(seen).size).toBe(ids.length);
    // Newest first: the three at .123456, then .123400, then .000001.
    expect(seen.slice(3)).toEqual([ids[3], ids[4]]);

    expectErrorEnvelope(
      await t.request('GET', '/api/admin/messages?cursor=bm9wZQ', { token: adminToken }),
      400,
      'bad_request',
    );
    expectErrorEnvelope(
      await t.request('GET', '/api/admin/messages?limit=101', { token: adminToken }),
      400,
      'validation_error',
    );
  });

  it('resends an SMS as one new row that the dispatcher sends through the simulator, once per press', async () => {
    const phone = '256772555200';
    const original = await sms(phone, 'Filamu: your plan ends in 3 days.', 'plan_reminder');
    await deliverSmsOutbox(t.deps, t.deps.sms);

    // Two admins press together: one copy.
    const [a, b] = await Promise.all([resend('sms', original), resend('sms', original)]);
    expect([a.status, b.status].sort()).toEqual([201, 429]);
    const { resent } = ResendResponse.parse((a.status === 201 ? a : b).json);
    expect(resent).toMatchObject({ channel: 'sms', to: phone, status: 'queued', resent_from: original });

    const copies = await db().select().from(smsOutbox).where(eq(smsOutbox.resentFrom, original));
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({
      toPhone: phone,
      body: 'Filamu: your plan ends in 3 days.',
      purpose: 'plan_reminder',
    });

    expect(await deliverSmsOutbox(t.deps, t.deps.sms)).toBe(1);
    const received = t.deps.smsSimulator!.messages(phone);
    expect(received.map((m) => m.text)).toEqual([
      'Filamu: your plan ends in 3 days.',
      'Filamu: your plan ends in 3 days.',
    ]);
    const [copy] = await db().select().from(smsOutbox).where(eq(smsOutbox.id, resent.id));
    expect(copy!.gatewayMessageId).toBe(received[0]!.messageId);

    // A minute later it may be resent again.
    t.clock.advance(61_000);
    expect((await resend('sms', original)).status).toBe(201);
  });

  it('resends an email, never a code or credentials, nor push, and only for admins', async () => {
    const [mail] = await db()
      .insert(mailOutbox)
      .values({ toAddress: 'receipt@example.com', subject: 'Receipt', body: 'Thanks', kind: 'receipt' })
      .returning();
    const res = await resend('email', mail!.id);
    expect(res.status).toBe(201);
    const copies = await db().select().from(mailOutbox).where(eq(mailOutbox.resentFrom, mail!.id));
    expect(copies).toMatchObject([{ toAddress: 'receipt@example.com', subject: 'Receipt', status: 'queued' }]);

    const code = await sms('256772555300', 'Filamu code 654321', 'password_reset');
    const refused = await resend('sms', code);
    expectErrorEnvelope(refused, 409, 'conflict', /not resendable.*password reset code/);
    const [credentials] = await db()
      .insert(mailOutbox)
      .values({ toAddress: 'agent@example.com', subject: 'Your login', body: 'x', kind: 'agent_credentials' })
      .returning();
    expectErrorEnvelope(await resend('email', credentials!.id), 409, 'conflict', /not resendable/);
    expect(await db().select().from(smsOutbox).where(eq(smsOutbox.resentFrom, code))).toEqual([]);

    expectErrorEnvelope(await resend('push', code), 409, 'conflict');
    expectErrorEnvelope(await resend('sms', '7f1c9a52-3b1e-4c6d-9a8b-2e5f4d3c2b1a'), 404, 'not_found');
    expectErrorEnvelope(await resend('fax', code), 400, 'validation_error');
    const { token } = await registerUser(t);
    expectErrorEnvelope(await resend('email', mail!.id, token), 403, 'forbidden');
    expectErrorEnvelope(await t.request('GET', '/api/admin/messages', { token }), 403, 'forbidden');
  });

  it("an admin's password reset texts the new password to a proven phone, hidden here and never resendable", async () => {
    const { user } = await registerProvenUser(t);
    const reset = await t.request('POST', `/api/admin/subscribers/${user.id}/reset-password`, { token: adminToken });
    const { newPassword } = reset.json as { newPassword: string };
    const found = await list(`q=${user.phone}`);
    expect(found.messages).toHaveLength(1);
    expect(found.messages[0]).toMatchObject({
      purpose: 'subscriber_credentials',
      body: HIDDEN_BODY,
      // Support reads whose number it is.
      recipient_name: user.fullName,
    });
    expect(found.messages[0]!.not_resendable).toContain("Reset the person's password in Subscribers instead.");
    expect(JSON.stringify(found)).not.toContain(newPassword);
    expectErrorEnvelope(await resend('sms', found.messages[0]!.id), 409, 'conflict');
  });

  it("shows the gateway's balance, and unavailable when it cannot be read", async () => {
    const state = async () => {
      const res = await t.request('GET', '/api/admin/sms/gateway', { token: adminToken });
      expect(res.status).toBe(200);
      return SmsGatewayState.parse(res.json);
    };
    expect(await state()).toMatchObject({ gateway: 'simulator', state: 'ok', balance: expect.stringMatching(/^UGX /) });
    t.deps.smsSimulator!.failUserData(500);
    expect(await state()).toMatchObject({ gateway: 'simulator', state: 'unavailable', balance: null });
    t.deps.smsSimulator!.failUserData(null);
  });

  it('lists a person’s pushes, found by their phone or email, with the push service’s error, and never resends them', async () => {
    const { body, user } = await registerUser(t);
    t.clock.advance(1000);
    const [push] = await db()
      .insert(pushMessages)
      .values({
        userId: user.id as string,
        kind: 'payment_confirmed',
        title: 'Payment received',
        body: 'UGX 15,000 for Monthly.',
        url: '/dashboard',
        status: 'failed',
        error: 'push service answered 400',
        createdAt: t.clock.now(),
      })
      .returning();
    for (const q of [encodeURIComponent(body.phone as string), encodeURIComponent(body.email as string)]) {
      const found = (await list(`q=${q}&channel=push`)).messages;
      expect(found.map((m) => m.id)).toEqual([push!.id]);
      expect(found[0]).toMatchObject({
        channel: 'push',
        to: body.email,
        subject: 'Payment received',
        body: 'UGX 15,000 for Monthly.',
        status: 'failed',
        error: 'push service answered 400',
      });
      expect(found[0]!.not_resendable).toContain('not resent');
    }
    expect((await list('status=failed&limit=100')).messages.map((m) => m.id)).toContain(push!.id);
    const refused = await resend('push', push!.id);
    expectErrorEnvelope(refused, 409, 'conflict');
  });
});
