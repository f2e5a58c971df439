import { WatchPositionList, WatchPositionResult } from '@filamu/shared';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  createAgentAs,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { type AddedMovie, addMovie, createPlan, subscribe } from '../../../test/library.ts';

/**
 * Where a person stopped, synced so another phone resumes too (decision 0164): bounded input, only for movies the
 * person downloaded, and the newest `updatedAt` wins however late or concurrently the writes arrive.
 */
describe.each(testDatabases)('watch positions on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
  });
  afterAll(() => t.close());

  async function setUp() {
    const planId = await createPlan(t, adminToken);
    const movie = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId] });
    const other = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId] });
    const registered = await registerUser(t);
    await subscribe(t, adminToken, registered.user.id, planId);
    const token = registered.token;
    const granted = await t.request('POST', '/api/users/movies/generate-download-url', {
      token,
      body: { movieId: movie.movie.id },
    });
    expect(granted.status, granted.text).toBe(200);
    return { movie, other, token, registered };
  }

  const at = (offsetMs: number) => new Date(t.clock.now().getTime() + offsetMs).toISOString();
  const put = (token: string, movie: AddedMovie | string, body: unknown) =>
    t.request('PUT', `/api/users/watch-positions/${typeof movie === 'string' ? movie : movie.movie.id}`, {
      token,
      body,
    });
  const list = async (token: string) => {
    const res = await t.request('GET', '/api/users/watch-positions', { token });
    expect(res.status, res.text).toBe(200);
    return WatchPositionList.parse(res.json).positions;
  };

  it('stores a position and another phone of the same person reads it', async () => {
    const { movie, token, registered } = await setUp();
    const res = await put(token, movie, { positionSeconds: 2590.5, durationSeconds: 6000, updatedAt: at(-1000) });
    expect(res.status, res.text).toBe(200);
    expect(WatchPositionResult.parse(res.json)).toEqual({
      movieId: movie.movie.id,
      positionSeconds: 2590.5,
      durationSeconds: 6000,
      updatedAt: at(-1000),
      applied: true,
    });

    const login = await t.request('POST', '/api/auth/login', {
      body: { identifier: registered.body.email, password: registered.body.password, currentDeviceId: 'phone-2' },
      ip: freshIp(),
    });
    expect(login.status, login.text).toBe(200);
    expect(await list(login.json.token as string)).toEqual([
      {
        movieId: movie.movie.id,
        title: movie.movie.title,
        positionSeconds: 2590.5,
        durationSeconds: 6000,
        updatedAt: at(-1000),
      },
    ]);
  });

  it('never lets an older write replace a newer one, whichever arrives last', async () => {
    const { movie, token } = await setUp();
    const newer = { positionSeconds: 900, durationSeconds: 6000, updatedAt: at(-10_000) };
    const older = { positionSeconds: 300, durationSeconds: 6000, updatedAt: at(-60_000) };
    expect((await put(token, movie, newer)).json.applied).toBe(true);

    const late = await put(token, movie, older);
    expect(late.status, late.text).toBe(200);
    expect(late.json).toMatchObject({ positionSeconds: 900, updatedAt: newer.updatedAt, applied: false });
    // The same instant again does not win either: the first write of a moment stays.
    const same = await put(token, movie, { ...newer, positionSeconds: 10 });
    expect(same.json).toMatchObject({ positionSeconds: 900, applied: false });
    expect((await list(token))[0]).toMatchObject({ positionSeconds: 900, updatedAt: newer.updatedAt });

    // Going back in the film is fine when it is the newest thing the person did.
    const rewound = await put(token, movie, { positionSeconds: 60, durationSeconds: 6000, updatedAt: at(0) });
    expect(rewound.json).toMatchObject({ positionSeconds: 60, applied: true });
  });

  it('keeps the newest of concurrent writes, in any order', async () => {
    const { movie, token } = await setUp();
    for (let round = 0; round < 6; round += 1) {
      const base = -600_000 + round * 60_000;
      const writes = [0, 1, 2, 3].map((i) => ({
        positionSeconds: round * 100 + i,
        durationSeconds: 6000,
        updatedAt: at(base + i * 1000),
      }));
      // Shuffled so the newest is sometimes sent first, sometimes last.
      const order = round % 2 === 0 ? writes : [...writes].reverse();
      const results = await Promise.all(order.map((w) => put(token, movie, w)));
      for (const res of results) expect(res.status, res.text).toBe(200);
      const [stored] = await list(token);
      expect(stored).toMatchObject({ positionSeconds: round * 100 + 3, updatedAt: writes[3]!.updatedAt });
    }
  });

  it('refuses bad input with the error envelope and stores nothing', async () => {
    const { movie, token } = await setUp();
    const ok = { positionSeconds: 10, durationSeconds: 100, updatedAt: at(0) };
    const bad: [unknown, string][] = [
      [{ ...ok, positionSeconds: -1 }, 'positionSeconds'],
      [{ ...ok, positionSeconds: 101 }, 'positionSeconds'],
      [{ ...ok, durationSeconds: 0 }, 'durationSeconds'],
      [{ ...ok, durationSeconds: 86_401, positionSeconds: 0 }, 'durationSeconds'],
      [{ ...ok, positionSeconds: '10' }, 'positionSeconds'],
      [{ ...ok, updatedAt: 'yesterday' }, 'updatedAt'],
      [{ ...ok, updatedAt: 'x'.repeat(5000) }, 'updatedAt'],
      [{ ...ok, updatedAt: at(6 * 60_000) }, 'updatedAt'],
      [{ positionSeconds: 10 }, 'durationSeconds'],
    ];
    for (const [body, field] of bad) {
      const res = await put(token, movie, body);
      expectErrorEnvelope(res, 400, 'validation_error');
      expect(res.json.error.message, JSON.stringify(body)).toContain(field);
    }
    // A phone a little fast (within the skew) is fine.
    expect((await put(token, movie, { ...ok, updatedAt: at(60_000) })).status).toBe(200);
    expect(await list(token)).toHaveLength(1);
  });

  it('has positions only for movies the person downloaded, and only for users', async () => {
    const { other, token } = await setUp();
    const body = { positionSeconds: 10, durationSeconds: 100, updatedAt: at(0) };
    expectErrorEnvelope(await put(token, other, body), 404, 'not_found');
    expectErrorEnvelope(await put(token, randomUUID(), body), 404, 'not_found');
    expectErrorEnvelope(await put(token, 'not-an-id', body), 400, 'validation_error');
    expect(await list(token)).toEqual([]);

    const { agent, password } = await createAgentAs(t, adminToken);
    const login = await t.request('POST', '/api/auth/agent/login', {
      body: { email: agent.email, password },
      ip: freshIp(),
    });
    expect(login.status, login.text).toBe(200);
    expectErrorEnvelope(
      await t.request('GET', '/api/users/watch-positions', { token: login.json.token }),
      403,
      'forbidden',
    );
    expectErrorEnvelope(await t.request('GET', '/api/users/watch-positions'), 401, 'unauthenticated');
  });
});
