import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, freshIp, newAgent } from './harness.ts';
import { addMovie, createPlan, loginAdmin, Replica, registerUser } from './processes/server-process.ts';
import { type JsonSchema, type Operation, objectShape, operationsOf, sampleValue } from './sweep/schema.ts';
import {
  BODY_SIZES,
  NESTINGS,
  PATTERNS,
  PUSH_BODIES,
  type Pattern,
  Pinger,
  type Timed,
  URL_SIZES,
  median,
  timed,
  urlPayload,
} from './sweep/stall.ts';

/**
 * The stall sweep (decision 0104): every operation of /api/openapi.json, the DPO push, page paths and /files, sent
 * payloads built to make a regex or a parser go quadratic, at two sizes, against a real server process (PGlite)
 * that a pinger asks for /api/health/live every 10 ms. No request may hold the event loop STALL_LIMIT_MS at the
 * larger size, and none may get more than GROWTH_LIMIT× slower when its payload gets 4× bigger.
 */
const STALL_LIMIT_MS = 250;
const GROWTH_LIMIT = 8;
/** Times under this are noise on a shared machine: ratios are taken of max(time, floor). */
const FLOOR_MS = 20;
/** A case over either limit is sent this many more times at both sizes, and judged on the medians. */
const REPEATS = 4;

type Persona = 'guest' | 'user' | 'agent' | 'admin';
const PERSONA_OF: Record<string, Persona> = {
  public: 'guest',
  account: 'user',
  user: 'user',
  agent: 'agent',
  admin: 'admin',
};

/** One place a payload goes, at one size: the request to send. */
interface Case {
  name: string;
  persona: Persona;
  method: string;
  /** Builds the request for a size index (0 small, 1 large). */
  build(size: 0 | 1): { path: string; body?: string; contentType?: string };
}

interface Verdict {
  name: string;
  small: Timed[];
  large: Timed[];
}

describe('stall sweep: no request holds the event loop', { timeout: 600_000 }, () => {
  let server: Replica;
  let pinger: Pinger;
  let dataDir: string;
  const tokens: Partial<Record<Persona, string>> = {};
  const logins: Partial<Record<Persona, () => Promise<string>>> = {};
  const fixtures: Record<string, string> = {};
  const cases: Case[] = [];
  const verdicts: Verdict[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'filamu-stall-'));
    // No DATABASE_URL: the embedded PGlite, as `pnpm test` runs without Postgres. No DPO_COMPANY_TOKEN: the sandbox,
    // so the push route is public and every parser behind it is reachable.
    const env = {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'info',
      TRUST_PROXY: 'true',
      JWT_SECRET: 'stall-jwt-secret-0123456789abcdef0123456789abcdef',
      STORAGE_SIGNING_SECRET: 'stall-signing-secret-0123456789abcdef0123456789',
      REGISTRATIONS_PER_IP_PER_HOUR: '1000000',
      PAYMENT_RECONCILE_INTERVAL_MS: '0',
      STALE_DOWNLOAD_SWEEP_INTERVAL_MS: '0',
      STORAGE_CLEANUP_INTERVAL_MS: '0',
      // The fixtures save stand-in movie bytes that ffprobe rightly refuses, and an encode would share the loop being
      // measured: this server offers originals only, and runs no film jobs (their copies would share it too).
      FFMPEG_PATH: '/nonexistent/ffmpeg',
      FFPROBE_PATH: '/nonexistent/ffprobe',
      TRANSCODE_CONCURRENCY: '0',
    };
    server = await Replica.start({ env, replicas: [] });
    logins.admin = () => loginAdmin(server);
    tokens.admin = await logins.admin();
    fixtures.planId = await createPlan(server, tokens.admin);
    const movie = await addMovie(server, tokens.admin, fixtures.planId);
    fixtures.movieId = movie.movieId;
    fixtures.s3Key = movie.s3Key;
    const user = await registerUser(server);
    fixtures.userId = user.userId;
    // A fresh payer whenever the payment limits refuse one (10 payments an hour per account).
    logins.user = async () => (await registerUser(server)).token;
    tokens.user = user.token;
    const agentBody = newAgent();
    const agent = await server.request('POST', '/api/agents', { token: tokens.admin, body: agentBody });
    fixtures.agentId = agent.json.agent.id;
    logins.agent = async () => {
      const res = await server.request('POST', '/api/auth/agent/login', {
        body: { email: agentBody.email, password: agent.json.generatedPassword },
      });
      return res.json.token as string;
    };
    tokens.agent = await logins.agent();
    const payment = await server.request('POST', '/api/payments/initiate', {
      token: tokens.user,
      body: { subscription_plan_id: fixtures.planId },
    });
    fixtures.transactionId = payment.json.transaction_id;
    fixtures.dpoToken = payment.json.dpo_token;
    const document = await server.request('GET', '/api/openapi.json');
    for (const op of operationsOf(document.json)) cases.push(...operationCases(op));
    cases.push(...extraCases());
    pinger = Pinger.start(`${server.url}/api/health/live`);
  }, 180_000);

  afterAll(async () => {
    pinger?.stop();
    await server?.kill('SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** A plausible value for a field or parameter: the fixture it names, or the sweep's sample. */
  function baseline(name: string, schema: JsonSchema, path: string): unknown {
    if (name === 'subscription_plan_id' || name === 'planId') return fixtures.planId;
    if (name === 'planIds') return [fixtures.planId];
    if (name === 'movieId') return fixtures.movieId;
    if (name === 'transaction_id') return fixtures.transactionId;
    if (name === 'token') return fixtures.dpoToken;
    if (name === 'language') return 'en';
    if (name === 's3Key' || name === 'movieS3Key') return fixtures.s3Key;
    if (name === 'id') {
      if (path.includes('/agents/')) return fixtures.agentId;
      if (path.includes('/subscribers/')) return fixtures.userId;
      if (path.includes('/subscription-plans/')) return fixtures.planId;
      if (path.includes('/payments/')) return fixtures.transactionId;
      return fixtures.movieId;
    }
    return sampleValue(schema, name, [fixtures.planId!]);
  }

  function operationCases(op: Operation): Case[] {
    const persona = PERSONA_OF[op.access] ?? 'admin';
    const shape = objectShape(op.body);
    const fields = Object.entries(shape?.properties ?? {});
    const pathWith = (segments: Record<string, string>, query: Record<string, string>) => {
      const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const param = op.pathParams.find((p) => p.name === name)!;
        return segments[name] ?? encodeURIComponent(String(baseline(name, param.schema, op.path)));
      });
      const search = Object.entries(query).map(([k, v]) => `${k}=${v}`);
      return search.length ? `${path}?${search.join('&')}` : path;
    };
    const baseBody = () =>
      op.body ? Object.fromEntries(fields.map(([name, schema]) => [name, baseline(name, schema, op.path)])) : undefined;
    const json = (body: unknown) => (body === undefined ? undefined : JSON.stringify(body));
    const label = `${op.method.toUpperCase()} ${op.path}`;
    const out: Case[] = [];
    for (const pattern of PATTERNS) {
      for (const param of op.pathParams) {
        out.push({
          name: `${label} path:${param.name} ${pattern.name}`,
          persona,
          method: op.method,
          build: (size) => ({
            path: pathWith({ [param.name]: urlPayload(pattern, URL_SIZES[size]) }, {}),
            body: json(baseBody()),
          }),
        });
      }
      for (const param of op.queryParams) {
        out.push({
          name: `${label} query:${param.name} ${pattern.name}`,
          persona,
          method: op.method,
          build: (size) => ({
            path: pathWith({}, { [param.name]: urlPayload(pattern, URL_SIZES[size]) }),
            body: json(baseBody()),
          }),
        });
      }
      for (const [name, schema] of fields) {
        out.push({
          name: `${label} body:${name} ${pattern.name}`,
          persona,
          method: op.method,
          build: (size) => {
            const text = pattern.make(BODY_SIZES[size]);
            return {
              path: pathWith({}, {}),
              body: json({ ...baseBody(), [name]: schema.type === 'array' ? [text] : text }),
            };
          },
        });
      }
    }
    if (op.body) {
      for (const nesting of NESTINGS) {
        out.push({
          name: `${label} body ${nesting.name}`,
          persona,
          method: op.method,
          build: (size) => ({ path: pathWith({}, {}), body: nesting.make(BODY_SIZES[size]) }),
        });
      }
    }
    return out;
  }

  /** Routes outside the OpenAPI document: DPO's push, page paths, signed /files links. */
  function extraCases(): Case[] {
    const out: Case[] = [];
    for (const push of PUSH_BODIES) {
      out.push({
        name: `POST /api/payments/dpo/notify ${push.name}`,
        persona: 'guest',
        method: 'post',
        build: (size) => ({
          path: '/api/payments/dpo/notify',
          body: push.make(BODY_SIZES[size]),
          contentType: push.contentType,
        }),
      });
    }
    const raw = (text: string) => text.replace(/[^\w./~-]/g, (ch) => encodeURIComponent(ch));
    const pathPatterns: Pattern[] = PATTERNS.filter((p) =>
      ['slashes', 'dots', 'dashes', 'spaces', 'zeros'].includes(p.name),
    );
    for (const pattern of pathPatterns) {
      const piece = (size: 0 | 1) => urlPayload(pattern, URL_SIZES[size], raw);
      out.push(
        {
          name: `GET /<page> ${pattern.name}`,
          persona: 'guest',
          method: 'get',
          build: (s) => ({ path: `/terms/${piece(s)}` }),
        },
        {
          name: `GET /<page>/ ${pattern.name}`,
          persona: 'guest',
          method: 'get',
          build: (s) => ({ path: `/${piece(s)}/` }),
        },
        {
          name: `GET /api/<path> ${pattern.name}`,
          persona: 'guest',
          method: 'get',
          build: (s) => ({ path: `/api/${piece(s)}` }),
        },
        {
          name: `GET /files/<key> ${pattern.name}`,
          persona: 'guest',
          method: 'get',
          build: (s) => ({ path: `/files/${piece(s)}` }),
        },
        {
          name: `GET /files?exp&sig ${pattern.name}`,
          persona: 'guest',
          method: 'get',
          build: (s) => ({ path: `/files/${fixtures.s3Key}?exp=${piece(s)}&sig=${piece(s)}&max=${piece(s)}` }),
        },
      );
    }
    return out;
  }

  /** Sends a case at one size; a persona whose session ended or whose allowance ran out is renewed and resent. */
  async function send(testCase: Case, size: 0 | 1): Promise<Timed> {
    for (let attempt = 0; ; attempt += 1) {
      const { path, body, contentType } = testCase.build(size);
      const headers: Record<string, string> = { 'x-forwarded-for': freshIp() };
      const token = tokens[testCase.persona];
      if (token) headers.authorization = `Bearer ${token}`;
      if (body !== undefined) headers['content-type'] = contentType ?? 'application/json';
      const result = await timed(pinger, `${server.url}${path}`, {
        method: testCase.method.toUpperCase(),
        headers,
        body,
      });
      const renew = logins[testCase.persona];
      if (attempt < 2 && renew && (result.status === 401 || result.status === 429)) {
        tokens[testCase.persona] = await renew();
        continue;
      }
      return result;
    }
  }

  const growth = (small: number, large: number) => Math.max(large, FLOOR_MS) / Math.max(small, FLOOR_MS);
  const judged = (v: Verdict) => {
    const small = median(v.small.map((t) => t.ms));
    const large = median(v.large.map((t) => t.ms));
    return { small, large, stall: median(v.large.map((t) => t.stallMs)), growth: growth(small, large) };
  };
  const over = (v: Verdict) => {
    const j = judged(v);
    return j.stall > STALL_LIMIT_MS || j.growth > GROWTH_LIMIT;
  };

  it('answers every payload at both sizes without a stall or a super-linear slowdown', async () => {
    const started = Date.now();
    for (const testCase of cases) {
      verdicts.push({ name: testCase.name, small: [await send(testCase, 0)], large: [await send(testCase, 1)] });
    }
    // Noise on a shared machine is one-off; a quadratic path is slow every time: suspects are measured again,
    // unless already far past the limit (seconds), where no noise explains it and repeats would only cost time.
    for (const verdict of verdicts.filter((v) => over(v) && v.large[0]!.stallMs < 4 * STALL_LIMIT_MS)) {
      const testCase = cases.find((c) => c.name === verdict.name)!;
      for (let i = 0; i < REPEATS; i += 1) {
        verdict.small.push(await send(testCase, 0));
        verdict.large.push(await send(testCase, 1));
      }
    }
    const worst = [...verdicts].sort((a, b) => judged(b).stall - judged(a).stall).slice(0, 5);
    const report = (v: Verdict) => {
      const j = judged(v);
      return `  ${v.name}: ${j.small.toFixed(0)} → ${j.large.toFixed(0)} ms (×${j.growth.toFixed(1)}), stall ${j.stall.toFixed(0)} ms, ${v.large[0]!.status}`;
    };
    console.log(
      `stall sweep: ${cases.length} cases × 2 sizes in ${((Date.now() - started) / 1000).toFixed(0)} s; longest stalls:\n${worst.map(report).join('\n')}`,
    );
    const failures = verdicts.filter(over).map(report);
    expect(failures, `over ${STALL_LIMIT_MS} ms stall or ×${GROWTH_LIMIT} growth:\n${failures.join('\n')}`).toEqual([]);
    // Every 5xx is a bug too, whatever its timing.
    const errors = verdicts.filter((v) => [...v.small, ...v.large].some((t) => t.status >= 500)).map((v) => v.name);
    expect(errors).toEqual([]);
  });
});
