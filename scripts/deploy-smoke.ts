// A tool, not production code: one walk through a deployed instance, step by step.
/**
 * Proves a deployed Filamu answers the way a person's browser needs, through whatever is at the base URL (the
 * proxy of deploy/compose.yaml, or any load balancer): readiness, the landing page, register and sign in, the
 * admin uploading a file through a signed upload link and saving a movie, a subscriber's library and download
 * link, the download byte for byte (whole and a range), and how many replicas answered.
 *
 *   node --import tsx scripts/deploy-smoke.ts --base-url http://localhost:8080 [--expect-replicas 2]
 *   node --import tsx scripts/deploy-smoke.ts --base-url … --loop 30   (GETs for 30 s; any failure is counted)
 *
 * The admin comes from ADMIN_EMAIL / ADMIN_PASSWORD. Replicas are counted by the proxy's `X-Upstream` header
 * (deploy/nginx.conf adds it). Exits 1 on the first failed check, printing what was proved until then.
 * Needs only Node: requests go through node:http so that `*.localhost` names (the compose file's S3 endpoint)
 * reach the loopback address whatever this machine's resolver thinks of them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { parseArgs } from 'node:util';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** `*.localhost` is loopback (RFC 6761), as browsers treat it; everything else resolves normally. */
const lookup: LookupFunction = (hostname, options, callback) => {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    if (options.all)
      return (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: '127.0.0.1', family: 4 },
      ]);
    return callback(null, '127.0.0.1', 4);
  }
  import('node:dns').then((dns) => dns.lookup(hostname, options, callback as never), callback as never);
};

function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Uint8Array | string } = {},
): Promise<Answer> {
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  // An explicit Content-Length: node would otherwise send the body chunked, which S3 refuses on a PUT (411).
  const headers = { ...options.headers };
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  return new Promise((resolve, reject) => {
    const request = transport.request(
      target,
      { method: options.method ?? 'GET', headers, lookup, timeout: 30_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const body = Buffer.concat(chunks);
          let json: unknown;
          try {
            json = JSON.parse(body.toString('utf8'));
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, json });
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer from ${target.origin} within 30 s`)));
    request.on('error', reject);
    request.end(options.body);
  });
}

class SmokeFailure extends Error {}

const proved: string[] = [];
const upstreams = new Set<string>();

function check(condition: unknown, what: string, answer?: Answer): asserts condition {
  if (condition) return;
  const detail = answer ? ` (HTTP ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)})` : '';
  throw new SmokeFailure(`${what}${detail}`);
}

function ok(what: string): void {
  proved.push(what);
  process.stdout.write(`  ✓ ${what}\n`);
}

function noteUpstream(answer: Answer): void {
  const upstream = answer.headers['x-upstream'];
  if (typeof upstream === 'string' && upstream !== '') upstreams.add(upstream.split(',').pop()!.trim());
}

function api(base: string) {
  return async (method: string, path: string, options: { token?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const answer = await send(`${base}/api${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    noteUpstream(answer);
    check(answer.headers['x-request-id'], `${method} ${path} carries X-Request-Id`, answer);
    return answer;
  };
}

/** A few bytes that open like an MP4 (an `ftyp` box), which the server checks before saving a movie. */
function smallMp4(size: number): Buffer {
  const bytes = randomBytes(size);
  Buffer.from('000000186674797069736f6d0000020069736f6d', 'hex').copy(bytes, 0);
  return bytes;
}

async function ready(base: string): Promise<void> {
  const answer = await send(`${base}/api/health/ready`);
  noteUpstream(answer);
  if (answer.status === 404) {
    // A build from before the readiness endpoint: fall back to the combined health route, and say so.
    const health = await send(`${base}/api/health`);
    check(health.status === 200, 'GET /api/health answers 200', health);
    ok('health: /api/health 200 (this build has no /api/health/ready)');
    return;
  }
  check(answer.status === 200, 'GET /api/health/ready answers 200', answer);
  ok('readiness: /api/health/ready 200');
}

async function fullFlow(base: string, admin: { email: string; password: string }): Promise<void> {
  const call = api(base);
  await ready(base);

  const landing = await send(`${base}/`, { headers: { accept: 'text/html' } });
  noteUpstream(landing);
  check(landing.status === 200 && /<html/i.test(landing.body.toString('utf8')), 'the landing page is HTML', landing);
  ok('the PWA landing page: 200 HTML');

  const suffix = randomBytes(3).readUIntBE(0, 3).toString().padStart(7, '0').slice(-6);
  const person = {
    email: `smoke-${randomUUID().slice(0, 8)}@example.com`,
    password: 'smoke-test-password',
    fullName: 'Smoke Test',
    phone: `0772${suffix}`,
  };
  const registered = await call('POST', '/auth/register', { body: { ...person, currentDeviceId: 'smoke-1' } });
  check(registered.status === 201 || registered.status === 200, 'registration', registered);
  const login = await call('POST', '/auth/login', {
    body: { identifier: person.email, password: person.password, currentDeviceId: 'smoke-1' },
  });
  check(login.status === 200 && typeof login.json?.token === 'string', 'sign-in', login);
  const userToken = login.json.token as string;
  const userId = login.json.user.id as string;
  ok(`register and sign in (${person.email})`);

  const adminLogin = await call('POST', '/auth/login', {
    body: {
      identifier: admin.email,
      password: admin.password,
      currentDeviceId: `smoke-admin-${randomUUID().slice(0, 8)}`,
    },
  });
  check(
    adminLogin.status === 200 && adminLogin.json?.user?.isAdmin,
    'the admin signs in (ADMIN_EMAIL/ADMIN_PASSWORD)',
    adminLogin,
  );
  const adminToken = adminLogin.json.token as string;

  const expiry = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 16);
  const plan = await call('POST', '/admin/subscription-plans', {
    token: adminToken,
    body: { plan_name: `Smoke ${suffix}`, price_ugx: 1000, features: ['Smoke test'], global_expiry_date: expiry },
  });
  check(plan.status === 201, 'the admin creates a plan', plan);
  const planId = plan.json.plan.id as string;

  const bytes = smallMp4(256 * 1024 + 17);
  const link = await call('POST', '/admin/movies/generate-upload-url', {
    token: adminToken,
    body: { fileName: 'smoke.mp4', fileType: 'video/mp4', fileSize: bytes.length, folder: 'movies' },
  });
  check(link.status === 200 && link.json?.presignedUrl, 'the admin gets a signed upload link', link);
  const uploadUrl = new URL(link.json.presignedUrl as string, `${base}/`).toString();
  const uploaded = await send(uploadUrl, { method: 'PUT', headers: { ...link.json.headers }, body: bytes });
  check(
    uploaded.status === 200 || uploaded.status === 201 || uploaded.status === 204,
    'the upload to the signed link',
    uploaded,
  );
  ok(`upload ${bytes.length} bytes through a signed link (${new URL(uploadUrl).host})`);

  const saved = await call('POST', '/admin/movies', {
    token: adminToken,
    body: {
      title: `Smoke movie ${suffix}`,
      description: 'Uploaded by scripts/deploy-smoke.ts',
      vj: 'VJ Smoke',
      category: 'Kinayuganda',
      rating: 'all',
      movieS3Key: link.json.s3Key,
      thumbnailS3Key: null,
      size: bytes.length,
      planIds: [planId],
    },
  });
  check(saved.status === 201, 'the admin saves the movie', saved);
  const movieId = saved.json.movie.id as string;
  ok('save the movie');

  const subscribed = await call('PUT', `/admin/subscribers/${userId}/manage-subscription`, {
    token: adminToken,
    body: { action: 'activate_extend', subscription_plan_id: planId },
  });
  check(subscribed.status === 200, 'the admin subscribes the person', subscribed);

  // Every replica must see the new movie at once (the catalogue version is in Postgres): ask several times.
  for (let i = 0; i < 6; i++) {
    const library = await call('GET', '/users/movies', { token: userToken });
    check(
      library.status === 200 && library.body.includes(movieId),
      'the subscriber library lists the new movie',
      library,
    );
  }
  ok('the subscriber library lists it (6 requests)');

  const grant = await call('POST', '/users/movies/generate-download-url', { token: userToken, body: { movieId } });
  check(grant.status === 200 && grant.json?.downloadUrl, 'the subscriber gets a download link', grant);
  const downloadUrl = new URL(grant.json.downloadUrl as string, `${base}/`).toString();
  const whole = await send(downloadUrl);
  check(whole.status === 200 && whole.body.equals(bytes), 'the download is byte-exact', whole);
  const range = await send(downloadUrl, { headers: { range: 'bytes=1000-1999' } });
  check(
    range.status === 206 && range.body.equals(bytes.subarray(1000, 2000)),
    'a ranged GET answers 206 with those bytes',
    range,
  );
  ok(`download byte-exact (${bytes.length} bytes) and a range (206) from ${new URL(downloadUrl).host}`);
}

/** GETs readiness and the landing page for `seconds`; returns the failures (status or error) it met. */
async function loop(base: string, seconds: number): Promise<{ total: number; failures: string[] }> {
  const failures: string[] = [];
  let total = 0;
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    for (const path of ['/api/health', '/']) {
      total += 1;
      try {
        const answer = await send(`${base}${path}`);
        noteUpstream(answer);
        if (answer.status !== 200) failures.push(`${path}: HTTP ${answer.status}`);
      } catch (error) {
        failures.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    await new Promise((done) => setTimeout(done, 50));
  }
  return { total, failures };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'base-url': { type: 'string' },
      'expect-replicas': { type: 'string', default: '1' },
      loop: { type: 'string' },
    },
  });
  const base = (values['base-url'] ?? process.env.SMOKE_BASE_URL ?? 'http://localhost:8080').replace(/\/+$/, '');
  const expectReplicas = Number(values['expect-replicas']);

  if (values.loop !== undefined) {
    const { total, failures } = await loop(base, Number(values.loop));
    process.stdout.write(
      `  ${total} requests, ${failures.length} failed; replicas seen: ${[...upstreams].join(', ') || 'n/a'}\n`,
    );
    for (const failure of failures.slice(0, 10)) process.stdout.write(`    ✗ ${failure}\n`);
    if (failures.length > 0) process.exit(1);
    return;
  }

  const email = process.env.ADMIN_EMAIL;
  const password = process.env.ADMIN_PASSWORD;
  if (!email || !password) throw new SmokeFailure('set ADMIN_EMAIL and ADMIN_PASSWORD to the deployment’s admin');
  process.stdout.write(`Smoke test of ${base}\n`);
  await fullFlow(base, { email, password });
  // Enough plain requests for round-robin to reach every replica.
  for (let i = 0; i < 10 && upstreams.size < expectReplicas; i++) noteUpstream(await send(`${base}/api/health`));
  if (expectReplicas > 1) {
    check(
      upstreams.size >= expectReplicas,
      `${expectReplicas} replicas answered (saw ${[...upstreams].join(', ') || 'no X-Upstream header'})`,
    );
    ok(`answered by ${upstreams.size} replicas: ${[...upstreams].join(', ')}`);
  }
  process.stdout.write(`\nProved ${proved.length} checks against ${base}.\n`);
}

main().catch((error: unknown) => {
  process.stdout.write(`\n  ✗ ${error instanceof Error ? error.message : String(error)}\n`);
  process.stdout.write(`\nProved before the failure:\n${proved.map((p) => `  - ${p}`).join('\n') || '  (nothing)'}\n`);
  process.exit(1);
});
