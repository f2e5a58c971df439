import { messages, type PushMessageId } from '@filamu/shared/i18n/push.en';
import { catalogueOf } from '../../lib/i18n.ts';

/** The notification offer's and switch's messages (namespace `push`, decision 0257). */
export const { t: pushT, useT: usePushT } = catalogueOf<PushMessageId>(
  messages,
  () => import('@filamu/shared/i18n/push.lg'),
);
