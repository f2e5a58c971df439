import { queueSms } from '../sms/outbox.ts';
import { reminderText } from '../sms/texts.ts';
import type { ReminderChannel } from './channels.ts';

/** Plan reminders by SMS to the registered phone; not worth sending once the plan has ended. */
export const smsReminderChannel: ReminderChannel = {
  name: 'sms',
  async queue(exec, now, reminder) {
    if (!reminder.phone) return false;
    await queueSms(exec, now, {
      to: reminder.phone,
      text: reminderText(reminder, reminder.language),
      purpose: reminder.kind,
      expiresAt: reminder.accessUntil,
    });
    return true;
  },
};
