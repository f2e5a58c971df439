import { MOVIE_RATINGS, RATING_LABELS, type MovieCategoryName } from '@filamu/shared';
import { useId } from 'react';
import { Link, useNavigate } from 'react-router';
import { cn } from '../../components/ui/cn.ts';
import { fieldClasses } from '../../components/ui/Input.tsx';
import { libraryHref, type LibraryRefine } from '../movie/library-url.ts';
import { useCatalogT } from './messages.ts';

const selectClasses = cn(fieldClasses, 'border-stone-300 py-2 text-sm dark:border-stone-700');

/** Rating filter, order, and the VJ the library is narrowed to (set from a movie's VJ link), all in the URL. */
export function RefineControls({
  search,
  category,
  refine,
}: {
  search: string;
  category: MovieCategoryName | null;
  refine: Required<LibraryRefine>;
}) {
  const t = useCatalogT();
  const id = useId();
  const navigate = useNavigate();
  const go = (change: LibraryRefine) =>
    void navigate(libraryHref(search, category, { ...refine, ...change }), { replace: true });
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor={`${id}-rating`} className="mb-1 block text-xs font-medium text-stone-700 dark:text-stone-300">
          {t('catalog.refine.rating')}
        </label>
        <select
          id={`${id}-rating`}
          value={refine.rating ?? ''}
          onChange={(e) => go({ rating: (e.target.value || null) as LibraryRefine['rating'] })}
          className={selectClasses}
        >
          <option value="">{t('catalog.refine.rating.any')}</option>
          {MOVIE_RATINGS.map((rating) => (
            <option key={rating} value={rating}>
              {RATING_LABELS[rating]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-sort`} className="mb-1 block text-xs font-medium text-stone-700 dark:text-stone-300">
          {t('catalog.refine.sort')}
        </label>
        <select
          id={`${id}-sort`}
          value={refine.sort ?? 'newest'}
          onChange={(e) => go({ sort: e.target.value === 'popular' ? 'popular' : null })}
          className={selectClasses}
        >
          <option value="newest">{t('catalog.refine.sort.newest')}</option>
          <option value="popular">{t('catalog.refine.sort.popular')}</option>
        </select>
      </div>
      {refine.vj && (
        <p className="flex min-h-10 items-center gap-2 rounded-full bg-brand-100 px-3 text-sm font-semibold text-brand-900 dark:bg-brand-950 dark:text-brand-100">
          <span className="max-w-48 truncate">{t('catalog.refine.vj', { vj: refine.vj })}</span>
          <Link
            to={libraryHref(search, category, { ...refine, vj: null })}
            replace
            aria-label={t('catalog.refine.vj.clear.label', { vj: refine.vj })}
            className="underline underline-offset-2"
          >
            {t('catalog.refine.vj.clear')}
          </Link>
        </p>
      )}
    </div>
  );
}
