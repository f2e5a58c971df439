import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, MovableClock, type Running } from '../../lib/loopback.testing.ts';
import { africasTalkingGateway } from './adapter.ts';
import { AT_MESSAGING_PATH, AT_USER_PATH, userDataUrl } from './protocol.ts';
import { createSmsSimulator, SMS_SIMULATOR_API_KEY, SMS_SIMULATOR_USERNAME, type SmsSimulator } from './simulator.ts';

const documented = readFileSync(join(import.meta.dirname, 'fixtures', 'user-data.json'), 'utf8');

const running: Running[] = [];
const simulators: SmsSimulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
  simulators.splice(0).forEach((s) => s.close());
});

async function gatewayAt(app: Hono, apiKey = SMS_SIMULATOR_API_KEY, timeoutMs = 2000) {
  const server = await listen(app);
  running.push(server);
  return africasTalkingGateway({
    url: `${server.url}${AT_MESSAGING_PATH}`,
    username: SMS_SIMULATOR_USERNAME,
    apiKey,
    from: null,
    timeoutMs,
  });
}

function simulator() {
  const sim = createSmsSimulator({ clock: new MovableClock(), deliveryDelayMs: 5 });
  simulators.push(sim);
  return sim;
}

describe("the user-data endpoint, as Africa's Talking documents it", () => {
  it('lies beside the messaging endpoint, live and sandbox', () => {
    expect(userDataUrl('https://api.africastalking.com/version1/messaging')).toBe(
      'https://api.africastalking.com/version1/user',
    );
    expect(userDataUrl('https://api.sandbox.africastalking.com/version1/messaging')).toBe(
      'https://api.sandbox.africastalking.com/version1/user',
    );
  });

  it('is asked with GET, the username in the query and the apiKey header, and its documented answer is read', async () => {
    const seen: { method: string; username?: string; apiKey?: string; accept?: string }[] = [];
    const app = new Hono();
    app.get(AT_USER_PATH, (c) => {
      seen.push({
        method: c.req.method,
        username: c.req.query('username'),
        apiKey: c.req.header('apiKey'),
        accept: c.req.header('accept'),
      });
      return c.body(documented, 200, { 'Content-Type': 'application/json' });
    });
    const gateway = await gatewayAt(app, 'the-key');
    expect(await gateway.state()).toEqual({ kind: 'ok', balance: 'KES 1250.0000' });
    expect(seen).toEqual([
      { method: 'GET', username: SMS_SIMULATOR_USERNAME, apiKey: 'the-key', accept: 'application/json' },
    ]);
  });

  it('says unavailable, never throws, for a refusal, an unreadable answer or silence', async () => {
    const app = new Hono();
    let mode: 'refuse' | 'garbage' | 'silent' = 'refuse';
    app.get(AT_USER_PATH, async (c) => {
      if (mode === 'refuse') return c.text('The supplied authentication is invalid', 401);
      if (mode === 'garbage') return c.text('<html>oops</html>', 200);
      await new Promise((resolve) => setTimeout(resolve, 500));
      return c.body(documented, 200);
    });
    // Answers get the usual two seconds (a busy machine must not turn a refusal into a timeout); silence gets 100 ms.
    const gateway = await gatewayAt(app, SMS_SIMULATOR_API_KEY);
    expect(await gateway.state()).toMatchObject({ kind: 'unavailable', error: expect.stringContaining('HTTP 401') });
    mode = 'garbage';
    expect((await gateway.state()).kind).toBe('unavailable');
    mode = 'silent';
    const impatient = await gatewayAt(app, SMS_SIMULATOR_API_KEY, 100);
    expect((await impatient.state()).kind).toBe('unavailable');
  });
});

describe('the simulator speaks the user-data protocol', () => {
  it('answers the documented shape, and a sent message lowers the balance by its cost', async () => {
    const sim = simulator();
    const gateway = await gatewayAt(sim.app);
    const before = await gateway.state();
    expect(before).toEqual({ kind: 'ok', balance: expect.stringMatching(/^UGX \d+\.\d{4}$/) });
    // Same keys and value types as the documented answer.
    const raw = await sim.app.fetch(
      new Request(`http://sim${AT_USER_PATH}?username=${SMS_SIMULATOR_USERNAME}`, {
        headers: { apiKey: SMS_SIMULATOR_API_KEY, Accept: 'application/json' },
      }),
    );
    const body = (await raw.json()) as { UserData: { balance: unknown } };
    expect(Object.keys(body)).toEqual(Object.keys(JSON.parse(documented)));
    expect(typeof body.UserData.balance).toBe('string');

    const sent = await gateway.send('256772123456', 'Filamu: hello');
    expect(sent.kind).toBe('accepted');
    const cost = Number((sent as { cost: string }).cost.replace(/[^\d.]/g, ''));
    const amount = (state: Awaited<ReturnType<typeof gateway.state>>) =>
      state.kind === 'ok' ? Number(state.balance.replace(/[^\d.]/g, '')) : NaN;
    expect(amount(await gateway.state())).toBeCloseTo(amount(before) - cost, 4);
  });

  it('refuses a wrong key or username with 401, and can be made to fail', async () => {
    const sim = simulator();
    expect((await (await gatewayAt(sim.app, 'wrong')).state()).kind).toBe('unavailable');
    const wrongUser = await sim.app.fetch(
      new Request(`http://sim${AT_USER_PATH}?username=someone`, { headers: { apiKey: SMS_SIMULATOR_API_KEY } }),
    );
    expect(wrongUser.status).toBe(401);
    sim.failUserData(500);
    expect(await (await gatewayAt(sim.app)).state()).toMatchObject({
      kind: 'unavailable',
      error: 'HTTP 500: Internal Server Error',
    });
  });
});
