import type { ParentalHides } from '@filamu/shared';
import { messages, type ParentalPinMessageId } from '@filamu/shared/i18n/parental-pin.en';
import { catalogueOf } from '../../lib/i18n.ts';

/** The parental PIN's messages (namespace `parental-pin`, decision 0257). */
export const { t: pinT, useT: usePinT } = catalogueOf<ParentalPinMessageId>(
  messages,
  () => import('@filamu/shared/i18n/parental-pin.lg'),
);

/** PARENTAL_HIDES_LABELS ('Hide 18+') as the radio buttons say them. */
export const HIDES_LABELS: Record<ParentalHides, ParentalPinMessageId> = {
  '18': 'parental-pin.hides.18',
  '13': 'parental-pin.hides.13',
};
