import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/harness.ts';
import { withinMs } from '../../test/processes/server-process.ts';
import { installClientErrorEnvelope } from './client-errors.ts';

const TWO_MB = 2 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'a');

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A raw Node client sending `total` bytes of body (chunked unless `contentLength`). With `holdAt`, it stops after that
 * many bytes until the answer's head has arrived, then sends the rest: a server that reads the whole body before
 * answering never answers it.
 */
function send(
  port: number,
  method: string,
  path: string,
  total: number,
  options: { contentLength?: boolean; holdAt?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    // Node's client frames a GET or DELETE body only when told how.
    if (options.contentLength) headers['content-length'] = String(total);
    else headers['transfer-encoding'] = 'chunked';
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false });
    let sent = 0;
    let answered = false;
    const pump = () => {
      while (sent < total) {
        if (!answered && options.holdAt !== undefined && sent >= options.holdAt) return;
        const piece = CHUNK.subarray(0, Math.min(CHUNK.length, total - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      req.end();
    };
    req.on('response', (res) => {
      answered = true;
      pump();
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    pump();
  });
}

function expectEnvelope(answer: Answer, status: number, code: string) {
  expect(answer.status, answer.body).toBe(status);
  const json = JSON.parse(answer.body);
  expect(json).toEqual({ error: { code, message: expect.any(String), requestId: answer.headers['x-request-id'] } });
  return json.error.message as string;
}

describe('request bodies the server will not use (real loopback socket)', () => {
  let t: TestApp;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    const served = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
    installClientErrorEnvelope(served, pino({ level: 'silent' }));
    server = served as Server;
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  it('a guest sending 2 MB chunked to a signed-in route gets 401 before the body is read', async () => {
    const answer = await withinMs(
      send(port, 'DELETE', '/api/push/subscriptions', TWO_MB, { holdAt: CHUNK.length }),
      20_000,
      () => 'no answer while the body was held back: the server waited to read it',
    );
    expectEnvelope(answer, 401, 'unauthenticated');
  });

  it('a guest sending a body with a NUL or bad fields to a signed-in route gets 401, not the field problems', async () => {
    const res = await t.request('DELETE', '/api/push/subscriptions', {
      rawBody: '{"endpoint":"a\\u0000b","extra":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(401);
    expect(res.json.error.issues).toBeUndefined();
  });

  it.each([
    ['chunked', false],
    ['with Content-Length', true],
  ])('a GET with a 2 MB body (%s) gets a readable 413', async (_name, contentLength) => {
    for (const path of ['/api/push/public-key', '/api/auth/agent/profile']) {
      for (let round = 0; round < 5; round += 1) {
        const answer = await withinMs(
          send(port, 'GET', path, TWO_MB, { contentLength, holdAt: CHUNK.length }),
          20_000,
          () => 'no answer while the body was held back',
        );
        expect(expectEnvelope(answer, 413, 'payload_too_large')).toBe(
          'This request takes no request body. Send it again without one.',
        );
      }
    }
  });
});
