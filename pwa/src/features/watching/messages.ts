import { messages, type WatchingMessageId } from '@filamu/shared/i18n/watching.en';
import { catalogueOf } from '../../lib/i18n.ts';

/** The offline player's messages: controls, subtitles, resume (namespace `watching`, decision 0257). */
export const { t: watchingT, useT: useWatchingT } = catalogueOf<WatchingMessageId>(
  messages,
  () => import('@filamu/shared/i18n/watching.lg'),
);
