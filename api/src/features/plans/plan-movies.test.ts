import {
  AdminMovieList,
  AdminPlanList,
  AdminPlanResponse,
  ApiErrorBody,
  contracts,
  CustomerPlanList,
  InitiatePaymentResponse,
  PLAN_MOVIES_MAX,
  PLAN_WITHOUT_MOVIES,
  UNKNOWN_PLAN_MOVIES,
} from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moviePlans, subscriptionPlans } from '../../db/schema.ts';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { type AddedMovie, addMovie, subscribe } from '../../../test/library.ts';

const UNKNOWN_ID = '7f1c9a52-3b1e-4c6d-9a8b-2e5f4d3c2b1a';
const { payments: pay, movies: movieApi } = contracts;

let planCounter = 0;
function newPlan(overrides: Record<string, unknown> = {}) {
  planCounter += 1;
  return {
    plan_name: `Movies plan ${planCounter}`,
    price_ugx: 3_500,
    features: ['Downloads'],
    global_expiry_date: '2027-12-31T23:59',
    ...overrides,
  };
}

/** Issue 12/14 §2: a plan chooses its movies, and a plan with none is never sold (docs/decisions/0118). */
describe.each(testDatabases)('the movies of a plan on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let kinayuganda: AddedMovie;
  let english: AddedMovie;
  beforeAll(async () => {
    t = await createTestApp(kind, { dpo: {} });
    adminToken = await loginAdmin(t);
    // Movies already in the library, saved in no plan: a new plan is what gives them one.
    kinayuganda = await addMovie(t, adminToken, { category: 'Kinayuganda' });
    english = await addMovie(t, adminToken, { category: 'English' });
  });
  afterAll(async () => {
    await t.dpoSandbox?.settle();
    await t.close();
  });

  const create = (body: Record<string, unknown>) =>
    t.request('POST', '/api/admin/subscription-plans', { body, token: adminToken });
  const createOk = async (body: Record<string, unknown>) => {
    const res = await create(newPlan(body));
    expect(res.status, res.text).toBe(201);
    return AdminPlanResponse.parse(res.json).plan;
  };
  const update = (id: string, body: Record<string, unknown>) =>
    t.request('PUT', `/api/admin/subscription-plans/${id}`, { body, token: adminToken });
  const linked = async (planId: string) =>
    (await t.deps.database.db.select().from(moviePlans).where(eq(moviePlans.planId, planId)))
      .map((r) => r.movieId)
      .sort();
  const adminPlan = async (planId: string) => {
    const res = await t.request('GET', '/api/admin/subscription-plans', { token: adminToken });
    return AdminPlanList.parse(res.json).plans.find((p) => p.id === planId)!;
  };
  const customerPlanIds = async (token: string) => {
    const res = await t.request('GET', '/api/users/subscription-plans', { token });
    expect(res.status, res.text).toBe(200);
    return CustomerPlanList.parse(res.json).plans.map((p) => p.id);
  };
  const grant = (token: string, movieId: string) =>
    t.request('POST', '/api/users/movies/generate-download-url', { token, body: { movieId } });
  const initiate = (token: string, planId: string) =>
    t.call(pay.initiate, { token, body: { subscription_plan_id: planId } });
  const setMovieActive = (movieId: string, isActive: boolean) =>
    t.call(movieApi.adminToggleMovie, { token: adminToken, params: { id: movieId }, body: { is_active: isActive } });

  it('creates a plan with existing movies in one go; its subscribers can download them', async () => {
    const ids = [kinayuganda.movie.id, english.movie.id].sort();
    const plan = await createOk({ movieIds: [...ids, ids[0]] }); // a repeated id counts once
    expect(plan).toMatchObject({ movie_count: 2, active_movie_count: 2 });
    expect(await linked(plan.id)).toEqual(ids);
    expect(await adminPlan(plan.id)).toMatchObject({ movie_count: 2, active_movie_count: 2 });
    // The edit form reads which movies a plan has from each movie's plans.
    const movies = AdminMovieList.parse((await t.call(movieApi.adminListMovies, { token: adminToken })).json).movies;
    expect(movies.filter((m) => m.plan_ids.includes(plan.id)).map((m) => m.id)).toEqual(expect.arrayContaining(ids));

    const viewer = await registerUser(t);
    await subscribe(t, adminToken, viewer.user.id, plan.id);
    const link = await grant(viewer.token, kinayuganda.movie.id);
    expect(link.status, link.text).toBe(200);
  });

  it('replaces the movies on update, keeps them when movieIds is not sent, and clears them with []', async () => {
    const plan = await createOk({ movieIds: [english.movie.id] });
    const viewer = await registerUser(t);
    await subscribe(t, adminToken, viewer.user.id, plan.id);
    expect((await grant(viewer.token, kinayuganda.movie.id)).status).toBe(403);

    const moved = await update(plan.id, { movieIds: [kinayuganda.movie.id] });
    expect(moved.status, moved.text).toBe(200);
    expect(AdminPlanResponse.parse(moved.json).plan).toMatchObject({ movie_count: 1, active_movie_count: 1 });
    expect(await linked(plan.id)).toEqual([kinayuganda.movie.id]);
    // The cached catalogue follows at once: the movie now in the plan can be had.
    expect((await grant(viewer.token, kinayuganda.movie.id)).status).toBe(200);

    expect((await update(plan.id, { price_ugx: 4_000 })).status).toBe(200);
    expect(await linked(plan.id)).toEqual([kinayuganda.movie.id]);

    const cleared = await update(plan.id, { movieIds: [] });
    expect(cleared.status, cleared.text).toBe(200);
    expect(AdminPlanResponse.parse(cleared.json).plan).toMatchObject({ movie_count: 0, active_movie_count: 0 });
    expect(await linked(plan.id)).toEqual([]);
  });

  it('refuses ids that are not movies in the library, and saves nothing', async () => {
    const name = `Refused ${planCounter}`;
    expectErrorEnvelope(
      await create(newPlan({ plan_name: name, movieIds: [english.movie.id, UNKNOWN_ID] })),
      400,
      'validation_error',
      UNKNOWN_PLAN_MOVIES,
    );
    expect(
      await t.deps.database.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.planName, name)),
    ).toEqual([]);

    const plan = await createOk({ movieIds: [english.movie.id] });
    const deleted = await addMovie(t, adminToken, { category: 'Kinayuganda' });
    expect(
      (await t.call(movieApi.adminDeleteMovie, { token: adminToken, params: { id: deleted.movie.id } })).status,
    ).toBe(200);
    expectErrorEnvelope(
      await update(plan.id, { movieIds: [deleted.movie.id] }),
      400,
      'validation_error',
      UNKNOWN_PLAN_MOVIES,
    );
    expect(await linked(plan.id)).toEqual([english.movie.id]);

    for (const movieIds of [['not-an-id'], 'all', Array.from({ length: PLAN_MOVIES_MAX + 1 }, () => UNKNOWN_ID)]) {
      const res = await create(newPlan({ movieIds }));
      expectErrorEnvelope(res, 400, 'validation_error');
      expect(ApiErrorBody.parse(res.json).error.issues?.map((i) => i.path.split('.')[0])).toContain('movieIds');
    }
  });

  it('does not list or sell a plan without active movies, and says why', async () => {
    const buyer = await registerUser(t);
    const empty = await createOk({});
    expect(empty).toMatchObject({ movie_count: 0, active_movie_count: 0 });
    expect(await customerPlanIds(buyer.token)).not.toContain(empty.id);
    expectErrorEnvelope(await initiate(buyer.token, empty.id), 409, 'conflict', PLAN_WITHOUT_MOVIES);

    // Its only movie switched off: nothing to download, so nothing to sell either.
    const only = await addMovie(t, adminToken, { category: 'Kinayuganda' });
    const plan = await createOk({ movieIds: [only.movie.id] });
    expect(await customerPlanIds(buyer.token)).toContain(plan.id);
    expect((await setMovieActive(only.movie.id, false)).status).toBe(200);
    expect(await adminPlan(plan.id)).toMatchObject({ movie_count: 1, active_movie_count: 0 });
    expect(await customerPlanIds(buyer.token)).not.toContain(plan.id);
    expectErrorEnvelope(await initiate(buyer.token, plan.id), 409, 'conflict', PLAN_WITHOUT_MOVIES);

    expect((await setMovieActive(only.movie.id, true)).status).toBe(200);
    expect(await customerPlanIds(buyer.token)).toContain(plan.id);
    expect((await initiate(buyer.token, plan.id)).status).toBe(201);
  });

  it('sends no prompt for a started payment whose plan lost its movies, but honours one already paid', async () => {
    const plan = await createOk({ movieIds: [english.movie.id] });
    const start = async () => {
      const user = await registerUser(t);
      const res = await initiate(user.token, plan.id);
      expect(res.status, res.text).toBe(201);
      return { ...user, started: InitiatePaymentResponse.parse(res.json) };
    };
    const charge = (token: string, transactionId: string) =>
      t.call(pay.chargeMobile, {
        token,
        body: { transaction_id: transactionId, phoneNumber: '0772000005', mno: 'MTNmobilemoney' },
      });
    const paying = await start();
    const late = await start();
    expect((await charge(paying.token, paying.started.transaction_id)).status).toBe(200);

    expect((await update(plan.id, { movieIds: [] })).status).toBe(200);
    expectErrorEnvelope(await charge(late.token, late.started.transaction_id), 409, 'conflict', PLAN_WITHOUT_MOVIES);

    // The sandbox pays a number ending in 5 after a short delay; the paid prompt still subscribes its payer.
    t.clock.advance(3000);
    const verified = await t.call(pay.verify, { token: paying.token, params: { token: paying.started.dpo_token } });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.json).toMatchObject({ status: 'completed' });
    const profile = await t.request('GET', '/api/auth/profile', { token: paying.token });
    expect(profile.json).toMatchObject({ isSubscribed: true, subscriptionPlan: plan.plan_name });
  });

  it('lists only the plans that include a film when asked for one (a film received from a phone, 19/22 §3)', async () => {
    const withBoth = await createOk({ movieIds: [kinayuganda.movie.id, english.movie.id] });
    const withEnglish = await createOk({ movieIds: [english.movie.id] });
    const viewer = await registerUser(t);
    const plansWith = async (movie: string) => {
      const res = await t.request('GET', `/api/users/subscription-plans?movie=${movie}`, { token: viewer.token });
      expect(res.status, res.text).toBe(200);
      return CustomerPlanList.parse(res.json).plans.map((p) => p.id);
    };
    const forKinayuganda = await plansWith(kinayuganda.movie.id);
    expect(forKinayuganda).toContain(withBoth.id);
    expect(forKinayuganda).not.toContain(withEnglish.id);
    expect(await plansWith(english.movie.id)).toEqual(expect.arrayContaining([withBoth.id, withEnglish.id]));
    // Every plan it lists is one the unfiltered list sells: the filter never offers what cannot be bought.
    const onSale = await customerPlanIds(viewer.token);
    expect(forKinayuganda.every((id) => onSale.includes(id))).toBe(true);
    expect(await plansWith(UNKNOWN_ID)).toEqual([]);
    expectErrorEnvelope(
      await t.request('GET', '/api/users/subscription-plans?movie=not-a-film', { token: viewer.token }),
      400,
      'validation_error',
    );
  });
});
