import {
  MOVIE_CATEGORY_NAMES,
  MOVIE_RATINGS,
  type MovieCategoryName,
  type MovieRating,
  type MovieSort,
} from '@filamu/shared';

/**
 * The library's state lives in its URL (`?search=…&category=…`), so reload, back and shared links keep it. Beside the
 * movie, not in catalog/, because other screens link into the library (the download button's "Show Kinayuganda
 * movies").
 */
export const SEARCH_MAX = 100;

/** `?category=kinayuganda|english` in any case → the section to show alone; anything else → both. */
export function parseCategory(value: string | null): MovieCategoryName | null {
  const wanted = value?.trim().toLowerCase();
  return MOVIE_CATEGORY_NAMES.find((name) => name.toLowerCase() === wanted) ?? null;
}

export function parseSearch(value: string | null): string {
  return (value ?? '').trim().slice(0, SEARCH_MAX);
}

/** The rating, VJ and order the library is narrowed to or sorted by (decision 0168). */
export interface LibraryRefine {
  rating?: MovieRating | null;
  vj?: string | null;
  sort?: MovieSort | null;
}

export function parseRefine(params: URLSearchParams): Required<LibraryRefine> {
  const rating = params.get('rating');
  const vj = (params.get('vj') ?? '').trim().slice(0, SEARCH_MAX);
  return {
    rating: MOVIE_RATINGS.find((r) => r === rating) ?? null,
    vj: vj || null,
    sort: params.get('sort') === 'popular' ? 'popular' : null,
  };
}

/** The library URL for a search and section: empty values leave their parameter out. */
export function libraryHref(search: string, category: MovieCategoryName | null, refine: LibraryRefine = {}): string {
  const params = new URLSearchParams();
  if (search) params.set('search', search);
  if (category) params.set('category', category.toLowerCase());
  if (refine.rating) params.set('rating', refine.rating);
  if (refine.vj) params.set('vj', refine.vj);
  if (refine.sort) params.set('sort', refine.sort);
  const query = params.toString();
  return query ? `/movies?${query}` : '/movies';
}
