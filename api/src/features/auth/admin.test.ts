import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthResponse, UserProfile } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import {
  ADMIN,
  type TestApp,
  capturingLogger,
  createTestApp,
  expectErrorEnvelope,
  freshDatabase,
  freshIp,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { ADOPTION_REFUSED } from './protected-admin.ts';

function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('loadConfig accepted an invalid environment');
}

describe('loadConfig', () => {
  it('treats empty ADMIN_EMAIL/ADMIN_PASSWORD as unset', () => {
    const config = loadConfig({ ADMIN_EMAIL: '', ADMIN_PASSWORD: '', JWT_SECRET: '', DATABASE_URL: '' });
    expect(config.admin).toBeNull();
    expect(config.jwtSecret).toBeNull();
    expect(config.databaseUrl).toBeNull();
  });

  it('lower-cases the configured admin email', () => {
    const config = loadConfig({ ADMIN_EMAIL: 'Boss@Example.COM', ADMIN_PASSWORD: 'long enough' });
    expect(config.admin).toMatchObject({ email: 'boss@example.com', password: 'long enough' });
  });

  it.each([
    ['a non-numeric PORT', { PORT: 'eighty' }, /^PORT: /],
    ['an out-of-range PORT', { PORT: '70000' }, /^PORT: /],
    ['a short JWT_SECRET', { JWT_SECRET: 'too-short' }, /^JWT_SECRET: must be at least 32 characters$/],
    ['ADMIN_EMAIL without ADMIN_PASSWORD', { ADMIN_EMAIL: 'a@example.com' }, /ADMIN_EMAIL and ADMIN_PASSWORD/],
    ['ADMIN_PASSWORD without ADMIN_EMAIL', { ADMIN_PASSWORD: 'long enough' }, /ADMIN_EMAIL and ADMIN_PASSWORD/],
    ['a short ADMIN_PASSWORD', { ADMIN_EMAIL: 'a@example.com', ADMIN_PASSWORD: 'short' }, /^ADMIN_PASSWORD: /],
  ])('refuses %s with a readable problem', (_name, env, pattern) => {
    const problems = configProblems(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(pattern);
  });

  it('lists every problem at once', () => {
    const problems = configProblems({ PORT: 'eighty', JWT_SECRET: 'too-short', ADMIN_EMAIL: 'a@example.com' });
    expect(problems).toEqual([
      expect.stringMatching(/^PORT: /),
      expect.stringMatching(/^JWT_SECRET: /),
      expect.stringMatching(/ADMIN_EMAIL and ADMIN_PASSWORD must be set together/),
    ]);
    try {
      loadConfig({ PORT: 'eighty', JWT_SECRET: 'too-short', ADMIN_EMAIL: 'a@example.com' });
    } catch (error) {
      for (const problem of problems) expect((error as Error).message).toContain(problem);
    }
  });
});

describe.each(testDatabases)('the protected admin on %s', (kind) => {
  const login = (t: TestApp, identifier: string, password: string) =>
    t.request('POST', '/api/auth/login', { body: { identifier, password }, ip: freshIp() });

  describe('from ADMIN_EMAIL / ADMIN_PASSWORD', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind);
    });
    afterAll(() => t.close());

    it('signs in with isAdmin true and may use admin routes', async () => {
      const res = await login(t, ADMIN.email.toUpperCase(), ADMIN.password);
      expect(res.status).toBe(200);
      const { token, user } = AuthResponse.parse(res.json);
      expect(user).toMatchObject({ email: ADMIN.email, isAdmin: true });
      expect(UserProfile.parse((await t.request('GET', '/api/auth/profile', { token })).json).isAdmin).toBe(true);
      expect((await t.request('GET', '/api/agents', { token })).status).toBe(200);
      const rows = await t.deps.database.db.select().from(users).where(eq(users.isProtected, true));
      expect(rows.map((r) => r.email)).toEqual([ADMIN.email]);
    });

    it('refuses a wrong admin password like any other', async () => {
      expectErrorEnvelope(
        await login(t, ADMIN.email, 'not-the-admin-password'),
        401,
        'unauthenticated',
        'Invalid credentials. Please try again.',
      );
    });
  });

  describe('an account that exists before ADMIN_EMAIL names it', () => {
    let database: Database;
    beforeAll(async () => {
      database = await freshDatabase(kind);
    });
    afterAll(() => database.close());
    const start = (env: Record<string, string>) => createTestApp(kind, { env, database, keepDatabaseOpen: true });

    it('is not made admin unless the operator says so, and then loses every session it had', async () => {
      const first = await start({});
      const squatter = await registerUser(first);
      const email = squatter.body.email as string;
      await first.close();

      const adminEnv = { ADMIN_EMAIL: email, ADMIN_PASSWORD: 'the operator chose this' };
      await expect(start(adminEnv)).rejects.toThrow(ConfigError);
      await expect(start(adminEnv)).rejects.toThrow(ADOPTION_REFUSED);
      expect(ADOPTION_REFUSED).toContain('ADMIN_ADOPT_EXISTING=true');
      const [still] = await database.db.select().from(users).where(eq(users.email, email));
      expect(still).toMatchObject({ isAdmin: false, isProtected: false });

      const adopted = await start({ ...adminEnv, ADMIN_ADOPT_EXISTING: 'true' });
      // The token issued before the promotion is not an admin token: it no longer works at all.
      expect((await adopted.request('GET', '/api/agents', { token: squatter.token })).status).toBe(401);
      expect((await adopted.request('GET', '/api/auth/profile', { token: squatter.token })).status).toBe(401);
      const res = await login(adopted, email, adminEnv.ADMIN_PASSWORD);
      expect(res.json.user).toMatchObject({ email, isAdmin: true });
      expect((await login(adopted, email, squatter.body.password as string)).status).toBe(401);
      await adopted.close();
    });

    it('signs the admin out when a start changes its password, and only then', async () => {
      const env = { ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'first admin password' };
      const first = await start(env);
      const { token } = AuthResponse.parse((await login(first, env.ADMIN_EMAIL, env.ADMIN_PASSWORD)).json);
      await first.close();

      const restarted = await start(env);
      expect((await restarted.request('GET', '/api/agents', { token })).status).toBe(200);
      await restarted.close();

      const repassworded = await start({ ...env, ADMIN_PASSWORD: 'second admin password' });
      expect((await repassworded.request('GET', '/api/agents', { token })).status).toBe(401);
      expect((await login(repassworded, env.ADMIN_EMAIL, 'second admin password')).status).toBe(200);
      await repassworded.close();
    });
  });

  describe('when ADMIN_EMAIL moves to another address', () => {
    let database: Database;
    beforeAll(async () => {
      database = await freshDatabase(kind);
    });
    afterAll(() => database.close());

    it('demotes and signs out the old admin at start, with a log line for it', async () => {
      const old = { ADMIN_EMAIL: 'old.boss@example.com', ADMIN_PASSWORD: 'old admin password' };
      const first = await createTestApp(kind, { env: old, database, keepDatabaseOpen: true });
      const signedIn = AuthResponse.parse((await login(first, old.ADMIN_EMAIL, old.ADMIN_PASSWORD)).json);
      expect(signedIn.user.isAdmin).toBe(true);
      await first.close();

      const log = capturingLogger();
      const next = { ADMIN_EMAIL: 'new.boss@example.com', ADMIN_PASSWORD: 'new admin password' };
      const rotated = await createTestApp(kind, { env: next, database, keepDatabaseOpen: true, logger: log.logger });
      // The old admin's live session no longer works, for admin routes or any other.
      const refused = await rotated.request('GET', '/api/agents', { token: signedIn.token });
      expectErrorEnvelope(refused, 401, 'unauthenticated', 'This account is no longer an admin. Please sign in again.');
      expect((await rotated.request('GET', '/api/auth/profile', { token: signedIn.token })).status).toBe(401);
      // Signing in again gives an ordinary account, refused on admin routes.
      const again = await login(rotated, old.ADMIN_EMAIL, old.ADMIN_PASSWORD);
      const { token, user } = AuthResponse.parse(again.json);
      expect(user.isAdmin).toBe(false);
      expect((await rotated.request('GET', '/api/agents', { token })).status).toBe(403);
      expect((await login(rotated, next.ADMIN_EMAIL, next.ADMIN_PASSWORD)).json.user).toMatchObject({ isAdmin: true });
      const admins = await database.db.select().from(users).where(eq(users.isAdmin, true));
      expect(admins.map((a) => a.email)).toEqual([next.ADMIN_EMAIL]);

      const demotions = log.entries().filter((e) => String(e.msg).startsWith('admin rights removed'));
      expect(demotions).toEqual([
        expect.objectContaining({
          level: 40,
          userId: signedIn.user.id,
          email: old.ADMIN_EMAIL,
          admin: next.ADMIN_EMAIL,
        }),
      ]);
      await rotated.close();

      // A later start with the same ADMIN_EMAIL has nobody left to demote.
      const quiet = capturingLogger();
      const restarted = await createTestApp(kind, {
        env: next,
        database,
        keepDatabaseOpen: true,
        logger: quiet.logger,
      });
      expect(quiet.entries().filter((e) => String(e.msg).startsWith('admin rights removed'))).toEqual([]);
      await restarted.close();
    });

    it('demotes the generated admin once ADMIN_EMAIL is set', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'filamu-admin-rotate-'));
      const generated = await createTestApp(kind, {
        env: { ADMIN_EMAIL: '', ADMIN_PASSWORD: '', DATA_DIR: dataDir },
        database: await freshDatabase(kind),
      });
      const db = generated.deps.database;
      const text = readFileSync(join(dataDir, 'admin-credentials.txt'), 'utf8');
      const password = /^password: (.+)$/m.exec(text)![1]!;
      const before = AuthResponse.parse((await login(generated, 'admin@filamu.local', password)).json);
      const log = capturingLogger();
      const named = await createTestApp(kind, { env: {}, database: db, keepDatabaseOpen: true, logger: log.logger });
      expect((await named.request('GET', '/api/agents', { token: before.token })).status).toBe(401);
      expect((await login(named, 'admin@filamu.local', password)).json.user).toMatchObject({ isAdmin: false });
      expect(log.entries()).toContainEqual(
        expect.objectContaining({ msg: expect.stringMatching(/^admin rights removed/), email: 'admin@filamu.local' }),
      );
      await named.close();
      await generated.close();
    });
  });

  describe('without ADMIN_EMAIL / ADMIN_PASSWORD', () => {
    let database: Database;
    const dataDir = mkdtempSync(join(tmpdir(), 'filamu-admin-test-'));
    const env = { ADMIN_EMAIL: '', ADMIN_PASSWORD: '', DATA_DIR: dataDir };
    beforeAll(async () => {
      database = await freshDatabase(kind);
    });
    afterAll(() => database.close());

    const readCredentials = () => {
      const text = readFileSync(join(dataDir, 'admin-credentials.txt'), 'utf8');
      const email = /^email: (.+)$/m.exec(text)?.[1];
      const password = /^password: (.+)$/m.exec(text)?.[1];
      return { email: email!, password: password! };
    };

    it('generates credentials once, keeps them across restarts and never adds a second protected admin', async () => {
      const first = await createTestApp(kind, { env, database, keepDatabaseOpen: true });
      expect(first.deps.config.admin).toBeNull();
      expect(first.deps.config.dataDir).toBe(dataDir);
      const file = join(first.deps.config.dataDir, 'admin-credentials.txt');
      if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
      const credentials = readCredentials();
      expect(credentials.email).toBe('admin@filamu.local');
      expect(credentials.password).toMatch(/^\S{20}$/);

      const res = await login(first, credentials.email, credentials.password);
      expect(res.status).toBe(200);
      const { token, user } = AuthResponse.parse(res.json);
      expect(user.isAdmin).toBe(true);
      const [stored] = await database.db.select().from(users).where(eq(users.email, credentials.email));
      expect(stored!.passwordHash).toMatch(/^\$argon2id\$/);
      expect(stored!.passwordHash).not.toContain(credentials.password);
      await first.close();

      // The database is still open: closing the first app did not drop it.
      const second = await createTestApp(kind, { env, database, keepDatabaseOpen: true });
      expect(readCredentials()).toEqual(credentials);
      // The signing key lives in the database, so the earlier token still works after the restart.
      expect((await second.request('GET', '/api/agents', { token })).status).toBe(200);
      const again = await login(second, credentials.email, credentials.password);
      expect(again.status).toBe(200);
      expect(again.json.user).toMatchObject({ id: user.id, isAdmin: true });

      const admins = await database.db.select().from(users).where(eq(users.isAdmin, true));
      expect(admins).toHaveLength(1);
      const protectedAdmins = await database.db.select().from(users).where(eq(users.isProtected, true));
      expect(protectedAdmins.map((r) => r.id)).toEqual([user.id]);
      await second.close();
    });
  });
});
