import type { MovieCategoryName } from '@filamu/shared';
import { catalogT } from '../movie/messages.ts';

export { catalogT, useCatalogT, type CatalogMessageId } from '../movie/messages.ts';

/** A section's fixed name as a label: "Kinayuganda" stays, "English" is said in the active language. */
export function categoryLabel(name: MovieCategoryName): string {
  return name === 'English' ? catalogT('catalog.category.english') : catalogT('catalog.category.kinayuganda');
}
