import type { MovieCategoryName } from '@filamu/shared';
import { messages, type CatalogMessageId } from '@filamu/shared/i18n/catalog.en';
import { catalogueOf } from '../../lib/i18n.ts';

export type { CatalogMessageId };

/** The library's, the film page's and the movie helpers' messages (namespace `catalog`, decision 0257). */
export const { t: catalogT, useT: useCatalogT } = catalogueOf<CatalogMessageId>(
  messages,
  () => import('@filamu/shared/i18n/catalog.lg'),
);

/** A section's fixed name as a label: "Kinayuganda" stays, "English" is said in the active language. */
export function categoryLabel(name: MovieCategoryName): string {
  return name === 'English' ? catalogT('catalog.category.english') : catalogT('catalog.category.kinayuganda');
}
