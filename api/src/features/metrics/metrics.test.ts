import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_SHELL_FILE, contracts, DownloadUrlResponse, InitiatePaymentResponse } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionPlans } from '../../db/schema.ts';
import { pauseStaleDownloads } from '../downloads/bookkeeping.ts';
import { reconcile } from '../payments/reconciler.ts';
import { addMovie, createPlan, stockPlan, subscribe } from '../../../test/library.ts';
import {
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  registerUser,
  type TestApp,
  testConfig,
  testDatabases,
} from '../../../test/harness.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text format, line by line: every sample line must parse, or the scrape would fail. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|[+-]?(?:inf|nan))$/i.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    const body = match[2] ?? '';
    const label = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/y;
    for (let m = label.exec(body); m; m = label.exec(body)) labels[m[1]!] = m[2]!;
    if (label.lastIndex !== 0 && label.lastIndex !== body.length) throw new Error(`bad labels in ${line}`);
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found.reduce((sum, s) => sum + s.value, 0);
}

describe.each(testDatabases)('/api/metrics on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // No push from the sandbox: only the client's verify asks DPO, so every count below is exact.
    t = await createTestApp(kind, { env: { METRICS_TOKEN: TOKEN }, dpo: { notify: false } });
  });
  afterAll(async () => {
    await t.dpoSandbox?.settle();
    await t.close();
  });

  const scrape = async () => {
    const res = await t.request('GET', '/api/metrics', { token: TOKEN });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return { text: res.text, samples: parseExposition(res.text) };
  };

  it('refuses a missing or wrong token with the 401 envelope, never a 500', async () => {
    expectErrorEnvelope(await t.request('GET', '/api/metrics'), 401, 'unauthenticated');
    for (const authorization of [
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      'Bearer ',
      `Basic ${TOKEN}`,
      TOKEN,
      `Bearer ${'a'.repeat(10_000)}`,
      'Bearer \u00e9\u00e8',
    ]) {
      const res = await t.request('GET', '/api/metrics', { headers: { authorization } });
      expectErrorEnvelope(res, 401, 'unauthenticated');
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('counts requests by route pattern, jobs, payments, grants and file bytes, with no personal data', async () => {
    const before = (await scrape()).samples;

    expect((await t.request('GET', '/api/meta')).status).toBe(200);
    expectErrorEnvelope(await t.request('GET', '/api/no-such-route/12345'), 404, 'not_found');
    expectErrorEnvelope(await t.call(contracts.auth.register, { body: { email: 'nope' } }), 400, 'validation_error');

    // A grant and its download over /files.
    const adminToken = await loginAdmin(t);
    const planId = await createPlan(t, adminToken);
    const viewer = await registerUser(t);
    await subscribe(t, adminToken, viewer.user.id, planId);
    const { movie, bytes } = await addMovie(t, adminToken, { planIds: [planId], size: 6000 });
    const granted = await t.call(contracts.downloads.downloadUrl, {
      token: viewer.token,
      body: { movieId: movie.id },
    });
    expect(granted.status, granted.text).toBe(200);
    const link = new URL(DownloadUrlResponse.parse(granted.json).downloadUrl);
    const file = await t.app.request(`${link.pathname}${link.search}`, { headers: { range: 'bytes=1000-3999' } });
    expect(file.status).toBe(206);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(bytes.subarray(1000, 4000));
    const again = await t.call(contracts.downloads.downloadUrl, { token: viewer.token, body: { movieId: movie.id } });
    // Asked again before any byte arrived: the same attempt, counted as repeated (not a resume).
    expect(again.status).toBe(200);

    // A payment through the sandbox: initiate, charge, verify once pending and once paid.
    const [plan] = await t.deps.database.db
      .insert(subscriptionPlans)
      .values({ planName: 'Metrics plan', priceUgx: 25_000, globalExpiryAt: new Date('2027-12-31T00:00:00Z') })
      .returning();
    await stockPlan(t.deps.database.db, plan!.id);
    const payer = await registerUser(t);
    const started = InitiatePaymentResponse.parse(
      (await t.call(contracts.payments.initiate, { token: payer.token, body: { subscription_plan_id: plan!.id } }))
        .json,
    );
    const charged = await t.call(contracts.payments.chargeMobile, {
      token: payer.token,
      body: { transaction_id: started.transaction_id, phoneNumber: '0772000005', mno: 'MTNmobilemoney' },
    });
    expect(charged.status, charged.text).toBe(200);
    const verify = () =>
      t.call(contracts.payments.verify, { token: payer.token, params: { token: started.dpo_token } });
    expect((await verify()).json.status).toBe('pending');
    t.clock.advance(3000);
    expect((await verify()).json.status).toBe('completed');

    const { text, samples } = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      value(samples, name, labels) - value(before, name, labels);

    expect(moved('http_requests_total', { method: 'GET', route: '/api/meta', status: '200' })).toBe(1);
    expect(moved('http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(moved('http_requests_total', { method: 'POST', route: '/api/auth/register', status: '400' })).toBe(1);
    expect(moved('http_requests_total', { method: 'GET', route: '/files', status: '206' })).toBe(1);
    expect(moved('http_requests_total', { method: 'GET', route: '/api/payments/verify/:token', status: '200' })).toBe(
      2,
    );
    expect(moved('http_request_duration_seconds_count', { method: 'GET', route: '/api/meta', status: '200' })).toBe(1);
    expect(
      value(samples, 'http_request_duration_seconds_bucket', {
        method: 'GET',
        route: '/api/meta',
        status: '200',
        le: '+Inf',
      }),
    ).toBeGreaterThanOrEqual(1);
    // No raw path ever becomes a label.
    expect(text).not.toContain('no-such-route');
    expect(text).not.toContain(movie.id);

    expect(moved('filamu_download_grants_total', { result: 'granted' })).toBe(1);
    expect(moved('filamu_download_grants_total', { result: 'repeated' })).toBe(1);
    expect(moved('filamu_file_bytes_sent_total')).toBe(3000);
    expect(moved('filamu_payment_charges_total', { result: 'sent' })).toBe(1);
    expect(moved('filamu_payment_verifications_total', { code: '000', outcome: 'paid' })).toBe(1);
    expect(moved('filamu_payment_verifications_total', { outcome: 'pending' })).toBe(1);
    expect(moved('filamu_payment_activations_total')).toBe(1);
    expect(value(samples, 'filamu_job_lag_seconds', { job: 'reconciler' })).toBeGreaterThanOrEqual(0);
    expect(value(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    if (kind === 'postgres') expect(value(samples, 'filamu_db_pool_clients')).toBeGreaterThan(0);
    else expect(text).not.toContain('filamu_db_pool_clients');

    const personal = [viewer.body.email, viewer.user.id, viewer.token, payer.body.email, payer.token];
    personal.push(started.dpo_token, started.transaction_id, TOKEN, adminToken);
    for (const secret of personal) expect(text).not.toContain(secret);
  });

  it('reports the reconciler lag as the age of the oldest payment due for a check', async () => {
    const payer = await registerUser(t);
    const [plan] = await t.deps.database.db
      .insert(subscriptionPlans)
      .values({ planName: 'Lag plan', priceUgx: 25_000, globalExpiryAt: new Date('2027-12-31T00:00:00Z') })
      .returning();
    await stockPlan(t.deps.database.db, plan!.id);
    const res = await t.call(contracts.payments.initiate, {
      token: payer.token,
      body: { subscription_plan_id: plan!.id },
    });
    expect(res.status, res.text).toBe(201);
    // First check is due 30 s after initiation; nobody reconciles, so 90 s later it is 60 s overdue.
    t.clock.advance(90_000);
    const lagOf = async (job: string) => value((await scrape()).samples, 'filamu_job_lag_seconds', { job });
    expect(await lagOf('reconciler')).toBeGreaterThanOrEqual(60);
    // The job does its work: nothing is due any more.
    await reconcile(t.deps);
    expect(await lagOf('reconciler')).toBe(0);
  });

  it('reports the stale sweep lag as how long the oldest silent download is past the hour', async () => {
    // The download granted above is still 'starting'; two hours of silence later the sweep is an hour late.
    t.clock.advance(2 * 3600_000);
    const lagOf = async (job: string) => value((await scrape()).samples, 'filamu_job_lag_seconds', { job });
    expect(await lagOf('stale_sweep')).toBeGreaterThanOrEqual(3600);
    expect(await pauseStaleDownloads(t.deps)).toBeGreaterThan(0);
    expect(await lagOf('stale_sweep')).toBe(0);
  });
});

describe('route labels of the PWA and of requests no route took', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = mkdtempSync(join(tmpdir(), 'filamu-pwa-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, APP_SHELL_FILE), '<!doctype html><title>Filamu</title><div id="root"></div>');
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');
    t = await createTestApp('pglite', { env: { METRICS_TOKEN: TOKEN }, pwaDistDir: dist });
  });
  afterAll(() => t.close());

  it('groups pages and assets as static, and refused methods and unknown paths as unmatched', async () => {
    expect((await t.request('GET', '/movies/3f1c9a7e-page')).status).toBe(200);
    expect((await t.request('GET', '/assets/index-abc123.js')).status).toBe(200);
    expect((await t.request('GET', '/assets/missing-zz9.js')).status).toBe(404);
    expectErrorEnvelope(await t.request('PROPFIND', '/api/meta'), 405, 'method_not_allowed');
    const res = await t.request('GET', '/api/metrics', { token: TOKEN });
    const samples = parseExposition(res.text);
    expect(value(samples, 'http_requests_total', { route: 'static', status: '200' })).toBe(2);
    expect(value(samples, 'http_requests_total', { route: 'static', status: '404' })).toBe(1);
    expect(value(samples, 'http_requests_total', { method: 'other', route: 'unmatched', status: '405' })).toBe(1);
    expect(res.text).not.toContain('3f1c9a7e');
    expect(res.text).not.toContain('index-abc123');
  });
});

describe('/api/metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t.close());

  it('is documented in the OpenAPI document as Prometheus text behind the metrics token', async () => {
    const doc = (await t.request('GET', '/api/openapi.json')).json;
    const get = doc.paths['/api/metrics'].get;
    expect(Object.keys(get.responses['200'].content)).toEqual(['text/plain; version=0.0.4']);
    expect(get.security).toEqual([{ metricsToken: [] }]);
    expect(doc.components.securitySchemes.metricsToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('does not exist: the API 404 envelope, with or without a token', async () => {
    expectErrorEnvelope(await t.request('GET', '/api/metrics'), 404, 'not_found');
    expectErrorEnvelope(await t.request('GET', '/api/metrics', { token: TOKEN }), 404, 'not_found');
  });

  it('refuses a token shorter than 16 characters at start', () => {
    expect(() => testConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
  });
});
