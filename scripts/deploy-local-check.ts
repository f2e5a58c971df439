/**
 * The compose topology without Docker, for machines (and CI) that have none: a throwaway Postgres database,
 * s3rver as the bucket (set up by deploy/s3-init.mjs), two built servers (api/dist/server.js) on it, and a
 * round-robin proxy that adds X-Request-Id, X-Forwarded-For and X-Upstream like deploy/nginx.conf. Then
 * scripts/deploy-smoke.ts against the proxy, and a rolling restart of both replicas under a request loop.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
 *     npx pnpm@10 --filter ./api exec node --import tsx ../scripts/deploy-local-check.ts
 *
 * With `--local` the replicas use the local driver on one shared objects folder instead of the bucket.
 * Needs `npx pnpm@10 build` first. s3rver does not check signatures; deploy/compose.yaml (MinIO) does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { startS3rver } from '../api/src/features/storage/s3rver.testing.ts';

// pg is the server's dependency, resolved from api/ (scripts/ has no node_modules of its own).
interface PgClient {
  connect(): Promise<void>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}
const pg = createRequire(new URL('../api/package.json', import.meta.url))('pg') as {
  Client: new (options: { connectionString: string }) => PgClient;
};

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) throw new Error('Set DATABASE_URL to a Postgres server (a throwaway database is created on it).');

const children = new Set<ChildProcess>();
/** Runs node with `args` in `cwd` (api/ for tsx, which is the api package's devDependency). */
const run = (args: string[], env: NodeJS.ProcessEnv, cwd = ROOT) =>
  new Promise<number>((done) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: 'inherit' });
    child.on('exit', (code) => done(code ?? 1));
  });

async function sql(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const name = `filamu_deploy_${randomBytes(4).toString('hex')}`;
const dbUrl = new URL(serverUrl);
dbUrl.pathname = `/${name}`;
await sql(serverUrl, `CREATE DATABASE ${name}`);
const s3 = await startS3rver({ bucket: 'filamu-deploy', corsOrigins: ['http://localhost:8080'] });
const admin = { email: 'admin@deploy.test', password: randomBytes(12).toString('hex') };
const ports = [18471, 18472];
const localStorage = process.argv.includes('--local');
/** The objects folder both replicas share with --local (DATA_DIR/objects). */
const sharedDataDir = join(s3.directory, 'shared-data');

const serverEnv = (port: number): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  NODE_ENV: 'production',
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: localStorage ? sharedDataDir : join(s3.directory, `data-${port}`),
  DATABASE_URL: dbUrl.toString(),
  TRUST_PROXY: 'true',
  LOG_LEVEL: 'warn',
  JWT_SECRET: 'j'.repeat(48),
  STORAGE_SIGNING_SECRET: 's'.repeat(48),
  CONTENT_MASTER_KEY: 'c'.repeat(48),
  ADMIN_EMAIL: admin.email,
  ADMIN_PASSWORD: admin.password,
  // A rehearsal: payments on the built-in DPO sandbox, said out loud as production requires.
  ALLOW_PAYMENT_SANDBOX: 'true',
  ALLOW_SMS_SIMULATOR: 'true',
  ...(localStorage
    ? {}
    : {
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: s3.config.credentials!.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.config.credentials!.secretAccessKey,
      }),
});

async function startReplica(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['api/dist/server.js'], { cwd: ROOT, env: serverEnv(port), stdio: 'ignore' });
  children.add(child);
  child.on('exit', () => children.delete(child));
  for (let i = 0; i < 120; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`replica on ${port} did not become healthy`);
}

/** Round-robin over the live replicas; a refused connection tries the next one (idempotent methods only). */
function startProxy(): Promise<http.Server> {
  let next = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const attempt = (tries: number) => {
        const port = ports[next++ % ports.length]!;
        const upstream = http.request(
          {
            host: '127.0.0.1',
            port,
            method: req.method,
            path: req.url,
            headers: {
              ...req.headers,
              'x-request-id': randomBytes(16).toString('hex'),
              'x-forwarded-for': req.socket.remoteAddress ?? '127.0.0.1',
            },
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-upstream': `127.0.0.1:${port}` });
            answer.pipe(res);
          },
        );
        upstream.on('error', () => {
          if (tries > 1 && (req.method === 'GET' || req.method === 'HEAD')) return attempt(tries - 1);
          res.writeHead(502).end();
        });
        upstream.end(body);
      };
      attempt(ports.length);
    });
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

let failed = false;
try {
  const init = await run(['deploy/s3-init.mjs'], {
    PATH: process.env.PATH,
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: s3.config.credentials!.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.config.credentials!.secretAccessKey,
    CORS_ALLOWED_ORIGINS: 'http://localhost:8080',
  });
  if (init !== 0) throw new Error('deploy/s3-init.mjs failed');
  // The first replica migrates the database; the second starts on the migrated one (as in a rolling deploy).
  const replicas = [await startReplica(ports[0]!), await startReplica(ports[1]!)];
  const proxy = await startProxy();
  const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const smokeEnv = { ...process.env, ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password };
  const smoke = ['--import', 'tsx', '../scripts/deploy-smoke.ts', '--base-url', base];
  if ((await run([...smoke, '--expect-replicas', '2'], smokeEnv, join(ROOT, 'api'))) !== 0)
    throw new Error('the smoke test failed');

  // Rolling restart: stop and restart each replica in turn while a loop of requests runs through the proxy.
  process.stdout.write('Rolling restart under a request loop:\n');
  const loop = run([...smoke, '--loop', '12'], smokeEnv, join(ROOT, 'api'));
  for (const [i, port] of ports.entries()) {
    replicas[i]!.kill('SIGTERM');
    await new Promise((done) => replicas[i]!.once('exit', done));
    replicas[i] = await startReplica(port);
    process.stdout.write(`  replica :${port} stopped (SIGTERM) and started again\n`);
  }
  if ((await loop) !== 0) throw new Error('requests failed during the rolling restart');
  process.stdout.write('  ✓ no failed request during the rolling restart\n');
  proxy.close();
} catch (error) {
  failed = true;
  process.stdout.write(`\n✗ ${error instanceof Error ? error.message : String(error)}\n`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((done) => setTimeout(done, 1000));
  await sql(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await s3.close();
}
process.exit(failed ? 1 : 0);
