import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAdmin, registerUser, type TestApp, testDatabases } from '../../../test/harness.ts';
import { createPlan, subscribe } from '../../../test/library.ts';
import { planReminders, smsOutbox, users } from '../../db/schema.ts';
import { deliverSmsOutbox } from '../sms/outbox.ts';
import { messageParts } from '../sms/protocol.ts';
import type { ReminderChannel } from './channels.ts';
import { smsReminderChannel } from './sms-channel.ts';
import { REMINDER_SWEEP_INTERVAL_MS, runReminderSweep, sendDueReminders } from './sweep.ts';

const channels = [smsReminderChannel];
const RENEW = 'http://localhost:8080/subscription';

describe.each(testDatabases)('plan reminders on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // The test clock starts on 22 November 2026, 12:00 in Kampala.
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  const at = (iso: string) => {
    t.clock.advance(new Date(iso).getTime() - t.clock.now().getTime());
  };
  /** Two sweeps at the same moment, as two replicas would run them. */
  const raceSweeps = async () => {
    const [a, b] = await Promise.all([sendDueReminders(t.deps, channels), sendDueReminders(t.deps, channels)]);
    return {
      in3Days: a.plan_ends_in_3_days + b.plan_ends_in_3_days,
      today: a.plan_ends_today + b.plan_ends_today,
    };
  };
  /** What each phone received, through the outbox and the simulator, as its owner reads it. */
  async function received(phone: string): Promise<string[]> {
    while ((await deliverSmsOutbox(t.deps, t.deps.sms)) > 0);
    return t.deps
      .smsSimulator!.messages(phone)
      .map((m) => m.text)
      .reverse();
  }
  const person = async () => {
    const { user } = await registerUser(t);
    return { id: user.id as string, phone: user.phone as string };
  };

  it('three days before and on the day, each exactly once under two racing sweeps, moved with the clock', async () => {
    const plan = await createPlan(t, await loginAdmin(t), {
      plan_name: 'Monthly',
      global_expiry_date: '2026-11-30T23:59',
    });
    const [ann, bob] = [await person(), await person()];
    const noPhone = await person();
    for (const p of [ann, bob, noPhone]) await subscribe(t, await loginAdmin(t), p.id, plan);
    await t.deps.database.db.update(users).set({ phone: null }).where(eq(users.id, noPhone.id));

    expect(await raceSweeps()).toEqual({ in3Days: 0, today: 0 });
    // 27 November, 07:59 in Kampala: not yet (nothing before 08:00).
    at('2026-11-27T04:59:00Z');
    expect(await raceSweeps()).toEqual({ in3Days: 0, today: 0 });
    at('2026-11-27T05:00:00Z');
    expect(await raceSweeps()).toEqual({ in3Days: 2, today: 0 });
    expect(await raceSweeps()).toEqual({ in3Days: 0, today: 0 });
    const ends = 'Filamu: your Monthly plan ends on 30 Nov 2026. Renew to keep downloading: ' + RENEW;
    expect(await received(ann.phone)).toEqual([ends]);
    expect(await received(bob.phone)).toEqual([ends]);

    // 30 November: the 3-day reminder is not repeated; "today" waits for 08:00.
    at('2026-11-30T04:59:00Z');
    expect(await raceSweeps()).toEqual({ in3Days: 0, today: 0 });
    at('2026-11-30T05:00:00Z');
    expect(await raceSweeps()).toEqual({ in3Days: 0, today: 2 });
    t.clock.advance(REMINDER_SWEEP_INTERVAL_MS);
    expect(await raceSweeps()).toEqual({ in3Days: 0, today: 0 });
    const today = 'Filamu: your Monthly plan ends today at 11:59 PM. Renew to keep downloading: ' + RENEW;
    expect(await received(ann.phone)).toEqual([ends, today]);
    expect(messageParts(today)).toBe(1);

    // Ended: nothing more, ever.
    at('2026-12-01T06:00:00Z');
    expect(await raceSweeps()).toEqual({ in3Days: 0, today: 0 });
    expect(await received(bob.phone)).toEqual([ends, today]);

    // One row per person, period, kind and channel; the person without a phone is recorded, not texted.
    const rows = await t.deps.database.db
      .select()
      .from(planReminders)
      .where(inArray(planReminders.userId, [ann.id, bob.id, noPhone.id]));
    expect(rows).toHaveLength(6);
    expect(rows.filter((r) => r.queued).map((r) => r.userId)).not.toContain(noPhone.id);
    const texts = await t.deps.database.db
      .select()
      .from(smsOutbox)
      .where(inArray(smsOutbox.purpose, ['plan_ends_in_3_days', 'plan_ends_today']));
    expect(texts.filter((m) => m.toPhone === ann.phone)).toHaveLength(2);
  });

  it('a person who renewed is not reminded of the old end, and gets the new period’s reminders', async () => {
    at('2026-12-02T09:00:00Z');
    const first = await createPlan(t, await loginAdmin(t), {
      plan_name: 'Weekly',
      global_expiry_date: '2026-12-09T23:59',
    });
    const longer = await createPlan(t, await loginAdmin(t), {
      plan_name: 'Monthly Plus',
      global_expiry_date: '2027-01-09T23:59',
    });
    const [stays, renews] = [await person(), await person()];
    await subscribe(t, await loginAdmin(t), stays.id, first);
    await subscribe(t, await loginAdmin(t), renews.id, first);
    at('2026-12-05T09:00:00Z');
    await subscribe(t, await loginAdmin(t), renews.id, longer);

    at('2026-12-06T06:00:00Z');
    expect(await raceSweeps()).toEqual({ in3Days: 1, today: 0 });
    at('2026-12-09T06:00:00Z');
    expect(await raceSweeps()).toEqual({ in3Days: 0, today: 1 });
    expect(await received(stays.phone)).toHaveLength(2);
    expect(await received(renews.phone)).toEqual([]);

    at('2027-01-06T05:00:00Z');
    expect(await raceSweeps()).toEqual({ in3Days: 1, today: 0 });
    expect(await received(renews.phone)).toEqual([
      `Filamu: your Monthly Plus plan ends on 9 Jan 2027. Renew to keep downloading: ${RENEW}`,
    ]);
  });

  it('a period bought after a reminder fell due skips that reminder (its receipt just named the end)', async () => {
    at('2027-02-01T09:00:00Z');
    const plan = await createPlan(t, await loginAdmin(t), {
      plan_name: 'Short',
      global_expiry_date: '2027-02-10T23:59',
    });
    const late = await person();
    at('2027-02-08T09:00:00Z');
    await subscribe(t, await loginAdmin(t), late.id, plan);
    expect(await raceSweeps()).toEqual({ in3Days: 0, today: 0 });
    at('2027-02-10T05:30:00Z');
    expect(await raceSweeps()).toEqual({ in3Days: 0, today: 1 });
    expect(await received(late.phone)).toEqual([
      `Filamu: your Short plan ends today at 11:59 PM. Renew to keep downloading: ${RENEW}`,
    ]);
  });

  it('every channel in the list gets its own once-only reminder, in the sweep’s transaction', async () => {
    at('2027-03-01T09:00:00Z');
    const plan = await createPlan(t, await loginAdmin(t), {
      plan_name: 'Two ways',
      global_expiry_date: '2027-03-10T23:59',
    });
    const p = await person();
    await subscribe(t, await loginAdmin(t), p.id, plan);
    const seen: string[] = [];
    const push: ReminderChannel = {
      name: 'push',
      queue: async (_exec, _now, reminder) => {
        seen.push(`${reminder.kind} ${reminder.planName} ${reminder.renewUrl}`);
        return true;
      },
    };
    at('2027-03-07T06:00:00Z');
    const both = [smsReminderChannel, push];
    await Promise.all([sendDueReminders(t.deps, both), sendDueReminders(t.deps, both)]);
    expect(seen).toEqual([`plan_ends_in_3_days Two ways ${RENEW}`]);
    expect(await received(p.phone)).toHaveLength(1);
    // A channel added later still reaches the people the others already reached, once.
    const late: ReminderChannel = { name: 'late', queue: async () => true };
    expect((await sendDueReminders(t.deps, [...both, late])).plan_ends_in_3_days).toBeGreaterThanOrEqual(1);
    expect((await sendDueReminders(t.deps, [...both, late])).plan_ends_in_3_days).toBe(0);
    expect(seen).toHaveLength(1);
  });

  it('the timed pass runs on one replica per period', async () => {
    t.clock.advance(REMINDER_SWEEP_INTERVAL_MS);
    const [a, b] = await Promise.all([runReminderSweep(t.deps, channels), runReminderSweep(t.deps, channels)]);
    expect([a, b].filter((r) => r !== null)).toHaveLength(1);
  });
});
