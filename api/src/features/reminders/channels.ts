import type { Executor } from '../../db/client.ts';
export type ReminderKind = 'plan_ends_in_3_days' | 'plan_ends_today';
export interface PlanReminder {
  kind: ReminderKind;
  userId: string;
  phone: string | null; // canonical 256…, null if none
  /** The account's language (decision 0258); English when absent. */
  language?: 'en' | 'lg';
  planName: string;
  accessUntil: Date;
  renewUrl: string;
}
export interface ReminderChannel {
  /** 'sms' | 'push' — part of the exactly-once key */
  name: string;
  /** Queues the reminder inside the sweep's transaction (never calls a network itself). Returns false if this person cannot be reached on this channel. */
  queue(exec: Executor, now: Date, reminder: PlanReminder): Promise<boolean>;
}
