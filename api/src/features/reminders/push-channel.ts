import type { Executor } from '../../db/client.ts';
import type { PlanReminder, ReminderChannel } from './channels.ts';
import { queuePush } from '../push/outbox.ts';
import { reminderPush } from '../push/texts.ts';

/** The app path of the renew link: notifications open screens of this app, never another site. */
function appPath(renewUrl: string): string {
  try {
    const url = new URL(renewUrl, 'http://app.invalid');
    return `${url.pathname}${url.search}` || '/subscription';
  } catch {
    return '/subscription';
  }
}

/**
 * Plan-ending reminders by push (decision 0154): one push_messages row per browser the person subscribed, queued
 * in the reminder sweep's transaction. False when the person has no subscription (the sweep tries its other channels).
 */
export const pushReminderChannel: ReminderChannel = {
  name: 'push',
  async queue(exec: Executor, now: Date, reminder: PlanReminder): Promise<boolean> {
    const queued = await queuePush(exec, now, reminder.userId, {
      kind: reminder.kind,
      ...reminderPush(reminder, reminder.language),
      url: appPath(reminder.renewUrl),
    });
    return queued > 0;
  },
};
