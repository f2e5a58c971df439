import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, TestClock, testDatabases } from '../../../test/harness.ts';
import { smsOutbox } from '../../db/schema.ts';
import { STALE_SENDING_MS } from '../../lib/outbox-claim.ts';
import { deliverSmsOutbox, queueSms } from './outbox.ts';
import { simulatorRuntime } from './runtime.ts';

const REPORT_SECRET = 'report-secret-0123456789';

async function appWithSimulator(
  kind: (typeof testDatabases)[number],
  options: { timeoutMs?: number; slowMs?: number; env?: Record<string, string> } = {},
) {
  const clock = new TestClock();
  const sms = simulatorRuntime(clock, pino({ level: 'silent' }), {
    timeoutMs: options.timeoutMs ?? 2000,
    deliveryDelayMs: 5,
    slowMs: options.slowMs,
  });
  return createTestApp(kind, { clock, sms, env: options.env });
}

const rows = (t: TestApp) => t.deps.database.db.select().from(smsOutbox).orderBy(smsOutbox.createdAt);

describe.each(testDatabases)('the SMS outbox on %s', (kind) => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it('sends a queued message once, keeps the gateway id, parts and cost, and records its delivery', async () => {
    t = await appWithSimulator(kind);
    await queueSms(t.deps.database.db, t.clock.now(), { to: '256772123456', text: 'Code 123456', purpose: 'test' });
    expect(await deliverSmsOutbox(t.deps, t.deps.sms)).toBe(1);
    expect(await deliverSmsOutbox(t.deps, t.deps.sms)).toBe(0);
    const [row] = await rows(t);
    // Sent, or already delivered: the simulator reports 5 ms after accepting.
    expect(['sent', 'delivered']).toContain(row!.status);
    expect(row).toMatchObject({ attempts: 1, parts: 1, cost: 'UGX 35.0000', error: null });
    expect(row!.sentAt).not.toBeNull();
    const [received] = t.deps.smsSimulator!.messages('256772123456');
    expect(received).toMatchObject({ text: 'Code 123456', messageId: row!.gatewayMessageId });
    // The simulator's delivery report goes through the callback's own function.
    await expect.poll(async () => (await rows(t))[0]!.status).toBe('delivered');
    expect(t.deps.smsSimulator!.requests()).toBe(1);
  });

  it('under two workers sends each message exactly once', async () => {
    t = await appWithSimulator(kind);
    const db = t.deps.database.db;
    for (let i = 0; i < 12; i++) {
      await queueSms(db, t.clock.now(), {
        to: `2567721234${String(i).padStart(2, '0')}`,
        text: `m${i}`,
        purpose: 'test',
      });
    }
    const [a, b] = await Promise.all([deliverSmsOutbox(t.deps, t.deps.sms), deliverSmsOutbox(t.deps, t.deps.sms)]);
    expect(a + b).toBe(12);
    expect(t.deps.smsSimulator!.requests()).toBe(12);
    const texts = t.deps.smsSimulator!.messages().map((m) => m.text);
    expect(new Set(texts).size).toBe(12);
    expect((await rows(t)).every((row) => row.attempts === 1)).toBe(true);
  });

  it('never sends again a message the gateway accepted and then timed out on', async () => {
    t = await appWithSimulator(kind, { timeoutMs: 200, slowMs: 1000 });
    await queueSms(t.deps.database.db, t.clock.now(), { to: '256700000900', text: 'Code 1', purpose: 'test' });
    expect(await deliverSmsOutbox(t.deps, t.deps.sms)).toBe(0);
    const [row] = await rows(t);
    expect(row!.status).toBe('failed');
    expect(row!.error).toMatch(/^outcome unknown/);
    t.clock.advance(3_600_000);
    await deliverSmsOutbox(t.deps, t.deps.sms);
    expect(t.deps.smsSimulator!.requests()).toBe(1);
    expect(t.deps.smsSimulator!.messages('256700000900')).toHaveLength(1);
  });

  it('retries with back-off what the gateway did not accept, and gives up on a refusal that will not change', async () => {
    t = await appWithSimulator(kind);
    const db = t.deps.database.db;
    t.deps.smsSimulator!.script({ kind: 'status', code: 405 }, { kind: 'http', status: 500 });
    await queueSms(db, t.clock.now(), { to: '256772000001', text: 'later', purpose: 'test' });
    expect(await deliverSmsOutbox(t.deps, t.deps.sms)).toBe(0);
    expect(await rows(t)).toMatchObject([{ status: 'queued', attempts: 1, error: '405 InsufficientBalance' }]);
    // Not due yet: nothing is sent until the back-off has passed.
    expect(await deliverSmsOutbox(t.deps, t.deps.sms)).toBe(0);
    expect(t.deps.smsSimulator!.requests()).toBe(1);
    t.clock.advance(5000);
    expect(await deliverSmsOutbox(t.deps, t.deps.sms)).toBe(0);
    expect(await rows(t)).toMatchObject([{ status: 'queued', attempts: 2 }]);
    t.clock.advance(9999);
    expect(await deliverSmsOutbox(t.deps, t.deps.sms)).toBe(0);
    t.clock.advance(1);
    expect(await deliverSmsOutbox(t.deps, t.deps.sms)).toBe(1);
    const [sent] = await rows(t);
    expect(sent).toMatchObject({ attempts: 3, error: null });
    expect(['sent', 'delivered']).toContain(sent!.status);

    await db.delete(smsOutbox);
    await queueSms(db, t.clock.now(), { to: '256700000403', text: 'bad number', purpose: 'test' });
    await deliverSmsOutbox(t.deps, t.deps.sms);
    expect(await rows(t)).toMatchObject([{ status: 'failed', attempts: 1, error: '403 InvalidPhoneNumber' }]);
  });

  it('does not send a message past its deadline, and fails one a stopped replica left sending', async () => {
    t = await appWithSimulator(kind);
    const db = t.deps.database.db;
    await queueSms(db, t.clock.now(), {
      to: '256772000002',
      text: 'old code',
      purpose: 'test',
      expiresAt: new Date(t.clock.now().getTime() + 1000),
    });
    t.clock.advance(1000);
    await deliverSmsOutbox(t.deps, t.deps.sms);
    expect(await rows(t)).toMatchObject([{ status: 'failed', error: 'expired before it could be sent' }]);
    expect(t.deps.smsSimulator!.requests()).toBe(0);

    await db.delete(smsOutbox);
    const id = await queueSms(db, t.clock.now(), { to: '256772000003', text: 'x', purpose: 'test' });
    await db
      .update(smsOutbox)
      .set({ status: 'sending', attempts: 1, updatedAt: t.clock.now() })
      .where(eq(smsOutbox.id, id));
    t.clock.advance(STALE_SENDING_MS + 1);
    await deliverSmsOutbox(t.deps, t.deps.sms);
    expect(await rows(t)).toMatchObject([{ status: 'failed' }]);
    expect((await rows(t))[0]!.error).toMatch(/^outcome unknown/);
    expect(t.deps.smsSimulator!.requests()).toBe(0);
  });

  it("takes Africa's Talking's delivery reports on the callback, only with the secret", async () => {
    t = await appWithSimulator(kind, {
      env: { AT_API_KEY: 'k', AT_USERNAME: 'u', SMS_DELIVERY_REPORT_SECRET: REPORT_SECRET },
    });
    const db = t.deps.database.db;
    const id = await queueSms(db, t.clock.now(), { to: '256772000004', text: 'x', purpose: 'test' });
    await db.update(smsOutbox).set({ status: 'sent', gatewayMessageId: 'ATXid_report1' }).where(eq(smsOutbox.id, id));
    const report = (secret: string, form: string) =>
      t.request('POST', `/api/sms/delivery-reports?secret=${secret}`, {
        rawBody: form,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const failed = 'id=ATXid_report1&status=Failed&phoneNumber=%2B256772000004&failureReason=UserInBlacklist';
    expect((await report('wrong-secret-000000', failed)).status).toBe(403);
    expect(await rows(t)).toMatchObject([{ status: 'sent' }]);
    expect((await report(REPORT_SECRET, 'status=Success')).status).toBe(400);
    expect((await report(REPORT_SECRET, 'id=ATXid_unknown&status=Success')).status).toBe(200);
    expect((await report(REPORT_SECRET, failed)).status).toBe(200);
    expect(await rows(t)).toMatchObject([{ status: 'failed', error: 'Failed: UserInBlacklist' }]);

    await db.update(smsOutbox).set({ status: 'sent', error: null }).where(eq(smsOutbox.id, id));
    expect((await report(REPORT_SECRET, 'id=ATXid_report1&status=Buffered')).status).toBe(200);
    expect(await rows(t)).toMatchObject([{ status: 'sent' }]);
    expect((await report(REPORT_SECRET, 'id=ATXid_report1&status=Success')).status).toBe(200);
    expect(await rows(t)).toMatchObject([{ status: 'delivered' }]);
    // A late Failed after Success changes nothing.
    await report(REPORT_SECRET, failed);
    expect(await rows(t)).toMatchObject([{ status: 'delivered' }]);
  });
});
