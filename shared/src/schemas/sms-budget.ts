import { z } from 'zod';
import { IsoDateTime } from './common.ts';

/**
 * What the SMS budget counts separately (decision 0201): codes (recovery, phone change, phone confirmation) are
 * refused past their ceiling; receipts (and notices), reminders and agent credentials wait in the outbox.
 */
export const SMS_BUDGET_PURPOSES = ['codes', 'receipts', 'reminders', 'credentials'] as const;
export const SmsBudgetPurpose = z.enum(SMS_BUDGET_PURPOSES);
export type SmsBudgetPurpose = z.infer<typeof SmsBudgetPurpose>;

// The ceiling is spelt out by hand: formatting it with toLocaleString here would start the browser's number
// formatter while the module loads, inside the first screen's longest task, for a message almost nobody sees.
const count = (what: string, max: number, maxForPeople: string) =>
  z
    .number({ message: `Enter ${what} as a whole number.` })
    .int(`Enter ${what} as a whole number.`)
    .min(1, `${what} must be at least 1.`)
    .max(max, `${what} must be at most ${maxForPeople}.`);

const CEILING_MAX = 1_000_000;
const CEILING_MAX_FOR_PEOPLE = '1,000,000';
export const SmsCeiling = z
  .object({
    perHour: count('The hourly ceiling', CEILING_MAX, CEILING_MAX_FOR_PEOPLE),
    perDay: count('The daily ceiling', CEILING_MAX, CEILING_MAX_FOR_PEOPLE),
  })
  .refine((c) => c.perHour <= c.perDay, {
    message: 'The hourly ceiling cannot be above the daily one.',
    path: ['perHour'],
  });
export type SmsCeiling = z.infer<typeof SmsCeiling>;

/** The operator's SMS budget: ceilings per purpose, the per-network code ceiling, and when to raise the alarm. */
export const SmsBudgetSetting = z.object({
  codes: SmsCeiling,
  receipts: SmsCeiling,
  reminders: SmsCeiling,
  credentials: SmsCeiling,
  /** Code requests (registration, recovery, phone change) per hour from one IPv4 /24 or IPv6 /64. */
  codesPerNetworkPerHour: count('The codes per network per hour', 100_000, '100,000'),
  /** The alarm sounds when a purpose has used this share of its hourly or daily ceiling. */
  alarmPercent: count('The alarm percentage', 100, '100'),
  /** …or when the gateway's balance falls below this many UGX (0: never). */
  balanceAlarmUgx: z
    .number({ message: 'Enter the balance alarm in UGX as a whole number.' })
    .int('Enter the balance alarm in UGX as a whole number.')
    .min(0, 'The balance alarm cannot be negative.')
    .max(100_000_000, 'The balance alarm must be at most UGX 100,000,000.'),
});
export type SmsBudgetSetting = z.infer<typeof SmsBudgetSetting>;

/**
 * The defaults (decision 0201), at UGX 35 a part: codes 300 an hour and 2,000 a day (UGX 70,000 a day at most);
 * receipts 3,000/20,000 and reminders 5,000/20,000 (a plan's subscribers all renew and are reminded at its one
 * end); credentials 50/200. 100 code requests an hour per network (a third of the hourly codes: three networks
 * at least to use them up; a carrier's NAT carries many subscribers); the alarm at 80% or below UGX 10,000.
 */
export const DEFAULT_SMS_BUDGET: SmsBudgetSetting = {
  codes: { perHour: 300, perDay: 2000 },
  receipts: { perHour: 3000, perDay: 20_000 },
  reminders: { perHour: 5000, perDay: 20_000 },
  credentials: { perHour: 50, perDay: 200 },
  codesPerNetworkPerHour: 100,
  alarmPercent: 80,
  balanceAlarmUgx: 10_000,
};

const Window = z.object({ sent: z.number().int(), ceiling: z.number().int(), resetsAt: IsoDateTime });

/** Where each purpose stands this hour and this day, and whether the alarm is on (admin Overview). */
export const SmsBudgetStatus = z.object({
  setting: SmsBudgetSetting,
  purposes: z.array(
    z.object({
      purpose: SmsBudgetPurpose,
      hour: Window,
      day: Window,
      /** At or past the alarm share of a ceiling. */
      alarm: z.boolean(),
      /** At a ceiling: codes are refused, the rest wait until `hour.resetsAt` or `day.resetsAt`. */
      reached: z.boolean(),
    }),
  ),
  /** The gateway's balance in UGX, null when it did not say. */
  balanceUgx: z.number().nullable(),
  balanceLow: z.boolean(),
  alarm: z.boolean(),
});
export type SmsBudgetStatus = z.infer<typeof SmsBudgetStatus>;
