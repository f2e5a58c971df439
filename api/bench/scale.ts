/**
 * The scale bench (issue 12; docs/decisions/0100): a throwaway Postgres database seeded with the scale data set
 * (seed-scale.ts: 10,000 movies, 100,000 users, ~285,000 downloads), TWO server processes on it sharing one
 * objects folder, and autocannon spreading its connections over both. Measured in order: sign-in of seeded
 * subscribers (each once; argon2id dominates), the library listing with the tokens those sign-ins returned,
 * first download grants of distinct (subscriber, movie) pairs, and the same pairs again as resumes. Every
 * answer must be 2xx: a figure is never of errors. Needs DATABASE_URL (the server to create the database on).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import { SEED_PASSWORD, seedEmail, seedScale } from './seed-scale.ts';

const API_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const PORTS = [18_391, 18_392];
/** Distinct movies the grant stages use (each gets a sparse file of its real size in the shared folder). */
const GRANT_MOVIES = 400;
const GRANTS_PER_SUBSCRIBER = 4;

const describe = (r: Result) =>
  `${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms (${r.requests.total} requests)`;

function assertClean(what: string, r: Result): void {
  if (r.errors > 0 || r.timeouts > 0 || r.non2xx > 0) {
    throw new Error(`${what}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts of ${r.requests.total}`);
  }
}

async function startReplica(port: number, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: API_DIR,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`replica :${port} exited (${child.exitCode})`);
    const up = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
    await new Promise((done) => setTimeout(done, 250));
  }
  child.kill('SIGTERM');
  throw new Error(`replica :${port} did not answer /api/health within 60 s`);
}

export async function benchScale(serverUrl: string): Promise<void> {
  const name = `filamu_scale_${randomBytes(4).toString('hex')}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'filamu-scale-'));
  const replicas: ChildProcess[] = [];
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    const seeded = await seedScale(url.toString());
    console.log(
      `scale seed: ${seeded.counts.movies} movies, ${seeded.counts.users} users, ${seeded.counts.payments} payments, ` +
        `${seeded.counts.downloads} downloads in ${seeded.seconds.toFixed(1)} s`,
    );
    await client.connect();

    // The files the grant stages ask storage about: sparse, so a 2 GB movie costs nothing on disk.
    const { rows: grantMovies } = await client.query<{ id: string; s3_key: string; size_bytes: string }>(
      `select m.id, m.s3_key, m.size_bytes from movies m
       join movie_plans mp on mp.movie_id = m.id join subscription_plans p on p.id = mp.plan_id and p.plan_name = 'Basic'
       where m.category = 'Kinayuganda' and m.is_active and m.deleted_at is null
       order by m.created_at limit ${GRANT_MOVIES}`,
    );
    for (const movie of grantMovies) {
      const path = join(dataDir, 'objects', movie.s3_key);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, Buffer.from('000000186674797069736f6d0000020069736f6d', 'hex'));
      truncateSync(path, Number(movie.size_bytes));
    }

    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'),
      STORAGE_SIGNING_SECRET: randomBytes(32).toString('hex'),
      ADMIN_EMAIL: 'admin@scale.test',
      ADMIN_PASSWORD: randomBytes(12).toString('hex'),
      LOG_LEVEL: 'warn',
      PAYMENT_RECONCILE_INTERVAL_MS: '0',
      STALE_DOWNLOAD_SWEEP_INTERVAL_MS: '0',
    };
    for (const port of PORTS) replicas.push(await startReplica(port, env));
    const urls = PORTS.map((port) => `http://127.0.0.1:${port}`);
    const label = `on Postgres, 2 replicas, ${seeded.counts.movies} movies / ${seeded.counts.users} users`;

    // Sign-in: subscribed seeded users (number mod 20 in 0–10), each once (a sign-in ends that user's other session).
    const subscribed = Array.from({ length: 54_000 }, (_, k) => Math.floor(k / 11) * 20 + (k % 11) + 20);
    const tokens: string[] = [];
    let nextLogin = 0;
    const login = await autocannon({
      url: urls,
      connections: 8,
      duration: 15,
      timeout: 30,
      requests: [
        {
          method: 'POST',
          path: '/api/auth/login',
          headers: { 'content-type': 'application/json' },
          setupRequest: (request) => {
            const n = subscribed[nextLogin++ % subscribed.length]!;
            return {
              ...request,
              body: JSON.stringify({
                identifier: seedEmail(n),
                password: SEED_PASSWORD,
                currentDeviceId: `bench-${n}`,
              }),
            };
          },
          onResponse: (status, body) => {
            if (status === 200) tokens.push((JSON.parse(body) as { token: string }).token);
          },
        },
      ],
    });
    assertClean('POST /api/auth/login', login);
    console.log(`POST /api/auth/login (seeded subscribers, each once) ${label}: ${describe(login)}`);
    if (tokens.length < 50) throw new Error(`only ${tokens.length} sign-ins succeeded: too few to measure with`);

    let nextLibrary = 0;
    const library = await autocannon({
      url: urls,
      connections: 20,
      duration: 15,
      requests: [
        {
          method: 'GET',
          path: '/api/users/movies',
          setupRequest: (request) => ({
            ...request,
            headers: { authorization: `Bearer ${tokens[nextLibrary++ % tokens.length]}` },
          }),
        },
      ],
    });
    assertClean('GET /api/users/movies', library);
    console.log(`GET /api/users/movies (first page per category) ${label}: ${describe(library)}`);

    // Grants: distinct (subscriber, movie) pairs the subscriber has no download of yet.
    const signedIn = tokens.map((token) => {
      const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string };
      return { token, userId: claims.sub };
    });
    const { rows: owned } = await client.query<{ user_id: string; movie_id: string }>(
      'select user_id, movie_id from downloads where user_id = any($1::uuid[])',
      [signedIn.map((s) => s.userId)],
    );
    const ownedPairs = new Set(owned.map((o) => `${o.user_id}/${o.movie_id}`));
    const pairs: { token: string; movieId: string }[] = [];
    for (const [k, person] of signedIn.entries()) {
      for (let j = 0, added = 0; added < GRANTS_PER_SUBSCRIBER && j < grantMovies.length; j++) {
        const movie = grantMovies[(k * 7 + j) % grantMovies.length]!;
        if (ownedPairs.has(`${person.userId}/${movie.id}`)) continue;
        pairs.push({ token: person.token, movieId: movie.id });
        added += 1;
      }
    }
    const grantRun = async (what: string) => {
      let next = 0;
      const result = await autocannon({
        url: urls,
        connections: 20,
        amount: pairs.length,
        requests: [
          {
            method: 'POST',
            path: '/api/users/movies/generate-download-url',
            setupRequest: (request) => {
              const pair = pairs[next++ % pairs.length]!;
              return {
                ...request,
                headers: { 'content-type': 'application/json', authorization: `Bearer ${pair.token}` },
                body: JSON.stringify({ movieId: pair.movieId }),
              };
            },
          },
        ],
      });
      assertClean(what, result);
      console.log(`${what} ${label}: ${describe(result)}`);
    };
    await grantRun('POST /api/users/movies/generate-download-url (new grants)');
    // What the stale sweep does to a download silent for an hour; the next grant of it is a resume.
    await client.query(`update downloads set status = 'paused' where status = 'starting'`);
    await grantRun('POST /api/users/movies/generate-download-url (resumes)');
  } finally {
    for (const replica of replicas) replica.kill('SIGTERM');
    await Promise.all(
      replicas.map((r) => new Promise((done) => (r.exitCode !== null ? done(null) : r.once('exit', done)))),
    );
    await client.end().catch(() => undefined);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
