import { messages, type CatalogMessageId } from '@filamu/shared/i18n/catalog.en';
import { catalogueOf } from '../../lib/i18n.ts';

export type { CatalogMessageId };

/**
 * The library's, the film page's and the movie helpers' words (sizes, durations, the missing poster): namespace
 * `catalog` (decision 0257), registered once, here, since features/catalog builds on features/movie and not the
 * reverse.
 */
export const { t: catalogT, useT: useCatalogT } = catalogueOf<CatalogMessageId>(
  messages,
  () => import('@filamu/shared/i18n/catalog.lg'),
);
