/**
 * `pnpm bench`: figures, not pass/fail. The password hash on this machine, authenticated request
 * throughput, the library and grant endpoints with 5,000 movies (each also as a ratio of the profile request
 * measured beside it, docs/decisions/0069), range serving through /files, and (with DATABASE_URL) sign-in,
 * library and grants at 10,000 movies / 100,000 users on Postgres with two replicas (scale.ts, decision 0100).
 */
import { performance } from 'node:perf_hooks';
import { hashPassword, verifyPassword } from '../src/features/auth/passwords.ts';
import { createTestApp, newUser, testDatabases } from '../test/harness.ts';
import { benchCatalog } from './catalog.ts';
import { benchFiles } from './files.ts';
import { benchScale } from './scale.ts';
import { describeLoad, load, percentile } from './measure.ts';

async function benchHash(): Promise<void> {
  const hash = await hashPassword('correct horse battery');
  const samples: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    await verifyPassword(hash, 'correct horse battery');
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  console.log(
    `argon2id m=19456 t=2 p=1 verify: median ${percentile(samples, 50).toFixed(1)} ms, p90 ${percentile(samples, 90).toFixed(1)} ms`,
  );
}

async function benchProfile(kind: (typeof testDatabases)[number]): Promise<void> {
  const t = await createTestApp(kind);
  const registered = await t.request('POST', '/api/auth/register', { body: newUser() });
  const token = registered.json.token as string;
  const figures = await load(2000, 20, async () => {
    const res = await t.request('GET', '/api/auth/profile', { token });
    if (res.status !== 200) throw new Error(`profile answered ${res.status}`);
  });
  console.log(`GET /api/auth/profile on ${kind}: ${describeLoad(figures)} (20 concurrent, in-process)`);
  await t.close();
}

await benchHash();
for (const kind of testDatabases) await benchProfile(kind);
for (const kind of testDatabases) await benchCatalog(kind);
await benchFiles();
if (process.env.DATABASE_URL) await benchScale(process.env.DATABASE_URL);
else console.log('scale bench (10,000 movies, 100,000 users, two replicas) skipped: it needs DATABASE_URL (Postgres)');
