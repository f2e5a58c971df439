import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  readResponse,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { createPlan } from '../../../test/library.ts';
import { NOTIFY_BODY_LIMIT_BYTES } from './routes.ts';

/**
 * Payment input is bounded before it is read (decisions 0101, 0102): an amount is a few characters, and DPO's push
 * is refused past its cap with the error envelope, whether the client says its length or streams the body.
 */
describe.each(testDatabases)('bounded payment input on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { dpo: {} });
  });
  afterAll(() => t?.close());

  it('refuses a long amount as a validation error, without reading it', async () => {
    const planId = await createPlan(t, await loginAdmin(t));
    const { token } = await registerUser(t);
    const amount = `1.${'0'.repeat(60_000)}1`;
    const res = await t.request('POST', '/api/payments/initiate', {
      token,
      body: { subscription_plan_id: planId, amount },
    });
    expectErrorEnvelope(res, 400, 'validation_error');
    expect(res.json.error.issues).toEqual([expect.objectContaining({ path: 'amount' })]);
  });

  it('refuses a push body over the cap with 413, sized or streamed', async () => {
    const big = `<API3G><TransactionToken>x</TransactionToken>${'<Explanation>'.repeat(NOTIFY_BODY_LIMIT_BYTES / 12)}</API3G>`;
    const sized = await t.request('POST', '/api/payments/dpo/notify', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: `TransactionToken=${'+'.repeat(NOTIFY_BODY_LIMIT_BYTES)}`,
    });
    expectErrorEnvelope(sized, 413, 'payload_too_large');
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 4096) controller.enqueue(bytes.slice(at, at + 4096));
        controller.close();
      },
    });
    const streamed = await readResponse(
      await t.app.request('/api/payments/dpo/notify', {
        method: 'POST',
        headers: { 'content-type': 'application/xml', 'transfer-encoding': 'chunked' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expectErrorEnvelope(streamed, 413, 'payload_too_large');
    // Under the cap the push is read as before: an unknown token is a 404, not a refusal of its size.
    const small = await t.request('POST', '/api/payments/dpo/notify', {
      headers: { 'content-type': 'application/xml' },
      rawBody: '<API3G><TransactionToken>C0FFEE00-0000-0000-0000-000000000000</TransactionToken></API3G>',
    });
    expectErrorEnvelope(small, 404, 'not_found');
  });
});
