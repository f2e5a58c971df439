import type { AddressInfo } from 'node:net';
import net from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/harness.ts';
import { installClientErrorEnvelope } from './client-errors.ts';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes bytes on a fresh loopback socket and reads the whole answer, as a client that bypasses fetch's checks. */
function rawRequest(port: number, bytes: Buffer | string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

function expectEnvelope(answer: RawAnswer, status: number, code: string) {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json');
  expect(answer.headers.connection).toBe('close');
  const json = JSON.parse(answer.body);
  expect(json).toEqual({ error: { code, message: expect.any(String), requestId: answer.headers['x-request-id'] } });
  expect(json.error.requestId).toMatch(/^[0-9a-f-]{36}$/);
}

describe('errors raised before the app runs answer with the envelope (real loopback socket)', () => {
  let t: TestApp;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    // As server.ts builds it: serve(), then the one call.
    const served = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
    installClientErrorEnvelope(served, pino({ level: 'silent' }));
    server = served as Server;
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  const get = (target: string, headers = 'Host: localhost\r\n') =>
    `GET ${target} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`;

  it('a URL over 16 KB: 431', async () => {
    expectEnvelope(
      await rawRequest(port, get(`/api/users/public-movies?search=${'a'.repeat(17_000)}`)),
      431,
      'headers_too_large',
    );
  });

  it('a raw non-ASCII byte in the path (Latin-1 or UTF-8): 400', async () => {
    const latin1 = Buffer.concat([
      Buffer.from('GET /api/movies/'),
      Buffer.from([0xe9]),
      Buffer.from(' HTTP/1.1\r\nHost: localhost\r\n\r\n'),
    ]);
    expectEnvelope(await rawRequest(port, latin1), 400, 'bad_request');
    expectEnvelope(await rawRequest(port, Buffer.from(get('/api/filmé'), 'utf8')), 400, 'bad_request');
  });

  it('a malformed request line or header: 400', async () => {
    expectEnvelope(await rawRequest(port, 'GARBAGE\r\n\r\n'), 400, 'bad_request');
    expectEnvelope(
      await rawRequest(port, 'GET / HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n'),
      400,
      'bad_request',
    );
  });

  it('a URL the adapter cannot build (bad Host header, backslash in the path, bad absolute form): 400', async () => {
    expectEnvelope(await rawRequest(port, get('/api/health', 'Host: a b\r\n')), 400, 'bad_request');
    expectEnvelope(await rawRequest(port, get('/api\\health')), 400, 'bad_request');
    expectEnvelope(await rawRequest(port, get('http://[::1/api/health')), 400, 'bad_request');
  });

  it('leaves the app’s own answers alone', async () => {
    const ok = await rawRequest(port, get('/api/health'));
    expect(ok.status).toBe(200);
    const missing = await rawRequest(port, get('/api/nowhere'));
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).error.requestId).toBe(missing.headers['x-request-id']);
  });
});
