import { MOVIE_CATEGORY_NAMES, type MovieCategoryName, type UserMovieList } from '@filamu/shared';
import { useCallback, useDeferredValue, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { cn } from '../../components/ui/cn.ts';
import { LoadFailure } from '../../components/ui/LoadFailure.tsx';
import { libraryHref, type LibraryRefine, parseCategory, parseRefine, parseSearch } from '../movie/library-url.ts';
import { HiddenByPinNotice } from '../parental-pin/HiddenByPinNotice.tsx';
import { RefineControls } from './RefineControls.tsx';
import { useOnline } from '../../lib/online.ts';
import { MOVIE_GRID, MovieCardSkeleton } from './MovieCard.tsx';
import { MovieSection, SECTIONS } from './MovieSection.tsx';
import { EnglishKeptNotice, EnglishLockedNotice } from './EnglishNotices.tsx';
import { lastLibrary, useLibrary, type LibraryFilter } from './queries.ts';
import { SearchBox } from './SearchBox.tsx';
import { ContinueWatching } from '../downloads/ContinueWatching.tsx';
import { useDocumentTitle } from '../../lib/page.ts';
import { categoryLabel, catalogT, useCatalogT } from './messages.ts';

/** The first row of a phone's library: two cards side by side, loaded at once (the page's largest picture). */
const FIRST_SCREEN_POSTERS = 2;

/** Product §9: skeleton count. */
const SKELETON_COUNT = 8;

/** All / Kinayuganda / English, as links (the section filter lives in the URL). */
function SectionFilter({
  search,
  category,
  refine,
}: {
  search: string;
  category: MovieCategoryName | null;
  refine: LibraryRefine;
}) {
  const t = useCatalogT();
  const options: Array<{ label: string; value: MovieCategoryName | null }> = [
    { label: t('catalog.library.filter.all'), value: null },
    ...MOVIE_CATEGORY_NAMES.map((name) => ({ label: categoryLabel(name), value: name })),
  ];
  return (
    <nav aria-label={t('catalog.library.sections')} className="flex flex-wrap gap-2">
      {options.map(({ label, value }) => {
        const current = value === category;
        return (
          <Link
            key={value ?? 'all'}
            to={libraryHref(search, value, refine)}
            aria-current={current ? 'page' : undefined}
            className={cn(
              'min-w-0 break-words rounded-full px-4 py-1.5 text-sm font-semibold ring-1 ring-inset transition-colors',
              current
                ? 'bg-brand-700 text-white ring-brand-700 dark:bg-brand-400 dark:text-stone-950 dark:ring-brand-400'
                : 'bg-white text-stone-800 ring-stone-300 hover:bg-stone-100 dark:bg-stone-900 dark:text-stone-200 dark:ring-stone-700 dark:hover:bg-stone-800',
            )}
          >
            {label}
          </Link>
        );
      })}
    </nav>
  );
}

/** Above the English section: the lock with its progress, or that English stays unlocked (decision 0177). */
function englishNotice(list: UserMovieList, search: string) {
  if (englishLocked(list)) return <EnglishLockedNotice search={search} />;
  return list.subscribed && list.hasDownloadedAllKinayuganda ? <EnglishKeptNotice search={search} /> : null;
}

function englishLocked(list: UserMovieList): boolean {
  return (
    list.subscribed &&
    !list.hasDownloadedAllKinayuganda &&
    list.movies.some((movie) => movie.category === 'English' && movie.access === 'locked')
  );
}

function resultsSummary(list: UserMovieList, category: MovieCategoryName | null): string {
  const count = category ? list.totals[category] : list.totals.Kinayuganda + list.totals.English;
  return catalogT('catalog.library.found', { count });
}

export default function MovieLibraryPage() {
  const t = useCatalogT();
  useDocumentTitle(t('catalog.library.title'));
  const [params, setParams] = useSearchParams();
  const search = parseSearch(params.get('search'));
  const category = parseCategory(params.get('category'));
  const { rating, vj, sort } = parseRefine(params);
  const filter = useMemo<LibraryFilter>(
    () => ({ search, category, rating, vj, sort }),
    [search, category, rating, vj, sort],
  );
  const refine = { rating, vj, sort };
  const online = useOnline();
  const library = useLibrary(filter);
  // A failed fetch (offline from a cold start) falls back to the library saved at the last visit online.
  const saved = useMemo(() => (library.isError ? lastLibrary(filter) : undefined), [library.isError, filter]);
  // The fresh list replaces the saved one as a background render that yields to the phone every few
  // milliseconds, instead of one long task while the page is still opening (issue 16/22 §18).
  const list = useDeferredValue(library.data ?? saved);
  const searching = library.isPlaceholderData && online;
  const libraryUrl = libraryHref(search, category, refine);
  const sections = category ? [category] : MOVIE_CATEGORY_NAMES;

  // Typing replaces the history entry: back leaves the library instead of undoing letters.
  const onSearch = useCallback(
    (next: string) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next) updated.set('search', next);
          else updated.delete('search');
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );

  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <h1 className="text-3xl font-extrabold tracking-tight">{t('catalog.library.title')}</h1>
        <p className="mt-1 text-stone-600 dark:text-stone-400">
          {list && !list.subscribed ? t('catalog.library.intro.guest') : t('catalog.library.intro')}
        </p>

        {!search && !category && <ContinueWatching className="mt-6" />}

        <div className="mt-6 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
          <SearchBox value={search} onSearch={onSearch} />
          <SectionFilter search={search} category={category} refine={refine} />
        </div>
        <div className="mt-4">
          <RefineControls search={search} category={category} refine={refine} />
        </div>

        {!online && (
          <Card role="status" data-testid="library-offline" className="mt-6">
            <p className="font-semibold">{t('catalog.library.offline.title')}</p>
            <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
              {list ? t('catalog.library.offline.saved') : t('catalog.library.offline.none')}
            </p>
            <Link
              to="/downloads"
              className="mt-2 inline-block text-sm font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-300"
            >
              {t('catalog.library.offline.open')}
            </Link>
          </Card>
        )}

        {list && <HiddenByPinNotice hidden={list.hiddenByParentalPin} />}

        <p role="status" className="sr-only">
          {library.isPending || searching
            ? t('catalog.library.loading')
            : list && search
              ? resultsSummary(list, category)
              : ''}
        </p>

        {library.isPending && !list && online && (
          <div aria-busy="true" className="mt-10">
            <ul className={MOVIE_GRID}>
              {Array.from({ length: SKELETON_COUNT }, (_, index) => (
                <MovieCardSkeleton key={index} />
              ))}
            </ul>
          </div>
        )}

        {library.isError && !list && online && (
          <LoadFailure
            look="card"
            className="mx-auto mt-10 max-w-lg"
            what="movies"
            error={library.error}
            onRetry={() => void library.refetch()}
            retrying={library.isFetching}
          />
        )}

        {list &&
          sections.map((name, index) => (
            <MovieSection
              key={`${name}:${libraryUrl}`}
              category={name}
              filter={filter}
              first={list}
              libraryUrl={libraryUrl}
              busy={searching}
              notice={name === 'English' ? englishNotice(list, search) : null}
              eagerPosters={index === 0 ? FIRST_SCREEN_POSTERS : 0}
            />
          ))}
        {list && category && (
          <p className="mt-8 text-center text-sm text-stone-600 dark:text-stone-400">
            {t('catalog.library.showingOnly', { section: t(SECTIONS[category].heading) })}{' '}
            <Link
              to={libraryHref(search, null, refine)}
              className="font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-300"
            >
              {t('catalog.library.showAll')}
            </Link>
          </p>
        )}
      </main>
    </div>
  );
}
