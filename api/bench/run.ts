/**
 * `pnpm bench`: figures, not pass/fail. Measures the password hash on this machine and the
 * throughput of authenticated requests (session lookup on every call) through the real app.
 */
import { performance } from 'node:perf_hooks';
import { hashPassword, verifyPassword } from '../src/features/auth/passwords.ts';
import { createTestApp, newUser, testDatabases } from '../test/harness.ts';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

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
  const total = 2000;
  const concurrency = 20;
  const latencies: number[] = [];
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next += 1;
        const begun = performance.now();
        const res = await t.request('GET', '/api/auth/profile', { token });
        if (res.status !== 200) throw new Error(`profile answered ${res.status}`);
        latencies.push(performance.now() - begun);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    `GET /api/auth/profile on ${kind}: ${(total / seconds).toFixed(0)} req/s, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (${concurrency} concurrent, in-process)`,
  );
  await t.close();
}

await benchHash();
for (const kind of testDatabases) await benchProfile(kind);
