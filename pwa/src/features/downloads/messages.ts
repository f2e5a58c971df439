import { messages, type DownloadsMessageId } from '@filamu/shared/i18n/downloads.en';
import { catalogueOf } from '../../lib/i18n.ts';

/** The download screens' messages (namespace `downloads`, decision 0257): the size choice, My Downloads, settings. */
export const { t: downloadsT, useT: useDownloadsT } = catalogueOf<DownloadsMessageId>(
  messages,
  () => import('@filamu/shared/i18n/downloads.lg'),
);

export type { DownloadsMessageId };
