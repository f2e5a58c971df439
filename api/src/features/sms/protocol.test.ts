import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort, listen, MovableClock, type Running } from '../../lib/loopback.testing.ts';
import { africasTalkingGateway } from './adapter.ts';
import { AT_MESSAGING_PATH, type AtSendResponse, messageParts, parseDeliveryReport } from './protocol.ts';
import { createSmsSimulator, SMS_SIMULATOR_API_KEY, SMS_SIMULATOR_USERNAME, type SmsSimulator } from './simulator.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
const documentedAnswer = JSON.parse(fixture('send-response.json'));

/** The shape of a JSON value: its keys and value types, recursively (arrays by their first element). */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return [shape(value[0])];
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shape(inner)]));
  return typeof value;
}

const running: Running[] = [];
const simulators: SmsSimulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
  simulators.splice(0).forEach((s) => s.close());
});

async function serve(app: Hono): Promise<string> {
  const server = await listen(app);
  running.push(server);
  return server.url;
}

function simulator(options: { slowMs?: number } = {}) {
  const sim = createSmsSimulator({ clock: new MovableClock(), deliveryDelayMs: 5, ...options });
  simulators.push(sim);
  return sim;
}

async function gatewayTo(sim: SmsSimulator, timeoutMs = 2000) {
  const url = await serve(sim.app);
  return africasTalkingGateway({
    url: `${url}${AT_MESSAGING_PATH}`,
    username: SMS_SIMULATOR_USERNAME,
    apiKey: SMS_SIMULATOR_API_KEY,
    from: 'Filamu',
    timeoutMs,
  });
}

describe("the adapter against Africa's Talking's documented exchange", () => {
  it('sends the documented request and reads the documented answer', async () => {
    const seen: { headers: Record<string, string | undefined>; form: Record<string, string> }[] = [];
    const app = new Hono();
    app.post(AT_MESSAGING_PATH, async (c) => {
      seen.push({
        headers: {
          apiKey: c.req.header('apiKey'),
          accept: c.req.header('accept'),
          type: c.req.header('content-type'),
        },
        form: Object.fromEntries(new URLSearchParams(await c.req.text())),
      });
      return c.json(documentedAnswer, 201);
    });
    const url = await serve(app);
    const gateway = africasTalkingGateway({
      url: `${url}${AT_MESSAGING_PATH}`,
      username: 'filamu',
      apiKey: 'key-1',
      from: 'FILAMU',
      timeoutMs: 2000,
    });
    expect(await gateway.send('256772123456', 'Your code is 123456')).toEqual({
      kind: 'accepted',
      messageId: 'ATPid_SampleTxnId123',
      parts: 1,
      cost: 'KES 0.8000',
      statusCode: 101,
    });
    expect(seen).toEqual([
      {
        headers: { apiKey: 'key-1', accept: 'application/json', type: 'application/x-www-form-urlencoded' },
        form: { username: 'filamu', to: '+256772123456', message: 'Your code is 123456', from: 'FILAMU' },
      },
    ]);
  });

  it('reads a documented refusal as final, and a 5xx or an unreachable gateway as worth retrying', async () => {
    const app = new Hono();
    app.post(`/refuse${AT_MESSAGING_PATH}`, (c) => c.json(JSON.parse(fixture('send-refused.json')), 201));
    app.post(`/down${AT_MESSAGING_PATH}`, (c) => c.text('Service Unavailable', 503));
    const url = await serve(app);
    const at = (path: string) =>
      africasTalkingGateway({ url: `${url}${path}`, username: 'u', apiKey: 'k', from: null, timeoutMs: 2000 });
    expect(await at(`/refuse${AT_MESSAGING_PATH}`).send('256772123456', 'x')).toEqual({
      kind: 'refused',
      retryable: false,
      error: '406 UserInBlacklist',
    });
    expect(await at(`/down${AT_MESSAGING_PATH}`).send('256772123456', 'x')).toMatchObject({
      kind: 'refused',
      retryable: true,
    });
    const closed = await closedPort();
    const unreachable = africasTalkingGateway({
      url: `${closed}${AT_MESSAGING_PATH}`,
      username: 'u',
      apiKey: 'k',
      from: null,
      timeoutMs: 2000,
    });
    expect(await unreachable.send('256772123456', 'x')).toEqual({
      kind: 'refused',
      retryable: true,
      error: 'unreachable: ECONNREFUSED',
    });
  });

  it('parses the documented delivery reports', () => {
    expect(parseDeliveryReport(new URLSearchParams(fixture('delivery-success.form').trim()))).toEqual({
      id: 'ATXid_sample123',
      status: 'Success',
      phoneNumber: '+254711XXXYYY',
      networkCode: '63902',
      retryCount: '0',
      failureReason: undefined,
    });
    expect(parseDeliveryReport(new URLSearchParams(fixture('delivery-failed.form').trim()))).toMatchObject({
      status: 'Failed',
      failureReason: 'UserInBlacklist',
    });
    expect(parseDeliveryReport(new URLSearchParams('status=Success'))).toBeNull();
  });
});

describe('the simulator speaks the documented protocol', () => {
  it('answers a send in the documented shape, keeps the message and reports its delivery', async () => {
    const sim = simulator();
    const reports: URLSearchParams[] = [];
    sim.bindReports(async (form) => void reports.push(form));
    const url = await serve(sim.app);
    const body = new URLSearchParams({ username: SMS_SIMULATOR_USERNAME, to: '+256772123456', message: 'Hello' });
    const response = await fetch(`${url}${AT_MESSAGING_PATH}`, {
      method: 'POST',
      headers: { apiKey: SMS_SIMULATOR_API_KEY, Accept: 'application/json' },
      body,
    });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as AtSendResponse;
    expect(shape(answer)).toEqual(shape(documentedAnswer));
    expect(answer.SMSMessageData.Recipients[0]).toMatchObject({ statusCode: 101, status: 'Success', messageParts: 1 });
    expect(sim.messages('256772123456')).toMatchObject([{ to: '+256772123456', text: 'Hello', parts: 1 }]);

    await expect.poll(() => reports.length).toBe(1);
    const documented = new URLSearchParams(fixture('delivery-success.form').trim());
    expect([...reports[0]!.keys()].sort()).toEqual([...documented.keys()].sort());
    expect(parseDeliveryReport(reports[0]!)).toMatchObject({
      id: answer.SMSMessageData.Recipients[0]!.messageId,
      status: 'Success',
      phoneNumber: '+256772123456',
    });
  });

  it('refuses a wrong key or username with 401, as the gateway does', async () => {
    const sim = simulator();
    const url = await serve(sim.app);
    const send = (apiKey: string, username: string) =>
      fetch(`${url}${AT_MESSAGING_PATH}`, {
        method: 'POST',
        headers: { apiKey, Accept: 'application/json' },
        body: new URLSearchParams({ username, to: '+256772123456', message: 'x' }),
      });
    expect((await send('wrong', SMS_SIMULATOR_USERNAME)).status).toBe(401);
    expect((await send(SMS_SIMULATOR_API_KEY, 'someone')).status).toBe(401);
    expect(sim.messages()).toEqual([]);
  });

  it('plays the failures its numbers name: refusals, a 500 and a failed delivery', async () => {
    const sim = simulator();
    const reports: URLSearchParams[] = [];
    sim.bindReports(async (form) => void reports.push(form));
    const gateway = await gatewayTo(sim);
    expect(await gateway.send('256700000405', 'x')).toEqual({
      kind: 'refused',
      retryable: true,
      error: '405 InsufficientBalance',
    });
    expect(await gateway.send('256700000403', 'x')).toMatchObject({ kind: 'refused', retryable: false });
    expect(await gateway.send('256700000999', 'x')).toMatchObject({ kind: 'refused', retryable: true });
    expect(await gateway.send('256700000911', 'x')).toMatchObject({ kind: 'accepted' });
    await expect.poll(() => reports.length).toBe(1);
    expect(reports[0]!.get('status')).toBe('Failed');
    expect(reports[0]!.get('failureReason')).toBe('DeliveryFailure');
  });

  it('accepts and then answers too late: the adapter says the outcome is unknown', async () => {
    const sim = simulator({ slowMs: 1500 });
    const gateway = await gatewayTo(sim, 300);
    expect(await gateway.send('256700000900', 'Your code')).toMatchObject({ kind: 'unknown' });
    expect(sim.messages('256700000900')).toHaveLength(1);
  });

  it('counts parts the way the gateway bills them', () => {
    expect(messageParts('a'.repeat(160))).toBe(1);
    expect(messageParts('a'.repeat(161))).toBe(2);
    expect(messageParts('[]'.repeat(40))).toBe(1);
    expect(messageParts('[]'.repeat(41))).toBe(2);
    expect(messageParts('ŋ'.repeat(70))).toBe(1);
    expect(messageParts('ŋ'.repeat(71))).toBe(2);
  });
});
