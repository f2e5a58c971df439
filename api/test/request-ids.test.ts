import { Writable } from 'node:stream';
import { AuthResponse, contracts } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { createDeps, createLogger } from '../src/bootstrap.ts';
import type { Database } from '../src/db/client.ts';
import type { Deps } from '../src/deps.ts';
import { observedPass } from '../src/features/metrics/jobs.ts';
import { ADMIN, freshDatabase, newAgent, testConfig } from './harness.ts';

/** Every log line names what it was written for: the request (its X-Request-Id) or the job pass. */
describe('request ids in every log line', () => {
  let database: Database;
  let deps: Deps;
  let app: ReturnType<typeof createApp>;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    database = await freshDatabase('pglite');
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    deps = await createDeps(testConfig(), { database, logger: createLogger('trace', sink) });
    app = createApp(deps);
  });
  afterAll(() => database.close());

  /** Sends one request and returns it with the log lines written while it ran. */
  async function logged(path: string, init: RequestInit = {}) {
    const from = lines.length;
    const res = await app.request(path, init);
    const body = await res.text();
    return { res, body, requestId: res.headers.get('x-request-id'), lines: lines.slice(from) };
  }

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

  it('stamps the request id on the request line and on lines written deep inside a feature', async () => {
    const login = await logged(
      '/api/auth/login',
      post(contracts.auth.login.path, { identifier: ADMIN.email, password: ADMIN.password }),
    );
    const { token } = AuthResponse.parse(JSON.parse(login.body));
    // Creating an agent queues its credentials mail: 'mail queued' is logged by the mailer through deps.logger.
    const created = await logged(
      '/api/agents',
      post('', newAgent({ send_credentials_via: 'email' }), { authorization: `Bearer ${token}` }),
    );
    expect(created.res.status, created.body).toBe(201);
    expect(created.lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['mail queued', 'request']));
    for (const request of [login, created]) {
      expect(request.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(request.lines.length).toBeGreaterThan(0);
      for (const line of request.lines) expect(line).toMatchObject({ requestId: request.requestId });
    }
  });

  it('puts the same id in the error envelope, the header and the log lines of a failed request', async () => {
    const failed = await logged('/api/auth/register', post('', { email: 'not an address' }));
    expect(failed.res.status).toBe(400);
    expect(JSON.parse(failed.body).error.requestId).toBe(failed.requestId);
    expect(failed.lines).toContainEqual(expect.objectContaining({ msg: 'request', status: 400 }));
    for (const line of failed.lines) expect(line).toMatchObject({ requestId: failed.requestId });
  });

  it("keeps a proxy's safe X-Request-Id and replaces one that could forge or bloat a log line", async () => {
    const kept = await logged('/api/meta', { headers: { 'X-Request-Id': 'edge-7f3a.b_91-xyz' } });
    expect(kept.requestId).toBe('edge-7f3a.b_91-xyz');
    expect(kept.lines).toContainEqual(expect.objectContaining({ msg: 'request', requestId: 'edge-7f3a.b_91-xyz' }));

    for (const forged of ['abc def ghi jkl', 'abcdefgh\tinjected', 'short', 'x'.repeat(129), 'abcdefgh"}{"level":60']) {
      const res = await logged('/api/no-such-route', { headers: { 'X-Request-Id': forged } });
      expect(res.requestId).not.toBe(forged);
      expect(res.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(res.body).error.requestId).toBe(res.requestId);
      for (const line of res.lines) expect(line).toMatchObject({ requestId: res.requestId });
    }
  });

  it('keeps concurrent requests apart', async () => {
    const from = lines.length;
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        app.request('/api/meta', { headers: { 'X-Request-Id': `concurrent-${i}-id` } }),
      ),
    );
    expect(responses.map((r) => r.headers.get('x-request-id'))).toEqual(
      Array.from({ length: 5 }, (_, i) => `concurrent-${i}-id`),
    );
    const ids = lines.slice(from).map((l) => l.requestId);
    expect(new Set(ids)).toEqual(new Set(Array.from({ length: 5 }, (_, i) => `concurrent-${i}-id`)));
  });

  it("keeps one line's fields off the later lines of the same job run", async () => {
    const from = lines.length;
    const pass = observedPass(
      deps,
      'sms',
      async () => {
        deps.logger.info({ sms: { text: 'Your Filamu code is 123456' } }, 'first');
        deps.logger.info('second');
      },
      () => {},
    );
    await pass();
    const [first, second] = lines.slice(from);
    expect(first).toMatchObject({ msg: 'first', sms: { text: 'Your Filamu code is 123456' } });
    expect(second).toMatchObject({ msg: 'second', job: 'sms', runId: first!.runId });
    expect(second).not.toHaveProperty('sms');
  });

  it('gives each background job pass its own run id, on its error line too', async () => {
    const from = lines.length;
    const onError = (error: unknown) => deps.logger.error({ err: error }, 'sweep failed');
    let fail = false;
    const pass = observedPass(
      deps,
      'stale_sweep',
      async () => {
        deps.logger.info('sweeping');
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (fail) throw new Error('database gone');
        deps.logger.info('swept');
      },
      onError,
    );
    await pass();
    fail = true;
    await pass();
    const written = lines.slice(from);
    expect(written.map((l) => l.msg)).toEqual(['sweeping', 'swept', 'sweeping', 'sweep failed']);
    for (const line of written) expect(line).toMatchObject({ job: 'stale_sweep', runId: expect.any(String) });
    expect(written[0]!.runId).toBe(written[1]!.runId);
    expect(written[2]!.runId).toBe(written[3]!.runId);
    expect(written[0]!.runId).not.toBe(written[2]!.runId);
    expect(written.some((l) => 'requestId' in l)).toBe(false);

    const runs = await deps.metrics.jobRuns.get();
    const count = (outcome: string) =>
      runs.values.find((v) => v.labels.job === 'stale_sweep' && v.labels.outcome === outcome)?.value;
    expect([count('ok'), count('error')]).toEqual([1, 1]);
  });
});
