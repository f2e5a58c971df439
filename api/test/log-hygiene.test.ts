import { Writable } from 'node:stream';
import { AuthResponse, CreateAgentResponse, contracts } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { createDeps, createLogger } from '../src/bootstrap.ts';
import type { Database } from '../src/db/client.ts';
import { mailOutbox } from '../src/db/schema.ts';
import type { Deps } from '../src/deps.ts';
import { createDpoGateway } from '../src/features/payments/dpo/adapter.ts';
import { deliverSmsOutbox } from '../src/features/sms/outbox.ts';
import { exchangeLogger } from '../src/features/payments/gateway.ts';
import { systemClock } from '../src/lib/clock.ts';
import { ADMIN, freshDatabase, newUser, testConfig, testDatabases } from './harness.ts';

/** What the server logs while real flows run: no password or token may ever appear in it. */
describe.each(testDatabases)('logs never carry secrets on %s', (kind) => {
  let database: Database;
  let deps: Deps;
  let app: ReturnType<typeof createApp>;
  const lines: string[] = [];

  beforeAll(async () => {
    database = await freshDatabase(kind);
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    deps = await createDeps(testConfig(), { database, logger: createLogger('trace', sink) });
    app = createApp(deps);
  });
  afterAll(() => database.close());

  const post = (path: string, body: unknown, token?: string) =>
    app.request(`/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });

  it('logs each request with id, method, path, status and duration, and no password or token', async () => {
    const user = newUser();
    const registered = AuthResponse.parse(await (await post(contracts.auth.register.path, user)).json());
    await post(contracts.auth.login.path, { identifier: user.email, password: 'wrong password here' });
    const admin = AuthResponse.parse(
      await (await post(contracts.auth.login.path, { identifier: ADMIN.email, password: ADMIN.password })).json(),
    );
    const agentBody = {
      full_name: 'Agent Log',
      phone: '0701000001',
      email: 'agent.log@example.com',
      send_credentials_via: 'both',
    };
    const created = CreateAgentResponse.parse(
      await (await post(contracts.agents.createAgent.path, agentBody, admin.token)).json(),
    );
    // The credentials SMS goes through the simulator, which logs every text it takes (decision 0147).
    while ((await deliverSmsOutbox(deps, deps.sms)) > 0);

    const log = lines.join('');
    const secrets = [
      user.password,
      'wrong password here',
      ADMIN.password,
      registered.token,
      admin.token,
      created.generatedPassword,
    ];
    for (const secret of secrets) expect(log).not.toContain(secret);

    const requestLines = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request');
    expect(requestLines).toContainEqual(
      expect.objectContaining({
        method: 'POST',
        path: '/api/auth/register',
        status: 201,
        requestId: expect.any(String),
        durationMs: expect.any(Number),
      }),
    );
    expect(requestLines).toContainEqual(expect.objectContaining({ path: '/api/auth/login', status: 401 }));
    expect(log).toContain('mail queued');
    expect(log).toContain('Password: [not logged]');

    // The credentials mail is in the outbox, addressed to the agent, but without SMTP nothing will deliver it:
    // the password is not stored (the admin was shown it once, above).
    const [mail] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'agent.log@example.com'));
    expect(mail?.body).toContain('agent.log@example.com');
    expect(mail?.body).not.toContain(created.generatedPassword);
  });
});

describe("DPO exchanges in the log never carry the payer's phone or name", () => {
  it('masks them in requests, answers and the flattened answer kept for review', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    // DPO's answers as DPO sends them: the payer's name and phone (without 256) echoed back.
    const answers: Record<string, string> = {
      ChargeTokenMobile:
        '<API3G><StatusCode>130</StatusCode><ResultExplanation>New invoice</ResultExplanation></API3G>',
      verifyToken:
        '<API3G><Result>000</Result><ResultExplanation>Transaction Paid</ResultExplanation>' +
        '<CustomerName>Nakato Sarah</CustomerName><CustomerPhone>772123456</CustomerPhone>' +
        '<customerEmail>nakato.sarah@example.com</customerEmail><TransactionAmount>15000.00</TransactionAmount></API3G>',
    };
    const gateway = createDpoGateway({
      apiUrl: 'https://dpo.invalid/API/v6/',
      companyToken: 'COMPANY-TOKEN-1',
      serviceType: '5525',
      ptlMinutes: 15,
      timeoutMs: 1000,
      retries: 0,
      clock: systemClock,
      onExchange: exchangeLogger(createLogger('trace', sink)),
      fetch: async (_url, init) => {
        const operation = /<Request>(\w+)<\/Request>/.exec(String(init?.body))![1]!;
        return new Response(`<?xml version="1.0" encoding="utf-8"?>${answers[operation]}`, { status: 200 });
      },
    });
    await gateway.chargeTokenMobile({
      transToken: 'TOKEN-1',
      phoneNumber: '0772123456',
      mno: 'MTNmobilemoney',
      country: 'uganda',
    });
    const verified = await gateway.verifyToken('TOKEN-1');

    const log = lines.join('');
    expect(log).toContain('dpo exchange');
    for (const personal of ['772123456', 'Nakato', 'Sarah', 'nakato.sarah']) {
      expect(log).not.toContain(personal);
      // What settle logs when a payment needs review.
      expect(JSON.stringify(verified.raw)).not.toContain(personal);
    }
    // Still enough to match a complaint.
    expect(log).toContain('7721***456');
    expect(verified.raw).toMatchObject({ CustomerName: 'N*** S***', CustomerPhone: '7721***456' });
  });
});
