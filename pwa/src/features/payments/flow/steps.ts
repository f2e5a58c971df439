import type { MobileMoneyNetwork, MobileNetwork } from '@filamu/shared';
import type { PaymentsMessageId } from '@filamu/shared/i18n/payments.en';
import { paymentsT } from '../messages.ts';

/** Product §4 / §9: auto-verification every 5 s, at most 6 attempts; redirect 2 s after success. */
export const VERIFY_INTERVAL_MS = 5000;
export const VERIFY_MAX_ATTEMPTS = 6;
export const SUCCESS_REDIRECT_MS = 2000;

/** The wizard's four steps (product §4), and `review` for a payment held for a person to look at. */
export type Step = 'payment-method' | 'phone-input' | 'processing' | 'success';
export type Phase = Step | 'review';

/**
 * The steps as the payer sees them: checkout is the first ("Plan"), so the whole purchase reads as one flow of five
 * (decision 0182).
 */
export const STEPS: Array<{ id: Step | 'plan'; label: PaymentsMessageId }> = [
  { id: 'plan', label: 'payments.steps.plan' },
  { id: 'payment-method', label: 'payments.steps.network' },
  { id: 'phone-input', label: 'payments.steps.phone' },
  { id: 'processing', label: 'payments.steps.approve' },
  { id: 'success', label: 'payments.steps.done' },
];

/** The shared `ussdFallback`'s words ("No prompt? Dial *165# …"), in the language on screen. */
export function ussdHint(network: MobileMoneyNetwork): string {
  return paymentsT('payments.ussd', { ussd: network.ussd, menu: network.approvalsMenu, app: network.app });
}

/** The colours of each network's badge. */
export const NETWORK_TONE: Record<MobileNetwork, string> = {
  MTNmobilemoney: 'bg-yellow-400 text-stone-950',
  Mobile_Airtel_UG: 'bg-red-700 text-white',
};

/** Where a failed charge is shown: beside the phone field when the number was refused, else under Pay. */
export interface ChargeError {
  target: 'phone' | 'action';
  message: string;
}

/** Each step's heading, which takes focus when the step opens (a screen reader reads where the payer is). */
export const STEP_HEADING = 'text-lg font-semibold text-stone-900 focus:outline-none dark:text-stone-50';
