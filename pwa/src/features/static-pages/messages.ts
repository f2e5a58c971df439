import { messages, type PagesMessageId } from '@filamu/shared/i18n/pages.en';
import { catalogueOf } from '../../lib/i18n.ts';

/** The policy and contact pages' messages (namespace `pages`, decision 0257). */
export const { t: pagesT, useT: usePagesT } = catalogueOf<PagesMessageId>(
  messages,
  () => import('@filamu/shared/i18n/pages.lg'),
);
