import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDatabases, type TestApp } from '../../../../test/harness.ts';
import { SANDBOX_MOUNT } from '../gateway.ts';
import { DPO_SANDBOX_COMPANY_TOKEN, DPO_SANDBOX_MAX_BODY_BYTES } from './sandbox.ts';
import { listen, type Running } from '../../../lib/loopback.testing.ts';
import { parseApi3g, readStatus, text } from './xml.ts';

/**
 * The simulator as the app mounts it in sandbox mode, where anyone can reach it: bodies are limited while they
 * are read, each address is rate-limited, and old transactions are forgotten.
 */

const createToken =
  `<?xml version="1.0" encoding="utf-8"?><API3G><CompanyToken>${DPO_SANDBOX_COMPANY_TOKEN}</CompanyToken>` +
  '<Request>createToken</Request><Transaction><PaymentAmount>15000</PaymentAmount><PaymentCurrency>UGX</PaymentCurrency></Transaction>' +
  '<Services><Service><ServiceType>3854</ServiceType><ServiceDescription>Plan</ServiceDescription><ServiceDate>2026/11/22 12:00</ServiceDate></Service></Services></API3G>';

/**
 * Starts a POST of `declared` bytes (or chunked when undefined), sends `sent` bytes and waits for the answer
 * without ever finishing the body: an answer proves the server did not wait for the rest.
 */
function answerBeforeTheEnd(url: string, sent: number, declared?: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${SANDBOX_MOUNT}/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/xml',
        ...(declared === undefined ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(declared) }),
      },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res);
      req.destroy();
    });
    req.on('error', reject);
    const chunk = Buffer.alloc(16 * 1024, ' ');
    for (let written = 0; written < sent; written += chunk.length) req.write(chunk);
  });
}

describe.each(testDatabases)('DPO sandbox mounted on the app (%s)', (kind) => {
  let t: TestApp;
  let server: Running;

  beforeAll(async () => {
    t = await createTestApp(kind);
    server = await listen(t.app as unknown as Hono);
  });
  afterAll(async () => {
    await server.close();
    await t.close();
  });

  const post = async (body: string, ip = '198.51.100.10') => {
    const res = await t.request('POST', `${SANDBOX_MOUNT}/`, {
      rawBody: body,
      ip,
      headers: { 'content-type': 'application/xml' },
    });
    return { ...res, ...readStatus(parseApi3g(res.text) ?? {}), root: parseApi3g(res.text) };
  };

  it('refuses a body declared too big with 413 before reading it', async () => {
    const res = await answerBeforeTheEnd(server.url, 16 * 1024, 10 * 1024 * 1024);
    expect(res.statusCode).toBe(413);
  });

  it('refuses a chunked body with 413 as soon as it passes the limit, without reading the rest', async () => {
    const res = await answerBeforeTheEnd(server.url, DPO_SANDBOX_MAX_BODY_BYTES + 32 * 1024);
    expect(res.statusCode).toBe(413);
  });

  it('limits requests per client address with 429 and Retry-After; other addresses go on', async () => {
    const ip = '198.51.100.77';
    let answered = 0;
    // The limit is 3000 an hour: spend it with cheap, unparseable requests, 100 at a time.
    while (answered < 3000) {
      const batch = await Promise.all(Array.from({ length: 100 }, () => post('not xml', ip)));
      expect(batch.every((res) => res.status === 200 && res.code === '804')).toBe(true);
      answered += batch.length;
    }
    const refused = await post(createToken, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await post(createToken, '198.51.100.78')).code).toBe('000');
    // The window lapses: the address may call again.
    t.clock.advance(3_600_000);
    expect((await post(createToken, ip)).code).toBe('000');
  });

  it('forgets transactions a week old when the next one is created', async () => {
    const old = text((await post(createToken)).root!, 'TransToken')!;
    expect(await t.deps.dpoSandbox!.transaction(old)).toBeDefined();
    t.clock.advance(7 * 24 * 3_600_000 + 60_000);
    expect((await post(createToken)).code).toBe('000');
    expect(await t.deps.dpoSandbox!.transaction(old)).toBeUndefined();
  });
});
