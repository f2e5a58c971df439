import { messages, type CatalogMessageId } from '@filamu/shared/i18n/catalog.en';
import { catalogueOf } from '../../lib/i18n.ts';

/**
 * The movie helpers' words (sizes, durations, the missing poster): namespace `catalog` (decision 0257), registered
 * here as well as in features/catalog, which may not be imported from here. Both fetch the same Luganda chunk.
 */
export const { t: catalogT, useT: useCatalogT } = catalogueOf<CatalogMessageId>(
  messages,
  () => import('@filamu/shared/i18n/catalog.lg'),
);
