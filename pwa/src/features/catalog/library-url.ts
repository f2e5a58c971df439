import { MOVIE_CATEGORY_NAMES, type MovieCategoryName } from '@filamu/shared';

/** The library's state lives in its URL (`?search=…&category=…`), so reload, back and shared links keep it. */
export const SEARCH_MAX = 100;

/** `?category=kinayuganda|english` in any case → the section to show alone; anything else → both. */
export function parseCategory(value: string | null): MovieCategoryName | null {
  const wanted = value?.trim().toLowerCase();
  return MOVIE_CATEGORY_NAMES.find((name) => name.toLowerCase() === wanted) ?? null;
}

export function parseSearch(value: string | null): string {
  return (value ?? '').trim().slice(0, SEARCH_MAX);
}

/** The library URL for a search and section: empty values leave their parameter out. */
export function libraryHref(search: string, category: MovieCategoryName | null): string {
  const params = new URLSearchParams();
  if (search) params.set('search', search);
  if (category) params.set('category', category.toLowerCase());
  const query = params.toString();
  return query ? `/movies?${query}` : '/movies';
}
