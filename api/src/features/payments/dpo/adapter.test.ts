import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDpoGateway, type DpoGatewayOptions } from './adapter.ts';
import { GatewayError } from './errors.ts';
import { normaliseUgandaPhone, sameAmount } from './formatting.ts';
import { UGANDA_MNO, type GatewayExchange, type PaymentGateway } from './port.ts';
import { createDpoSandbox, DPO_SANDBOX_COMPANY_TOKEN, type DpoSandbox, type DpoSandboxOptions } from './sandbox.ts';
import { closedPort, listen, listenSilent, MovableClock, type Running } from '../../../lib/loopback.testing.ts';
import type { Database } from '../../../db/client.ts';
import { dpoSandboxTransactions } from '../../../db/schema.ts';
import { freshDatabase } from '../../../../test/harness.ts';

const MOUNT = '/sandbox/dpo/API/v6';
const PTL_MINUTES = 30;

interface World {
  clock: MovableClock;
  sandbox: DpoSandbox;
  server: Running;
  apiUrl: string;
  gateway: PaymentGateway;
  notified: string[];
}

const worlds: World[] = [];
/** One database for the file; each world starts from an empty gateway (its sweep must not see another's tokens). */
let database: Database;
beforeAll(async () => {
  database = await freshDatabase('pglite');
  await database.prepare(async () => undefined);
});
afterAll(() => database.close());

/** A sandbox mounted the way the app will mount it, on a real port, and an adapter pointed at it. */
async function world(
  sandboxOptions: Partial<DpoSandboxOptions> = {},
  gatewayOptions: Partial<DpoGatewayOptions> = {},
): Promise<World> {
  const clock = new MovableClock();
  const notified: string[] = [];
  await database.db.delete(dpoSandboxTransactions);
  const sandbox = createDpoSandbox({
    clock,
    database,
    paymentDelayMs: 3000,
    settleIntervalMs: 0,
    notify: async (token) => {
      notified.push(token);
    },
    ...sandboxOptions,
  });
  const app = new Hono();
  app.route(MOUNT, sandbox.app);
  const server = await listen(app);
  const apiUrl = `${server.url}${MOUNT}/`;
  const gateway = createDpoGateway({
    apiUrl,
    companyToken: sandbox.companyToken,
    serviceType: 3854,
    ptlMinutes: PTL_MINUTES,
    timeoutMs: 2000,
    retries: 0,
    retryDelayMs: 10,
    clock,
    ...gatewayOptions,
  });
  const w = { clock, sandbox, server, apiUrl, gateway, notified };
  worlds.push(w);
  return w;
}

afterEach(async () => {
  for (const w of worlds.splice(0)) {
    w.sandbox.close();
    await w.server.close();
  }
});

const order = (overrides: Partial<Parameters<PaymentGateway['createToken']>[0]> = {}) => ({
  companyRef: `pay_${Math.random().toString(36).slice(2, 10)}`,
  amount: 15000,
  currency: 'UGX',
  description: 'Monthly movie subscription',
  customerPhone: '0772123456',
  customerEmail: 'jane@example.com',
  serviceDate: new Date('2026-11-22T09:00:00.000Z'),
  ...overrides,
});

/** createToken → ChargeTokenMobile with the given phone; returns the token. */
async function charged(w: World, phoneNumber: string, mno: string = UGANDA_MNO.mtn) {
  const created = await w.gateway.createToken(order());
  const charge = await w.gateway.chargeTokenMobile({
    transToken: created.transToken,
    phoneNumber,
    mno,
    country: 'uganda',
  });
  expect(charge.code).toBe('130');
  return created;
}

describe('DPO adapter against the sandbox over HTTP', () => {
  it('pays after the delay: 900 before, 000 after, a string code, the amount and currency we asked for', async () => {
    const w = await world();
    const input = order({ companyRef: 'sub_<&>"\'_9f2c' });
    const created = await w.gateway.createToken(input);
    expect(created.code).toBe('000');
    expect(created.transToken).toMatch(/^[0-9A-F-]{36}$/);
    expect(created.transRef).not.toBe('');
    expect(created.expiresAt.getTime() - w.clock.now().getTime()).toBe(PTL_MINUTES * 60_000);
    expect((await w.sandbox.transaction(created.transToken))?.expiresAt).toEqual(created.expiresAt);

    const options = await w.gateway.getMobilePaymentOptions(created.transToken);
    expect(options.options.map((o) => o.paymentName)).toEqual(['MTNmobilemoney', 'Mobile_Airtel_UG']);
    expect(options.options[0]).toMatchObject({
      country: 'uganda',
      countryCode: 'UG',
      amount: '15000',
      currency: 'UGX',
    });

    const charge = await w.gateway.chargeTokenMobile({
      transToken: created.transToken,
      phoneNumber: '+256 772 000 005',
      mno: options.options[0]!.paymentName,
      country: 'uganda',
    });
    expect(charge).toMatchObject({ code: '130', explanation: 'New invoice', redirectOption: false });
    expect(charge.steps.length).toBe(4);

    const early = await w.gateway.verifyToken(created.transToken);
    expect(early).toMatchObject({ outcome: 'pending', code: '900', mobilePaymentRequest: 'Sent' });
    w.clock.advance(2999);
    expect((await w.gateway.verifyToken(created.transToken)).outcome).toBe('pending');
    w.clock.advance(1);

    const paid = await w.gateway.verifyToken(created.transToken);
    expect(paid.outcome).toBe('paid');
    expect(paid.code).toBe('000');
    expect(typeof paid.code).toBe('string');
    expect(paid.raw.Result).toBe('000');
    expect(paid.transactionCurrency).toBe(input.currency);
    expect(paid.transactionAmount).toBe('15000.00');
    expect(sameAmount(paid.transactionAmount!, input.amount)).toBe(true);
    expect(paid.companyRef).toBe(input.companyRef);
    expect(paid.transRef).toBe(created.transRef);
    expect(paid.checkedAt).toEqual(w.clock.now());
  });

  it('pushes exactly once per paid transaction, however often it is verified, even when the push verifies', async () => {
    const pushes: string[] = [];
    const pushOutcomes: string[] = [];
    const late: { gateway?: PaymentGateway } = {};
    const w = await world({
      notify: async (token) => {
        pushes.push(token);
        // What the app will do on a push: verify again (the push itself is untrusted).
        pushOutcomes.push((await late.gateway!.verifyToken(token)).outcome);
      },
    });
    late.gateway = w.gateway;
    const paid = await charged(w, '256772000000');
    const unpaid = await charged(w, '256772000002');
    await w.sandbox.settle();
    expect(pushes).toEqual([]);
    w.clock.advance(3000);
    await Promise.all(Array.from({ length: 5 }, () => w.gateway.verifyToken(paid.transToken)));
    await w.sandbox.settle();
    await w.gateway.verifyToken(paid.transToken);
    await w.sandbox.settle();
    expect(pushes).toEqual([paid.transToken]);
    expect(pushOutcomes).toEqual(['paid']);
    expect(pushes).not.toContain(unpaid.transToken);
  });

  it('pushes without anyone polling once the background settling runs', async () => {
    const w = await world({ settleIntervalMs: 20 });
    const created = await charged(w, '256772000009');
    w.clock.advance(3000);
    await expect.poll(() => w.notified, { timeout: 2000, interval: 20 }).toEqual([created.transToken]);
  });

  it('declines on a number ending in 1 (901), after the delay', async () => {
    const w = await world();
    const created = await charged(w, '256772000001');
    expect((await w.gateway.verifyToken(created.transToken)).code).toBe('900');
    w.clock.advance(3000);
    const result = await w.gateway.verifyToken(created.transToken);
    expect(result).toMatchObject({ outcome: 'declined', code: '901', explanation: 'Transaction declined' });
    await w.sandbox.settle();
    expect(w.notified).toEqual([]);
  });

  it('never pays a number ending in 2: 900 until the PTL passes, then 903', async () => {
    const w = await world();
    const created = await charged(w, '256772000002', UGANDA_MNO.airtel);
    w.clock.advance(60_000);
    expect(await w.gateway.verifyToken(created.transToken)).toMatchObject({ outcome: 'pending', code: '900' });
    w.clock.advance(PTL_MINUTES * 60_000 - 60_001);
    expect((await w.gateway.verifyToken(created.transToken)).code).toBe('900');
    w.clock.advance(1);
    expect(await w.gateway.verifyToken(created.transToken)).toMatchObject({ outcome: 'expired', code: '903' });
    // An expired token cannot be charged again.
    await expect(
      w.gateway.chargeTokenMobile({
        transToken: created.transToken,
        phoneNumber: '256772000005',
        mno: 'MTNmobilemoney',
        country: 'uganda',
      }),
    ).rejects.toMatchObject({ kind: 'protocol', dpoCode: '904' });
  });

  it('expires a token that was never charged once its PTL passes', async () => {
    const w = await world();
    const created = await w.gateway.createToken(order());
    w.clock.advance(PTL_MINUTES * 60_000);
    expect((await w.gateway.verifyToken(created.transToken)).outcome).toBe('expired');
  });

  it('reports a number ending in 3 as cancelled (904)', async () => {
    const w = await world();
    const created = await charged(w, '256752000003', UGANDA_MNO.airtel);
    w.clock.advance(3000);
    expect(await w.gateway.verifyToken(created.transToken)).toMatchObject({ outcome: 'cancelled', code: '904' });
  });

  it('sends a number ending in 4 (over/underpaid, 002) to review, with the amount actually paid', async () => {
    const w = await world();
    const created = await charged(w, '256772000004');
    w.clock.advance(3000);
    const result = await w.gateway.verifyToken(created.transToken);
    expect(result).toMatchObject({ outcome: 'review', code: '002', transactionCurrency: 'UGX' });
    expect(sameAmount(result.transactionAmount!, 15000)).toBe(false);
    await w.sandbox.settle();
    expect(w.notified).toEqual([]);
  });

  it('cancels a token (verify says 904) and refuses to cancel a paid one', async () => {
    const w = await world();
    const open = await w.gateway.createToken(order());
    expect(await w.gateway.cancelToken(open.transToken)).toEqual({
      code: '000',
      explanation: 'Token been updated to status cancelled',
    });
    expect((await w.gateway.verifyToken(open.transToken)).outcome).toBe('cancelled');

    const paid = await charged(w, '256772000005');
    w.clock.advance(3000);
    expect((await w.gateway.verifyToken(paid.transToken)).outcome).toBe('paid');
    await expect(w.gateway.cancelToken(paid.transToken)).rejects.toMatchObject({ kind: 'protocol', dpoCode: '999' });
  });

  it('reads a single mobileoption as a one-element list, and the v7 shape with fee and total', async () => {
    const single = await world({ mnos: ['MTNmobilemoney'] });
    const token = (await single.gateway.createToken(order())).transToken;
    const one = await single.gateway.getMobilePaymentOptions(token);
    expect(one.code).toBeUndefined();
    expect(one.options).toHaveLength(1);
    expect(one.options[0]!.paymentName).toBe('MTNmobilemoney');

    const v7 = await world({ mobileOptionsFormat: 'v7' });
    const many = await v7.gateway.getMobilePaymentOptions((await v7.gateway.createToken(order())).transToken);
    expect(many.code).toBe('000');
    expect(many.explanation).toBe('Results Found');
    expect(many.options).toHaveLength(2);
    expect(many.options[1]).toMatchObject({ paymentName: 'Mobile_Airtel_UG', fee: '0.000', total: '15000' });
  });

  it('reads instructions with a bare & and entities missing their ;, split into steps', async () => {
    const w = await world();
    const created = await w.gateway.createToken(order());
    const [mtn, airtel] = (await w.gateway.getMobilePaymentOptions(created.transToken)).options;
    expect(mtn!.steps).toEqual([
      'MTN will send you a request to complete the payment of UGX 15000.',
      "If you don't get the prompt, dial *165# & select My Approvals.",
      'Enter your Mobile Money PIN to approve.',
      'Shortly, you will receive an SMS confirmation.',
    ]);
    expect(airtel!.instructions).toContain('dial *185# & choose Payments');
    const charge = await w.gateway.chargeTokenMobile({
      transToken: created.transToken,
      phoneNumber: '0752000005',
      mno: airtel!.paymentName,
      country: 'uganda',
    });
    expect(charge.instructions).toBe(airtel!.instructions);
  });

  it('maps ChargeTokenMobile StatusCode errors to GatewayError codes', async () => {
    const w = await world();
    const { transToken } = await w.gateway.createToken(order());
    const attempt = (phoneNumber: string, mno: string) =>
      w.gateway.chargeTokenMobile({ transToken, phoneNumber, mno, country: 'uganda' });
    await expect(attempt('12345', 'MTNmobilemoney')).rejects.toMatchObject({ kind: 'protocol', dpoCode: '955' });
    await expect(attempt('256772000005', 'Africell_UG')).rejects.toMatchObject({ kind: 'protocol', dpoCode: '956' });
    await expect(
      w.gateway.chargeTokenMobile({
        transToken: 'NOPE',
        phoneNumber: '256772000005',
        mno: 'MTNmobilemoney',
        country: 'uganda',
      }),
    ).rejects.toMatchObject({ dpoCode: '951' });
  });

  it('answers a wrong company token with 802 and never reveals the token', async () => {
    const w = await world();
    const secret = 'AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE';
    const log: GatewayExchange[] = [];
    const wrong = createDpoGateway({
      apiUrl: w.apiUrl,
      companyToken: secret,
      serviceType: 3854,
      ptlMinutes: 30,
      timeoutMs: 2000,
      retries: 2,
      retryDelayMs: 10,
      clock: w.clock,
      onExchange: (exchange) => log.push(exchange),
    });
    const error = await wrong.createToken(order()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ kind: 'protocol', operation: 'createToken', dpoCode: '802', status: 503 });
    expect(String((error as Error).message)).toContain('802');
    expect(log).toHaveLength(1); // a parsed DPO error is never retried

    const verify = await wrong.verifyToken('72983CAC-5DB1-4C7F-BD88-352066B71592');
    expect(verify).toMatchObject({ outcome: 'error', code: '802', explanation: 'Company token does not exist' });
    // ChargeTokenMobile's generic errors come back as <Result>, not <StatusCode>.
    await expect(
      wrong.chargeTokenMobile({
        transToken: 'X',
        phoneNumber: '256772000005',
        mno: 'MTNmobilemoney',
        country: 'uganda',
      }),
    ).rejects.toMatchObject({ dpoCode: '802' });

    const everything = JSON.stringify(log) + JSON.stringify(error) + String((error as Error).stack);
    expect(everything).not.toContain(secret);
    expect(log[0]!.requestXml).toContain('<CompanyToken>[redacted]</CompanyToken>');
    expect(JSON.stringify(log)).not.toContain(DPO_SANDBOX_COMPANY_TOKEN);
  });

  it('treats an unknown token as a DPO answer, not a transport failure', async () => {
    const w = await world();
    expect(await w.gateway.verifyToken('00000000-0000-0000-0000-000000000000')).toMatchObject({ code: '902' });
    await expect(w.gateway.getMobilePaymentOptions('00000000-0000-0000-0000-000000000000')).rejects.toMatchObject({
      kind: 'protocol',
      dpoCode: '904',
    });
  });

  it('refuses amounts DPO would misread before sending anything', async () => {
    const w = await world();
    await expect(w.gateway.createToken(order({ amount: 15000.5 }))).rejects.toThrow(RangeError);
    await expect(w.gateway.createToken(order({ amount: -1 }))).rejects.toThrow(RangeError);
    const usd = await w.gateway.createToken(order({ amount: 12.5, currency: 'usd' }));
    expect(await w.sandbox.transaction(usd.transToken)).toMatchObject({ amount: '12.50', currency: 'USD' });
  });
});

describe('DPO adapter transport', () => {
  let sandboxWorld: World;
  beforeAll(async () => {
    sandboxWorld = await world();
    worlds.pop(); // lives for the whole block, not one test
  });
  afterAll(async () => {
    sandboxWorld.sandbox.close();
    await sandboxWorld.server.close();
  });

  const gatewayAt = (apiUrl: string, extra: Partial<DpoGatewayOptions> = {}) =>
    createDpoGateway({
      apiUrl,
      companyToken: DPO_SANDBOX_COMPANY_TOKEN,
      serviceType: 3854,
      ptlMinutes: 30,
      timeoutMs: 200,
      retries: 2,
      retryDelayMs: 20,
      clock: new MovableClock(),
      ...extra,
    });

  it('gives up on a server that never answers after 1 + retries timed-out attempts', async () => {
    const silent = await listenSilent();
    try {
      const log: GatewayExchange[] = [];
      const started = Date.now();
      const error = await gatewayAt(`${silent.url}/API/v6/`, { onExchange: (e) => log.push(e) })
        .verifyToken('T')
        .catch((e: unknown) => e);
      const elapsed = Date.now() - started;
      expect(error).toBeInstanceOf(GatewayError);
      expect(error).toMatchObject({ kind: 'transport', operation: 'verifyToken', attempts: 3 });
      expect((error as Error).message).toContain('timed out after 200 ms after 3 attempts');
      expect(silent.requests()).toBe(3);
      expect(log.map((e) => e.attempt)).toEqual([1, 2, 3]);
      expect(elapsed).toBeGreaterThanOrEqual(3 * 200 + 20 + 40 - 20);
      expect(elapsed).toBeLessThan(5000);
    } finally {
      await silent.close();
    }
  });

  it('retries a refused connection and reports a transport error', async () => {
    const url = await closedPort();
    const error = await gatewayAt(`${url}/API/v6/`, { retries: 1 })
      .cancelToken('T')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'transport', attempts: 2 });
    expect((error as Error).message).toMatch(/network error/);
  });

  it('retries 5xx and then succeeds against the sandbox', async () => {
    let hits = 0;
    const flaky = new Hono();
    flaky.use('*', async (c, next) => {
      hits += 1;
      if (hits <= 2) return c.text('upstream hiccup', hits === 1 ? 502 : 503);
      await next();
    });
    flaky.route(MOUNT, sandboxWorld.sandbox.app);
    const server = await listen(flaky);
    try {
      const created = await gatewayAt(`${server.url}${MOUNT}/`).createToken(order());
      expect(created.code).toBe('000');
      expect(hits).toBe(3);
      hits = -10; // every later request fails
      const error = await gatewayAt(`${server.url}${MOUNT}/`, { retries: 1 })
        .verifyToken(created.transToken)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'transport', httpStatus: 503, attempts: 2 });
    } finally {
      await server.close();
    }
  });

  const chargeInput = {
    transToken: 'T',
    phoneNumber: '256772000005',
    mno: 'MTNmobilemoney',
    country: 'uganda',
  } as const;

  it('never repeats a ChargeTokenMobile DPO may have acted on: 5xx and a timeout are one attempt, outcome unknown', async () => {
    let hits = 0;
    const failing = new Hono();
    failing.post('*', (c) => {
      hits += 1;
      return c.text('upstream hiccup', 502);
    });
    const server = await listen(failing);
    const silent = await listenSilent();
    try {
      const error = await gatewayAt(`${server.url}/API/v6/`)
        .chargeTokenMobile(chargeInput)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'transport', httpStatus: 502, attempts: 1, outcomeUnknown: true });
      expect(hits).toBe(1);
      const timedOut = await gatewayAt(`${silent.url}/API/v6/`)
        .chargeTokenMobile(chargeInput)
        .catch((e: unknown) => e);
      expect(timedOut).toMatchObject({ kind: 'transport', attempts: 1, outcomeUnknown: true });
      expect(silent.requests()).toBe(1);
      // The same failures on a call that moves no money are retried.
      await gatewayAt(`${server.url}/API/v6/`)
        .verifyToken('T')
        .catch(() => undefined);
      expect(hits).toBe(1 + 3);
    } finally {
      await server.close();
      await silent.close();
    }
  });

  it('retries a ChargeTokenMobile whose connection was refused (it never left), outcome known', async () => {
    const url = await closedPort();
    const error = await gatewayAt(`${url}/API/v6/`, { retries: 1 })
      .chargeTokenMobile(chargeInput)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'transport', attempts: 2, outcomeUnknown: false });
    expect((error as Error).message).toContain('ECONNREFUSED');
  });

  it('never retries a 4xx: reads an API3G body, rejects anything else', async () => {
    let hits = 0;
    let body = '<API3G><Result>804</Result><ResultExplanation>Error in XML</ResultExplanation></API3G>';
    const strict = new Hono();
    strict.post('*', (c) => {
      hits += 1;
      return c.body(body, 400, { 'Content-Type': 'application/xml' });
    });
    const server = await listen(strict);
    try {
      const gateway = gatewayAt(`${server.url}/API/v6/`);
      expect(await gateway.verifyToken('T')).toMatchObject({ outcome: 'error', code: '804' });
      expect(hits).toBe(1);
      body = '<html><body>Bad Request</body></html>';
      await expect(gateway.verifyToken('T')).rejects.toMatchObject({ kind: 'protocol', httpStatus: 400, attempts: 1 });
      expect(hits).toBe(2);
    } finally {
      await server.close();
    }
  });
});

describe('DPO response variants (canned DPO answers over HTTP)', () => {
  let answer = '';
  let lastRequest = '';
  let server: Running;
  let gateway: PaymentGateway;
  beforeAll(async () => {
    const canned = new Hono();
    canned.post('*', async (c) => {
      lastRequest = await c.req.text();
      return c.body(answer, 200, { 'Content-Type': 'text/xml' });
    });
    server = await listen(canned);
    gateway = createDpoGateway({
      apiUrl: `${server.url}/API/v6/`,
      companyToken: 'TOKEN-1',
      serviceType: 3854,
      ptlMinutes: 45,
      timeoutMs: 1000,
      retries: 0,
      clock: new MovableClock(),
    });
  });
  afterAll(() => server.close());

  it('reads ChargeTokenMobile success from StatusCode or from Result', async () => {
    const input = { transToken: 'T', phoneNumber: '0772123456', mno: 'MTNmobilemoney', country: 'uganda' as const };
    answer = `<?xml version="1.0" encoding="utf-8"?><API3G><StatusCode>130</StatusCode><ResultExplanation>New invoice</ResultExplanation><instructions>Approve on your phone</instructions><RedirectOption>1</RedirectOption></API3G>`;
    expect(await gateway.chargeTokenMobile(input)).toMatchObject({ code: '130', redirectOption: true });
    expect(lastRequest).toContain('<Request>ChargeTokenMobile</Request>');
    expect(lastRequest).toContain('<PhoneNumber>256772123456</PhoneNumber>');
    expect(lastRequest).toContain('<MNOcountry>uganda</MNOcountry>');
    answer = `<API3G><Result>130</Result><ResultExplanation>New invoice</ResultExplanation><instructions>x</instructions></API3G>`;
    expect(await gateway.chargeTokenMobile(input)).toMatchObject({ code: '130', steps: ['x'] });
    answer = `<API3G><Result>955</Result><ResultExplanation>Phone number is invalid</ResultExplanation></API3G>`;
    await expect(gateway.chargeTokenMobile(input)).rejects.toMatchObject({ dpoCode: '955' });
  });

  it('reads StatusCode before Result when both are present', async () => {
    answer = `<API3G><Result>000</Result><StatusCode>953</StatusCode><ResultExplanation>Missing MNOcountry</ResultExplanation></API3G>`;
    await expect(
      gateway.chargeTokenMobile({ transToken: 'T', phoneNumber: '256772123456', mno: 'x', country: 'uganda' }),
    ).rejects.toMatchObject({ dpoCode: '953' });
  });

  it('keeps leading zeros in every code', async () => {
    answer = `<API3G><Result>000</Result><ResultExplanation>Transaction Paid</ResultExplanation><TransactionAmount>015000</TransactionAmount><TransactionCurrency>UGX</TransactionCurrency><CompanyRef>0042</CompanyRef><FraudAlert>001</FraudAlert></API3G>`;
    const result = await gateway.verifyToken('T');
    expect(result).toMatchObject({ outcome: 'paid', code: '000', transactionAmount: '015000', companyRef: '0042' });
    expect(result.raw.FraudAlert).toBe('001');
    expect(sameAmount(result.transactionAmount!, '15000.00')).toBe(true);
    answer = `<API3G><Result>0</Result></API3G>`;
    expect(await gateway.verifyToken('T')).toMatchObject({ outcome: 'error', code: '0' });
    answer = `<API3G><Result>001</Result></API3G>`;
    expect((await gateway.verifyToken('T')).outcome).toBe('pending');
  });

  it('maps every verifyToken code to its outcome', async () => {
    const expected: Record<string, string> = {
      '000': 'paid',
      '001': 'pending',
      '002': 'review',
      '003': 'pending',
      '005': 'pending',
      '007': 'pending',
      '801': 'error',
      '802': 'error',
      '803': 'error',
      '804': 'error',
      '900': 'pending',
      '901': 'declined',
      '902': 'declined',
      '903': 'expired',
      '904': 'cancelled',
      '950': 'error',
      '999': 'error',
    };
    for (const [code, outcome] of Object.entries(expected)) {
      answer = `<API3G><Result>${code}</Result><ResultExplanation>x</ResultExplanation></API3G>`;
      expect((await gateway.verifyToken('T')).outcome, code).toBe(outcome);
    }
  });

  it('reads mobile options under API3G, under a root-less paymentoptions, or bare; one or many', async () => {
    const option = (name: string) =>
      `<mobileoption><country>uganda</country><countryCode>UG</countryCode><paymentname>${name}</paymentname><celluarprefix>256</celluarprefix><amount>3610</amount><currency>UGX</currency><instructions>1. Dial;2. Pay &amp; wait</instructions></mobileoption>`;
    const shapes = [
      `<API3G><paymentoptions>${option('MTNmobileMoney')}${option('Mobile_Airtel_UG')}</paymentoptions></API3G>`,
      `<paymentoptions>${option('MTNmobileMoney')}${option('Mobile_Airtel_UG')}</paymentoptions>`,
      `<mobileoption><country>uganda</country><countryCode>UG</countryCode><paymentname>MTNmobileMoney</paymentname><instructions>1. Dial;2. Pay &amp; wait</instructions></mobileoption><mobileoption><paymentname>Mobile_Airtel_UG</paymentname></mobileoption>`,
    ];
    for (const shape of shapes) {
      answer = shape;
      const result = await gateway.getMobilePaymentOptions('T');
      expect(result.options.map((o) => o.paymentName)).toEqual(['MTNmobileMoney', 'Mobile_Airtel_UG']);
      expect(result.options[0]!.steps).toEqual(['Dial', 'Pay & wait']);
    }
    answer = `<API3G><paymentoptions>${option('MTNmobileMoney')}</paymentoptions></API3G>`;
    expect((await gateway.getMobilePaymentOptions('T')).options).toHaveLength(1);
    answer = `<API3G><Result>904</Result><ResultExplanation>Can't MobilePay this Transaction</ResultExplanation></API3G>`;
    await expect(gateway.getMobilePaymentOptions('T')).rejects.toMatchObject({ dpoCode: '904' });
  });

  it("survives the real Zambian sample's broken entity and raw HTML in instructions", async () => {
    answer = `<API3G><paymentoptions><mobileoption><country>zambia</country><countryCode>ZM</countryCode><paymentname>MTNZM</paymentname><logo>https://x/mtn.png</logo><instructions>1. Shortly&#8218 you will receive a prompt & <b>approve</b>;2. Enter PIN</instructions></mobileoption></paymentoptions></API3G>`;
    const [option] = (await gateway.getMobilePaymentOptions('T')).options;
    expect(option!.steps).toEqual(['Shortly, you will receive a prompt & approve', 'Enter PIN']);
  });

  it('sends createToken exactly as the reference shows, with escaped values and an explicit PTL', async () => {
    answer = `<API3G><Result>000</Result><ResultExplanation>Transaction created</ResultExplanation><TransToken>72983CAC-5DB1-4C7F-BD88-352066B71592</TransToken><TransRef>1285DB12G</TransRef></API3G>`;
    const created = await gateway.createToken({
      companyRef: 'a<b>&"c\'',
      amount: 15000,
      currency: 'UGX',
      description: 'Movies & more </script>',
      redirectUrl: 'https://api.example.ug/return?x=1&y=2',
      serviceDate: new Date('2025-01-31T11:05:00.000Z'),
    });
    expect(created).toMatchObject({ transToken: '72983CAC-5DB1-4C7F-BD88-352066B71592', transRef: '1285DB12G' });
    expect(lastRequest).toMatch(
      /^<\?xml version="1.0" encoding="utf-8"\?><API3G><CompanyToken>TOKEN-1<\/CompanyToken><Request>createToken<\/Request><Transaction>/,
    );
    expect(lastRequest).toContain('<PaymentAmount>15000</PaymentAmount><PaymentCurrency>UGX</PaymentCurrency>');
    expect(lastRequest).toContain(
      '<CompanyRef>a&lt;b&gt;&amp;&quot;c&apos;</CompanyRef><CompanyRefUnique>1</CompanyRefUnique>',
    );
    expect(lastRequest).toContain('<RedirectURL>https://api.example.ug/return?x=1&amp;y=2</RedirectURL>');
    expect(lastRequest).toContain('<PTL>45</PTL><PTLtype>minutes</PTLtype>');
    expect(lastRequest).toContain(
      '<Services><Service><ServiceType>3854</ServiceType><ServiceDescription>Movies and more __script_</ServiceDescription><ServiceDate>2025/01/31 14:05</ServiceDate></Service></Services>',
    );
  });

  it('rejects a createToken answer that is not 000 or has no token', async () => {
    answer = `<API3G><Result>940</Result><ResultExplanation>CompanyREF already exists and paid</ResultExplanation></API3G>`;
    const input = { companyRef: 'r', amount: 1000, currency: 'UGX', description: 'd', serviceDate: new Date() };
    await expect(gateway.createToken(input)).rejects.toMatchObject({ kind: 'protocol', dpoCode: '940' });
    answer = `<API3G><Result>000</Result></API3G>`;
    await expect(gateway.createToken(input)).rejects.toMatchObject({ kind: 'protocol' });
    answer = 'not xml at all';
    await expect(gateway.createToken(input)).rejects.toMatchObject({ kind: 'protocol', httpStatus: 200 });
  });
});

describe('phone numbers', () => {
  it('normalises the usual Ugandan forms to 256XXXXXXXXX', () => {
    for (const form of ['0772123456', '+256772123456', '256 772 123 456', '00256772123456', '772123456']) {
      expect(normaliseUgandaPhone(form)).toBe('256772123456');
    }
  });
});
