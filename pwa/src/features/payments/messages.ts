import { messages, type PaymentsMessageId } from '@filamu/shared/i18n/payments.en';
import { catalogueOf } from '../../lib/i18n.ts';

/** The payment screens' messages (namespace `payments`, decision 0257). */
export const { t: paymentsT, useT: usePaymentsT } = catalogueOf<PaymentsMessageId>(
  messages,
  () => import('@filamu/shared/i18n/payments.lg'),
);
