import type { UserMovie } from '@filamu/shared';
import type { ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { LinkButton } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { ArrowLeftIcon, FilmIcon } from '../../components/ui/icons.tsx';
import { LoadFailure } from '../../components/ui/LoadFailure.tsx';
import { RatingBadge } from '../../components/ui/RatingBadge.tsx';
import { libraryHref } from '../movie/library-url.ts';
import { PageSpinner } from '../../components/ui/Spinner.tsx';
import { isApiError } from '../../lib/api.ts';
import { useSessionStore } from '../../lib/session.ts';
import { HiddenByPinNotice } from '../parental-pin/HiddenByPinNotice.tsx';
import { DownloadButton, useMovieAction } from '../downloads/DownloadButton.tsx';
import { DownloadFacts } from '../downloads/DownloadFacts.tsx';
import { useFromSizeText } from '../downloads/hooks.ts';
import { formatDate } from '../../lib/dates.ts';
import { formatGb, formatRunningTime, vjName } from '../movie/format.ts';
import { categoryLabel, useCatalogT } from './messages.ts';
import type { LibraryReturn } from './MovieCard.tsx';
import { MovieThumbnail } from '../movie/MovieThumbnail.tsx';
import { useMovie } from '../movie/queries.ts';
import { useDocumentTitle } from '../../lib/page.ts';

/** The library the person came from (same search and section), or the whole library. */
function useLibraryUrl(): string {
  const state = useLocation().state as Partial<LibraryReturn> | null;
  const url = state?.libraryUrl;
  return typeof url === 'string' && url.startsWith('/movies') ? url : '/movies';
}

function BackLink({ to }: { to: string }) {
  const t = useCatalogT();
  return (
    <Link
      to={to}
      className="inline-flex items-center gap-1.5 rounded-lg py-1 text-sm font-semibold text-stone-700 hover:text-brand-700 dark:text-stone-300 dark:hover:text-brand-300"
    >
      <ArrowLeftIcon className="size-4" /> {t('catalog.detail.back')}
    </Link>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-xl bg-stone-100 px-3 py-2.5 dark:bg-stone-900">
      <dt className="text-xs font-medium uppercase tracking-wide text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="mt-0.5 font-semibold break-words">{children}</dd>
    </div>
  );
}

/** The download control, or for people without a subscription the prompt to get one (product §2). */
function DownloadPanel({ movie }: { movie: UserMovie }) {
  const t = useCatalogT();
  const action = useMovieAction(movie);
  if (action.kind === 'subscribe') {
    return (
      <Card className="mt-6 border-brand-200 bg-brand-50 dark:border-brand-900 dark:bg-brand-950/40">
        <h2 className="text-lg font-bold">{t('catalog.detail.subscribe.title')}</h2>
        <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
          {t('catalog.detail.subscribe.text', { title: movie.title })}
        </p>
        <div className="mt-4">
          <DownloadButton movie={movie} layout="page" />
        </div>
      </Card>
    );
  }
  return (
    <Card className="mt-6">
      <h2 className="sr-only">{t('catalog.detail.download')}</h2>
      <DownloadButton movie={movie} layout="page" />
      {action.kind !== 'on-phone' && <DownloadFacts movie={movie} />}
    </Card>
  );
}

function MovieDetails({ movie }: { movie: UserMovie }) {
  const t = useCatalogT();
  const sizeText = useFromSizeText(movie.sizes);
  return (
    <article aria-labelledby="movie-title" className="mt-4 grid gap-6 md:grid-cols-2 md:gap-10">
      <MovieThumbnail
        src={movie.thumbnail_url}
        srcSet={movie.thumbnail_srcset}
        sizes="(min-width: 1152px) 556px, (min-width: 768px) 50vw, 100vw"
        alt=""
        eager
        className="self-start rounded-2xl shadow-sm"
      />
      <div className="min-w-0">
        <h1 id="movie-title" className="text-3xl font-extrabold tracking-tight break-words">
          {movie.title}
        </h1>
        <dl className="mt-4 grid grid-cols-2 gap-2">
          <Detail label={t('catalog.detail.rating')}>
            <RatingBadge rating={movie.rating} />
            {movie.certificate_number && (
              <span className="ml-2 text-xs font-normal text-stone-700 dark:text-stone-300">
                {t('catalog.detail.certificate', { number: movie.certificate_number })}
                {movie.certificate_date ? `, ${formatDate(movie.certificate_date)}` : ''}
              </span>
            )}
          </Detail>
          <Detail label={t('catalog.detail.category')}>{categoryLabel(movie.category)}</Detail>
          <Detail label={t('catalog.detail.added')}>{formatDate(movie.created_at)}</Detail>
          <Detail label={t('catalog.detail.fileSize')}>{sizeText ?? formatGb(movie.size)}</Detail>
          {movie.duration_seconds !== null && (
            <Detail label={t('catalog.detail.runningTime')}>{formatRunningTime(movie.duration_seconds)}</Detail>
          )}
          {/* "VJ" over "VJ Ice P" said VJ twice: the label says what a VJ does, the name keeps its own "VJ". An
              English film is not narrated: its name field is who released it (decision 0210). */}
          <Detail label={movie.category === 'English' ? t('catalog.detail.from') : t('catalog.detail.translatedBy')}>
            {movie.vj === 'N/A' ? (
              t('catalog.detail.noVj')
            ) : (
              <Link
                to={libraryHref('', null, { vj: movie.vj })}
                aria-label={t('catalog.detail.moreByVj', { vj: vjName(movie.vj) })}
                className="text-brand-700 underline underline-offset-2 dark:text-brand-300"
              >
                {vjName(movie.vj)}
              </Link>
            )}
          </Detail>
        </dl>
        <DownloadPanel movie={movie} />
        <section aria-labelledby="about-movie" className="mt-6">
          <h2 id="about-movie" className="text-lg font-bold">
            {t('catalog.detail.about')}
          </h2>
          <p className="mt-2 whitespace-pre-line text-stone-700 dark:text-stone-300">
            {movie.description || t('catalog.detail.noDescription')}
          </p>
        </section>
      </div>
    </article>
  );
}

export default function MovieDetailPage() {
  const t = useCatalogT();
  const { id = '' } = useParams();
  const libraryUrl = useLibraryUrl();
  const movie = useMovie(id);
  const missing = isApiError(movie.error) && (movie.error.status === 404 || movie.error.status === 400);
  const hiddenByPin = isApiError(movie.error) && movie.error.code === 'pin_required';
  const pinHides = useSessionStore((s) => s.user?.parentalPin?.hides) ?? '18';
  useDocumentTitle(
    movie.data
      ? movie.data.title
      : missing
        ? t('catalog.detail.notFound')
        : movie.isError
          ? t('catalog.detail.pageTitle')
          : undefined,
  );

  let content: ReactNode;
  if (movie.data) {
    content = (
      <>
        <BackLink to={libraryUrl} />
        <MovieDetails movie={movie.data} />
      </>
    );
  } else if (movie.isPending) {
    content = <PageSpinner label={t('catalog.detail.loading')} />;
  } else if (hiddenByPin) {
    // The server keeps the title back until the PIN is entered; entering it here asks for the movie again.
    content = (
      <>
        <BackLink to={libraryUrl} />
        <h1 className="mt-6 text-2xl font-extrabold tracking-tight">{t('catalog.detail.hiddenByPin')}</h1>
        <HiddenByPinNotice hidden={pinHides} />
      </>
    );
  } else if (missing) {
    // 400: the id is not even an id (a mistyped link); for the person it is the same missing movie.
    content = (
      <div className="flex flex-col items-center py-16 text-center">
        <span className="grid size-16 place-items-center rounded-2xl bg-stone-200 text-stone-600 dark:bg-stone-800 dark:text-stone-300">
          <FilmIcon className="size-8" />
        </span>
        <h1 className="mt-6 text-3xl font-extrabold tracking-tight">{t('catalog.detail.notFound')}</h1>
        <p className="mt-3 max-w-md text-stone-600 dark:text-stone-400">{t('catalog.detail.notFound.text')}</p>
        <LinkButton to={libraryUrl} size="lg" className="mt-8">
          {t('catalog.detail.back')}
        </LinkButton>
      </div>
    );
  } else {
    content = (
      <>
        <BackLink to={libraryUrl} />
        <LoadFailure
          look="card"
          className="mx-auto mt-10 max-w-lg"
          what="movie details"
          error={movie.error}
          reason="none"
          onRetry={() => void movie.refetch()}
          retrying={movie.isFetching}
        />
      </>
    );
  }

  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" aria-busy={movie.isPlaceholderData || undefined} className="mx-auto max-w-6xl px-4 py-6 sm:px-6">
        {content}
      </main>
    </div>
  );
}
