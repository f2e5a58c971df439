import { messages, type DownloadsNightMessageId } from '@filamu/shared/i18n/downloads-night.en';
import { catalogueOf } from '../../../lib/i18n.ts';

/** Download tonight's messages: night mode, its card and the morning report (namespace `downloads-night`, decision 0257). */
export const { t: downloadsNightT, useT: useDownloadsNightT } = catalogueOf<DownloadsNightMessageId>(
  messages,
  () => import('@filamu/shared/i18n/downloads-night.lg'),
);

export type { DownloadsNightMessageId };
