import { allContracts, contracts } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app.ts';
import { createLifecycle } from '../../lifecycle/lifecycle.ts';
import {
  createTestApp,
  loginAdmin,
  newUser,
  registerUser,
  type TestApp,
  testDatabases,
} from '../../../test/harness.ts';

describe.each(testDatabases)('system routes and HTTP conventions on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { CORS_ORIGINS: 'https://partner.example', BODY_LIMIT_BYTES: '2048' } });
  });
  afterAll(() => t.close());

  it('reports health with the database state', async () => {
    const res = await t.request('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok', db: 'ok' });
  });

  it('answers 503 with the failing part when the database is gone', async () => {
    const broken = await createTestApp(kind);
    await broken.close();
    const res = await broken.request('GET', '/api/health');
    expect(res.status).toBe(503);
    expect(res.json).toEqual({ status: 'degraded', db: 'error' });
  });

  it('answers liveness always and readiness while the database answers', async () => {
    const live = await t.call(contracts.system.live);
    expect([live.status, live.json]).toEqual([200, { status: 'ok' }]);
    const ready = await t.call(contracts.system.ready);
    expect([ready.status, ready.json]).toEqual([200, { status: 'ready', db: 'ok', shuttingDown: false }]);

    const broken = await createTestApp(kind);
    await broken.close();
    const down = await broken.call(contracts.system.ready);
    expect([down.status, down.json]).toEqual([503, { status: 'unready', db: 'error', shuttingDown: false }]);
    expect((await broken.call(contracts.system.live)).status).toBe(200);
  });

  it('turns unready, and only unready, once the process is shutting down', async () => {
    const lifecycle = createLifecycle();
    const app = createApp(t.deps, { lifecycle });
    expect((await app.request('/api/health/ready')).status).toBe(200);
    lifecycle.beginShutdown();
    const ready = await app.request('/api/health/ready');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unready', db: 'skipped', shuttingDown: true });
    expect((await app.request('/api/health/live')).status).toBe(200);
    expect((await app.request('/api/health')).status).toBe(200);
  });

  it('tells the admin, and only the admin, whether payments are the sandbox', async () => {
    const admin = await loginAdmin(t);
    const sandbox = await t.call(contracts.system.adminStatus, { token: admin });
    expect(sandbox.status).toBe(200);
    expect(sandbox.json).toMatchObject({ paymentsSandbox: true });
    const { token } = await registerUser(t);
    expect((await t.call(contracts.system.adminStatus, { token })).status).toBe(403);
    expect((await t.call(contracts.system.adminStatus)).status).toBe(401);

    const real = await createTestApp(kind, {
      env: { DPO_COMPANY_TOKEN: 'REAL-TOKEN', DPO_SERVICE_TYPE: '5525', DPO_NOTIFY_SECRET: 'notify-secret-0123456789' },
    });
    try {
      const answer = await real.call(contracts.system.adminStatus, { token: await loginAdmin(real) });
      expect(answer.json).toMatchObject({ paymentsSandbox: false });
    } finally {
      await real.close();
    }
  });

  it('publishes an OpenAPI 3 document covering every route with its access rule', async () => {
    const res = await t.request('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.json.openapi).toMatch(/^3\./);
    for (const contract of allContracts) {
      const path = `/api${contract.path.replace(/:(\w+)/g, '{$1}')}`;
      expect(res.json.paths[path]?.[contract.method]?.['x-access'], `${contract.method} ${path}`).toBe(contract.access);
    }
    const register = res.json.paths['/api/auth/register'].post;
    expect(register.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['email', 'password', 'fullName', 'phone']),
    );
  });

  it('gives every response a request id and security headers', async () => {
    const res = await t.request('GET', '/api/meta');
    expect(res.json).toEqual({ maintenance: false });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  it('answers unknown API routes with the error envelope', async () => {
    const res = await t.request('GET', '/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({
      error: { code: 'not_found', message: 'No such API route.', requestId: res.headers.get('x-request-id') },
    });
  });

  it('rejects malformed JSON, other content types, oversized bodies and unused methods without a 500', async () => {
    const malformed = await t.request('POST', '/api/auth/login', {
      rawBody: '{"identifier":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.code).toBe('bad_request');

    const form = await t.request('POST', '/api/auth/login', {
      rawBody: 'identifier=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(form.json.error.code).toBe('unsupported_media_type');

    const huge = await t.request('POST', '/api/auth/register', { body: { ...newUser(), fullName: 'x'.repeat(5000) } });
    expect(huge.status).toBe(413);
    expect(huge.json.error.code).toBe('payload_too_large');

    // PATCH edits movies now; a method the API never uses is refused as such.
    const unused = await t.request('PROPFIND', '/api/health');
    expect(unused.status).toBe(405);
    expect(unused.json.error.code).toBe('method_not_allowed');
  });

  it('sends CORS headers only to configured origins', async () => {
    const allowed = await t.request('GET', '/api/meta', { headers: { origin: 'https://partner.example' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://partner.example');
    const foreign = await t.request('GET', '/api/meta', { headers: { origin: 'https://evil.example' } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });
});
