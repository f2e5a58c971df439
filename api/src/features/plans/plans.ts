import {
  type AdminPlan,
  type CustomerPlan,
  type PlanSaleSetting,
  type PlanInput,
  type PlanUpdate,
  dateToKampalaLocal,
  kampalaLocalToDate,
} from '@filamu/shared';
import { and, asc, count, eq, gt, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor, Database } from '../../db/client.ts';
import { payments, subscriptionPlans, users } from '../../db/schema.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { planSale, saleWindow } from '../settings/plan-sale.ts';
import {
  plansWithEnglish,
  hasActiveMovie,
  includesMovie,
  type MovieCount,
  movieCounts,
  replacePlanMovies,
} from './plan-movies.ts';
import type { PlanRow } from './subscription.ts';
import type { Clock } from '../../lib/clock.ts';

interface PlanDeps {
  database: Database;
  clock: Clock;
}

export const PLAN_IN_USE =
  'This plan has subscribers or payments and cannot be deleted. Deactivate or hide it instead.';

const planOrder = [asc(subscriptionPlans.displayOrder), asc(subscriptionPlans.planName), asc(subscriptionPlans.id)];

const toCustomerPlan = (plan: PlanRow, sale: PlanSaleSetting, includesEnglish: boolean): CustomerPlan => ({
  id: plan.id,
  plan_name: plan.planName,
  price_ugx: String(plan.priceUgx),
  description: plan.description,
  features: plan.features,
  display_order: plan.displayOrder,
  global_expiry_date: dateToKampalaLocal(plan.globalExpiryAt),
  expires_at: plan.globalExpiryAt.toISOString(),
  sale_ends_at: saleWindow(plan.globalExpiryAt, sale).saleEndsAt.toISOString(),
  warn_from: saleWindow(plan.globalExpiryAt, sale).warnFrom.toISOString(),
  includes_english: includesEnglish,
});

const NO_MOVIES: MovieCount = { all: 0, active: 0 };

const toAdminPlan = (plan: PlanRow, subscriberCount: number, movies: MovieCount, sale: PlanSaleSetting): AdminPlan => ({
  id: plan.id,
  plan_name: plan.planName,
  price_ugx: plan.priceUgx,
  description: plan.description,
  features: plan.features,
  is_active: plan.isActive,
  is_visible: plan.isVisible,
  display_order: plan.displayOrder,
  global_expiry_date: dateToKampalaLocal(plan.globalExpiryAt),
  expires_at: plan.globalExpiryAt.toISOString(),
  sale_ends_at: saleWindow(plan.globalExpiryAt, sale).saleEndsAt.toISOString(),
  subscriber_count: subscriberCount,
  movie_count: movies.all,
  active_movie_count: movies.active,
  created_at: plan.createdAt.toISOString(),
  updated_at: plan.updatedAt.toISOString(),
});

/** Users currently subscribed (end date ahead) on each of the given plans. */
async function subscriberCounts(exec: Executor, planIds: string[], now: Date): Promise<Map<string, number>> {
  if (planIds.length === 0) return new Map();
  const rows = await exec
    .select({ planId: users.subscriptionPlanId, n: count() })
    .from(users)
    .where(and(inArray(users.subscriptionPlanId, planIds), gt(users.subscriptionEndDate, now)))
    .groupBy(users.subscriptionPlanId);
  return new Map(rows.map((r) => [r.planId!, Number(r.n)]));
}

async function adminPlan(exec: Executor, plan: PlanRow, now: Date): Promise<AdminPlan> {
  const counts = await subscriberCounts(exec, [plan.id], now);
  const movies = await movieCounts(exec, [plan.id]);
  return toAdminPlan(plan, counts.get(plan.id) ?? 0, movies.get(plan.id) ?? NO_MOVIES, await planSale(exec));
}

export async function findPlan(exec: Executor, id: string): Promise<PlanRow> {
  const [plan] = await exec.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, id));
  if (!plan) throw notFound('Subscription plan');
  return plan;
}

/**
 * Plans a customer can buy now: active, visible, still on sale (before its end less the operator's cut-off,
 * decision 0176) and with at least one active movie to download (decision 0118); a plan without movies or in its
 * last hours is left out rather than offered and refused at checkout.
 */
/** The plans on sale now; with `movieId`, only those that include that film. */
export async function listCustomerPlans(deps: PlanDeps, movieId?: string): Promise<{ plans: CustomerPlan[] }> {
  const now = deps.clock.now();
  const sale = await planSale(deps.database.db);
  const saleOpenUntilAfter = new Date(now.getTime() + sale.planSaleCutoffHours * 3_600_000);
  const rows = await deps.database.db
    .select()
    .from(subscriptionPlans)
    .where(
      and(
        eq(subscriptionPlans.isActive, true),
        eq(subscriptionPlans.isVisible, true),
        gt(subscriptionPlans.globalExpiryAt, saleOpenUntilAfter),
        hasActiveMovie(subscriptionPlans.id),
        movieId ? includesMovie(subscriptionPlans.id, movieId) : undefined,
      ),
    )
    .orderBy(...planOrder);
  const english = await plansWithEnglish(
    deps.database.db,
    rows.map((row) => row.id),
  );
  return { plans: rows.map((row) => toCustomerPlan(row, sale, english.has(row.id))) };
}

export async function listAdminPlans(deps: PlanDeps): Promise<{ plans: AdminPlan[] }> {
  const now = deps.clock.now();
  const db = deps.database.db;
  const rows = await db
    .select()
    .from(subscriptionPlans)
    .orderBy(...planOrder);
  const ids = rows.map((r) => r.id);
  const [counts, movies, sale] = await Promise.all([
    subscriberCounts(db, ids, now),
    movieCounts(db, ids),
    planSale(db),
  ]);
  return { plans: rows.map((r) => toAdminPlan(r, counts.get(r.id) ?? 0, movies.get(r.id) ?? NO_MOVIES, sale)) };
}

/** Creates a plan and, when `movieIds` is given, its movies in the same transaction: never a plan half saved. */
export async function createPlan(deps: PlanDeps, input: z.output<typeof PlanInput>): Promise<{ plan: AdminPlan }> {
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(subscriptionPlans)
      .values({
        planName: input.plan_name,
        priceUgx: input.price_ugx,
        description: input.description,
        features: input.features,
        isActive: input.is_active,
        isVisible: input.is_visible,
        displayOrder: input.display_order,
        globalExpiryAt: kampalaLocalToDate(input.global_expiry_date),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (input.movieIds) await replacePlanMovies(tx, row!.id, input.movieIds);
    return { plan: await adminPlan(tx, row!, now) };
  });
}

/**
 * Partial update. A new expiry moves every current subscriber of the plan to it in the same
 * transaction: all subscribers of a plan end at that one moment (product §3). `movieIds`, when sent,
 * replaces the plan's movies in that transaction too.
 */
export async function updatePlan(
  deps: PlanDeps,
  id: string,
  input: z.output<typeof PlanUpdate>,
): Promise<{ plan: AdminPlan }> {
  const now = deps.clock.now();
  const expiry = input.global_expiry_date === undefined ? undefined : kampalaLocalToDate(input.global_expiry_date);
  return deps.database.db.transaction(async (tx) => {
    const [row] = await tx
      .update(subscriptionPlans)
      .set({
        ...(input.plan_name !== undefined && { planName: input.plan_name }),
        ...(input.price_ugx !== undefined && { priceUgx: input.price_ugx }),
        ...(input.description !== undefined && { description: input.description }),
        ...(input.features !== undefined && { features: input.features }),
        ...(input.is_active !== undefined && { isActive: input.is_active }),
        ...(input.is_visible !== undefined && { isVisible: input.is_visible }),
        ...(input.display_order !== undefined && { displayOrder: input.display_order }),
        ...(expiry !== undefined && { globalExpiryAt: expiry }),
        updatedAt: now,
      })
      .where(eq(subscriptionPlans.id, id))
      .returning();
    if (!row) throw notFound('Subscription plan');
    if (input.movieIds) await replacePlanMovies(tx, id, input.movieIds);
    if (expiry !== undefined) {
      await tx
        .update(users)
        .set({ subscriptionEndDate: expiry, updatedAt: now })
        .where(and(eq(users.subscriptionPlanId, id), gt(users.subscriptionEndDate, now)));
    }
    return { plan: await adminPlan(tx, row, now) };
  });
}

/** Postgres' foreign_key_violation, whichever driver raised it. */
function isForeignKeyViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === '23503') return true;
  }
  return false;
}

/** Deletes a plan nobody has used; one referenced by a user or a payment is refused (decision 0012). */
export async function deletePlan(deps: PlanDeps, id: string): Promise<{ message: string }> {
  try {
    return await deps.database.db.transaction(async (tx) => {
      const [plan] = await tx
        .select({ id: subscriptionPlans.id })
        .from(subscriptionPlans)
        .where(eq(subscriptionPlans.id, id))
        .for('update');
      if (!plan) throw notFound('Subscription plan');
      const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.subscriptionPlanId, id)).limit(1);
      const [payment] = await tx.select({ id: payments.id }).from(payments).where(eq(payments.planId, id)).limit(1);
      if (user || payment) throw conflict(PLAN_IN_USE);
      await tx.delete(subscriptionPlans).where(eq(subscriptionPlans.id, id));
      return { message: 'Subscription plan deleted successfully.' };
    });
  } catch (error) {
    // A subscription or payment that landed between the check and the delete: the FK refuses it.
    if (isForeignKeyViolation(error)) throw conflict(PLAN_IN_USE);
    throw error;
  }
}
