import {
  displayUgandaPhone,
  MOBILE_MONEY,
  networkOfNumber,
  PHONE_EXAMPLE,
  type MobileNetworkCode,
  type PaymentNumberProblem,
} from '@filamu/shared';
import { paymentsT } from '../messages.ts';

/**
 * The shared check's problem in the active language: the same facts (the number as typed, the network it is, an
 * example of the chosen one) as the English the server would answer with.
 */
export function problemText(problem: PaymentNumberProblem, phone: string, chosen: MobileNetworkCode): string {
  const examples = { mtnExample: PHONE_EXAMPLE.mtn, airtelExample: PHONE_EXAMPLE.airtel };
  if (problem.kind === 'required') return paymentsT('payments.phone.problem.required');
  if (problem.kind === 'invalid') return paymentsT('payments.phone.problem.invalid', examples);
  const shown = displayUgandaPhone(networkOfNumber(phone).canonical!);
  if (problem.kind !== 'wrong_network') return paymentsT('payments.phone.problem.unserved', { shown, ...examples });
  const right = MOBILE_MONEY[problem.network];
  const own = MOBILE_MONEY[chosen];
  return paymentsT('payments.phone.problem.wrongNetwork', {
    shown,
    right: right.short,
    rightName: right.name,
    own: own.short,
    ownExample: PHONE_EXAMPLE[own.numbers],
  });
}
