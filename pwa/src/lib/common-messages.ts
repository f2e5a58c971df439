import { messages, type CommonMessageId } from '@filamu/shared/i18n/common.en';
import { catalogueOf } from './i18n.ts';

/**
 * The shared UI's messages that only signed-in screens and forms show (namespace `common`, decision 0257): load
 * failures, dialogs' defaults, password fields, time left, the 404 page. Kept out of `web` so the landing does not
 * carry them.
 */
export const { t: commonT, useT: useCommonT } = catalogueOf<CommonMessageId>(
  messages,
  () => import('@filamu/shared/i18n/common.lg'),
);
