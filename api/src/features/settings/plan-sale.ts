import {
  DEFAULT_PLAN_SALE_CUTOFF_HOURS,
  DEFAULT_PLAN_WARNING_HOURS,
  PLAN_SALE_CLOSED,
  type PlanSaleSetting,
} from '@filamu/shared';
import { eq } from 'drizzle-orm';
import type { Executor, Database } from '../../db/client.ts';
import { operatorSettings } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';

interface SettingsDeps {
  database: Database;
  clock: Clock;
}

const SETTINGS_ROW = 1;
const HOUR_MS = 3_600_000;

/** When plan cards warn and when sale stops, before a plan's one end (decision 0176). */
export async function planSale(exec: Executor): Promise<PlanSaleSetting> {
  const [row] = await exec
    .select({
      planWarningHours: operatorSettings.planWarningHours,
      planSaleCutoffHours: operatorSettings.planSaleCutoffHours,
    })
    .from(operatorSettings)
    .where(eq(operatorSettings.id, SETTINGS_ROW));
  return row ?? { planWarningHours: DEFAULT_PLAN_WARNING_HOURS, planSaleCutoffHours: DEFAULT_PLAN_SALE_CUTOFF_HOURS };
}

export async function setPlanSale(deps: SettingsDeps, input: PlanSaleSetting): Promise<PlanSaleSetting> {
  const now = deps.clock.now();
  const values = { planWarningHours: input.planWarningHours, planSaleCutoffHours: input.planSaleCutoffHours };
  const [row] = await deps.database.db
    .insert(operatorSettings)
    .values({ id: SETTINGS_ROW, ...values, updatedAt: now })
    .onConflictDoUpdate({ target: operatorSettings.id, set: { ...values, updatedAt: now } })
    .returning({
      planWarningHours: operatorSettings.planWarningHours,
      planSaleCutoffHours: operatorSettings.planSaleCutoffHours,
    });
  return row!;
}

/** The moment a plan ending at `end` stops being sold, and the moment cards start warning about it. */
export function saleWindow(end: Date, setting: PlanSaleSetting): { saleEndsAt: Date; warnFrom: Date } {
  return {
    saleEndsAt: new Date(end.getTime() - setting.planSaleCutoffHours * HOUR_MS),
    warnFrom: new Date(end.getTime() - setting.planWarningHours * HOUR_MS),
  };
}

/** Refuses (409 `plan_sale_closed`) a plan in the last hours the operator does not sell. */
export function assertSaleOpen(end: Date, setting: PlanSaleSetting, now: Date): void {
  if (now >= saleWindow(end, setting).saleEndsAt) {
    throw new AppError('plan_sale_closed', PLAN_SALE_CLOSED(setting.planSaleCutoffHours));
  }
}
