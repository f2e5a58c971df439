import { Writable } from 'node:stream';
import { AuthResponse, CreateAgentResponse, contracts } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { createDeps, createLogger } from '../src/bootstrap.ts';
import type { Database } from '../src/db/client.ts';
import { mailOutbox } from '../src/db/schema.ts';
import { ADMIN, freshDatabase, newUser, testConfig, testDatabases } from './harness.ts';

/** What the server logs while real flows run: no password or token may ever appear in it. */
describe.each(testDatabases)('logs never carry secrets on %s', (kind) => {
  let database: Database;
  let app: ReturnType<typeof createApp>;
  const lines: string[] = [];

  beforeAll(async () => {
    database = await freshDatabase(kind);
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const deps = await createDeps(testConfig(), { database, logger: createLogger('trace', sink) });
    app = createApp(deps);
  });
  afterAll(() => database.close());

  const post = (path: string, body: unknown, token?: string) =>
    app.request(`/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });

  it('logs each request with id, method, path, status and duration, and no password or token', async () => {
    const user = newUser();
    const registered = AuthResponse.parse(await (await post(contracts.auth.register.path, user)).json());
    await post(contracts.auth.login.path, { identifier: user.email, password: 'wrong password here' });
    const admin = AuthResponse.parse(
      await (await post(contracts.auth.login.path, { identifier: ADMIN.email, password: ADMIN.password })).json(),
    );
    const agentBody = {
      full_name: 'Agent Log',
      phone: '0701000001',
      email: 'agent.log@example.com',
      send_credentials_via: 'both',
    };
    const created = CreateAgentResponse.parse(
      await (await post(contracts.agents.createAgent.path, agentBody, admin.token)).json(),
    );

    const log = lines.join('');
    const secrets = [
      user.password,
      'wrong password here',
      ADMIN.password,
      registered.token,
      admin.token,
      created.generatedPassword,
    ];
    for (const secret of secrets) expect(log).not.toContain(secret);

    const requestLines = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request');
    expect(requestLines).toContainEqual(
      expect.objectContaining({
        method: 'POST',
        path: '/api/auth/register',
        status: 201,
        requestId: expect.any(String),
        durationMs: expect.any(Number),
      }),
    );
    expect(requestLines).toContainEqual(expect.objectContaining({ path: '/api/auth/login', status: 401 }));
    expect(log).toContain('mail queued');

    // The credentials mail itself is in the outbox, addressed to the agent.
    const [mail] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'agent.log@example.com'));
    expect(mail?.body).toContain(created.generatedPassword);
  });
});
