import { messages, type PhoneToPhoneMessageId } from '@filamu/shared/i18n/phone-to-phone.en';
import { catalogueOf } from '../../lib/i18n.ts';

/** Phone to phone's messages (namespace `phone-to-phone`, decision 0257). */
export const { t: p2pT, useT: useP2pT } = catalogueOf<PhoneToPhoneMessageId>(
  messages,
  () => import('@filamu/shared/i18n/phone-to-phone.lg'),
);
