import {
  DEFAULT_DATA_PRICE_PER_GB_UGX,
  type NightBundle,
  type NightBundleAdminView,
  NightBundleSetting,
  type NightSpan,
  NightWindows,
} from '@filamu/shared';
import { eq } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { operatorSettings } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  changeTakesEffectAt,
  DEFAULT_NIGHT_BUNDLE,
  type NightSchedule,
  nextWindowAt,
  openWindowAt,
  settingAt,
  settingForNext,
} from './schedule.ts';

/** The one settings row (migration 0011 inserts it; a database restored without it still answers the defaults). */
const SETTINGS_ROW = 1;

interface SettingsDeps {
  database: Database;
  clock: Clock;
}

const settingsColumns = {
  dayPrice: operatorSettings.dataPricePerGbUgx,
  nightPrice: operatorSettings.nightPricePerGbUgx,
  windows: operatorSettings.nightWindows,
  before: operatorSettings.nightBefore,
  changesAt: operatorSettings.nightChangesAt,
};
interface SettingsRow {
  dayPrice: number;
  nightPrice: number;
  windows: unknown;
  before: unknown;
  changesAt: Date | null;
}

/**
 * The stored JSON is checked again on the way out (as the SMS budget is): windows an older or newer release wrote that
 * no longer fit fall back to the defaults, never to "no night".
 */
function scheduleOf(row: SettingsRow | undefined): NightSchedule {
  if (!row) return { latest: DEFAULT_NIGHT_BUNDLE, before: null, changesAt: null };
  const windows = NightWindows.safeParse(row.windows);
  const latest = {
    nightPricePerGbUgx: row.nightPrice ?? DEFAULT_NIGHT_BUNDLE.nightPricePerGbUgx,
    windows: windows.success ? windows.data : DEFAULT_NIGHT_BUNDLE.windows,
  };
  const before = NightBundleSetting.safeParse(row.before);
  return before.success && row.changesAt
    ? { latest, before: before.data, changesAt: row.changesAt }
    : { latest, before: null, changesAt: null };
}

async function readSettings(exec: Executor, lock = false) {
  const query = exec.select(settingsColumns).from(operatorSettings).where(eq(operatorSettings.id, SETTINGS_ROW));
  const [row] = lock ? await query.for('update') : await query;
  return { schedule: scheduleOf(row), dayPricePerGbUgx: row?.dayPrice ?? DEFAULT_DATA_PRICE_PER_GB_UGX };
}

/** The night bundle over time: what night bytes, the window-start push and the analytics are figured from. */
export async function nightSchedule(exec: Executor): Promise<NightSchedule> {
  return (await readSettings(exec)).schedule;
}

/** Both prices per GB now: the day price the operator set and the night price in force. */
export async function pricesNow(exec: Executor, now: Date): Promise<{ day: number; night: number }> {
  const { schedule, dayPricePerGbUgx } = await readSettings(exec);
  return { day: dayPricePerGbUgx, night: settingAt(schedule, now).nightPricePerGbUgx };
}

const wire = (span: NightSpan) => ({ opensAt: span.opensAt.toISOString(), closesAt: span.closesAt.toISOString() });

/**
 * What a phone reads (GET /api/settings/night-bundle): the price and windows that govern tonight (the window open now,
 * or the next one), and that window by the server's clock.
 */
export async function nightBundle(deps: SettingsDeps): Promise<NightBundle> {
  const now = deps.clock.now();
  const { schedule, dayPricePerGbUgx } = await readSettings(deps.database.db);
  const tonight = settingForNext(schedule, now);
  const open = openWindowAt(schedule, now);
  return {
    dayPricePerGbUgx,
    nightPricePerGbUgx: tonight.nightPricePerGbUgx,
    windows: tonight.windows,
    openNow: open ? wire(open) : null,
    next: wire(nextWindowAt(schedule, now)),
  };
}

/** What the operator saved last, and when it takes effect if it waits for a window under way. */
function adminView(schedule: NightSchedule): NightBundleAdminView {
  return { ...schedule.latest, takesEffectAt: schedule.changesAt?.toISOString() ?? null };
}

export async function adminNightBundle(deps: SettingsDeps): Promise<NightBundleAdminView> {
  const { schedule } = await readSettings(deps.database.db);
  // A change whose time has come is simply in force.
  const waiting = schedule.changesAt && schedule.changesAt.getTime() > deps.clock.now().getTime();
  return adminView(waiting ? schedule : { ...schedule, before: null, changesAt: null });
}

/**
 * Saves the operator's setting. It takes effect for the next window: while a window is open (under the setting in
 * force or the new one) the setting in force stays until it closes (decision 0255). Saving again before then replaces
 * the waiting change. The row is locked, so two admins saving at once are applied one after the other.
 */
export async function setNightBundle(deps: SettingsDeps, input: NightBundleSetting): Promise<NightBundleAdminView> {
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    await tx.insert(operatorSettings).values({ id: SETTINGS_ROW, updatedAt: now }).onConflictDoNothing();
    const { schedule } = await readSettings(tx, true);
    const inForce = settingAt(schedule, now);
    const changesAt = changeTakesEffectAt(inForce, input, now);
    const waits = changesAt.getTime() > now.getTime();
    await tx
      .update(operatorSettings)
      .set({
        nightPricePerGbUgx: input.nightPricePerGbUgx,
        nightWindows: input.windows,
        nightBefore: waits ? inForce : null,
        nightChangesAt: waits ? changesAt : null,
        updatedAt: now,
      })
      .where(eq(operatorSettings.id, SETTINGS_ROW));
    return adminView({ latest: input, before: null, changesAt: waits ? changesAt : null });
  });
}
