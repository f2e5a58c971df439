import { DEFAULT_SMS_BUDGET, SmsBudgetSetting } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { operatorSettings } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';

const SETTINGS_ROW = 1;

/**
 * The operator's SMS budget (decision 0201). Stored as one JSON value, checked by its contract on the way in and
 * again on the way out: a value an older or newer release wrote that no longer fits falls back to the defaults,
 * never to "no ceiling".
 */
export async function smsBudgetSetting(exec: Executor): Promise<SmsBudgetSetting> {
  const [row] = await exec
    .select({ budget: operatorSettings.smsBudget })
    .from(operatorSettings)
    .where(eq(operatorSettings.id, SETTINGS_ROW));
  const parsed = SmsBudgetSetting.safeParse(row?.budget);
  return parsed.success ? parsed.data : DEFAULT_SMS_BUDGET;
}

export async function setSmsBudget(
  deps: { database: Database; clock: Clock },
  input: SmsBudgetSetting,
): Promise<SmsBudgetSetting> {
  const now = deps.clock.now();
  await deps.database.db
    .insert(operatorSettings)
    .values({ id: SETTINGS_ROW, smsBudget: input, updatedAt: now })
    .onConflictDoUpdate({ target: operatorSettings.id, set: { smsBudget: input, updatedAt: now } });
  return smsBudgetSetting(deps.database.db);
}
