import { formatBytes, type MovieRating } from '@filamu/shared';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { LinkButton } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { RatingBadge } from '../../components/ui/RatingBadge.tsx';
import { useMovie } from '../movie/queries.ts';
import { ArrowLeftIcon, FilmIcon } from '../../components/ui/icons.tsx';
import { PageSpinner } from '../../components/ui/Spinner.tsx';
import type { LocalDownload } from './engine/record.ts';
import { removeAfterWatching } from './after-watching.ts';
import { useLocalDownload } from './hooks.ts';
import { useDownloadsStore } from './manager.ts';
import { openMovieFile } from './actions.ts';
import { percentOf } from './movie-action.ts';
import { useDownloadSettings } from './settings.ts';
import { useDocumentTitle } from '../../lib/page.ts';
import { PlayPinGate } from '../parental-pin/PlayPinGate.tsx';
import { VideoPlayer } from '../watching/player/VideoPlayer.tsx';
import { useSubtitleTracks } from './subtitles.ts';
import { LicensedPlayer } from './play/LicensedPlayer.tsx';
import { downloadsT, useDownloadsT } from './messages.ts';

function NotHere({ title, text }: { title: string; text: string }) {
  return (
    <Card role="status" className="flex flex-col items-center py-12 text-center">
      <FilmIcon className="size-10 text-stone-400" />
      <p className="mt-4 text-lg font-semibold">{title}</p>
      <p className="mt-1 max-w-md text-stone-600 dark:text-stone-400">{text}</p>
      <LinkButton to="/downloads" className="mt-6">
        My Downloads
      </LinkButton>
    </Card>
  );
}

/**
 * An encrypted film plays through the service worker with its licence (decision 0232); a plain file, stored before
 * encryption, plays as it always did.
 */
function Player({ record }: { record: LocalDownload }) {
  return record.fileNonce ? <LicensedPlayer record={record} /> : <PlainPlayer record={record} />;
}

/** Plays the file on disk through an object URL (seekable, no network); the URL is revoked on leaving. */
function PlainPlayer({ record }: { record: LocalDownload }) {
  const [src, setSrc] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const subtitles = useSubtitleTracks(record.key, record.movieId);

  useEffect(() => {
    let url: string | null = null;
    let alive = true;
    openMovieFile(record.movieId)
      .then((file) => {
        if (!alive) return;
        if (file.size === 0) return setMissing(true);
        url = URL.createObjectURL(file);
        setSrc(url);
      })
      .catch(() => alive && setMissing(true));
    return () => {
      alive = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [record.movieId]);

  if (missing) {
    return (
      <NotHere title={downloadsT('downloads.play.missing.title')} text={downloadsT('downloads.play.missing.text')} />
    );
  }
  if (!src) return <PageSpinner label={downloadsT('downloads.play.opening')} />;
  return (
    <VideoPlayer
      src={src}
      movie={record}
      subtitles={subtitles}
      onLeave={(left) => void removeAfterWatching(record, left)}
    />
  );
}

/** A record made before it kept the rating asks the server (online); offline it shows none rather than a guess. */
function ServerRating({ movieId }: { movieId: string }) {
  const rating = useMovie(movieId).data?.rating;
  return rating ? <RatingBadge rating={rating} /> : null;
}

function PlayRating({ movieId, rating }: { movieId: string; rating: MovieRating | undefined }) {
  return rating ? <RatingBadge rating={rating} /> : <ServerRating movieId={movieId} />;
}

/** /downloads/:movieId/play: watch a downloaded movie offline. */
export default function PlayPage() {
  const { movieId = '' } = useParams();
  const record = useLocalDownload(movieId);
  const loaded = useDownloadsStore((s) => s.loaded);
  const { deleteWatched } = useDownloadSettings();
  const t = useDownloadsT();
  useDocumentTitle(
    record ? t('downloads.play.title', { title: record.title }) : loaded ? t('downloads.action.play') : undefined,
  );

  let body;
  if (!loaded) body = <PageSpinner label={t('downloads.page.loading')} />;
  else if (!record || record.state === 'cancelled') {
    body = <NotHere title={t('downloads.play.notHere')} text={t('downloads.play.notHere.text')} />;
  } else if (record.state !== 'complete') {
    body = (
      <NotHere
        title={t('downloads.play.stillDownloading')}
        text={t('downloads.play.stillDownloading.text', {
          title: record.title,
          percent: percentOf(record.committed, record.size),
        })}
      />
    );
  } else {
    body = (
      <PlayPinGate key={record.key} rating={record.rating}>
        <Player record={record} />
      </PlayPinGate>
    );
  }

  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-4xl px-4 py-6 sm:px-6">
        <Link
          to="/downloads"
          className="inline-flex items-center gap-2 rounded-lg py-1 text-sm font-semibold text-stone-700 hover:text-stone-950 dark:text-stone-300 dark:hover:text-white"
        >
          <ArrowLeftIcon className="size-4" /> {t('downloads.play.back')}
        </Link>
        <h1 className="mt-3 break-words text-2xl font-extrabold tracking-tight sm:text-3xl">
          {record?.title ?? t('downloads.action.play')}
        </h1>
        {record && record.state !== 'cancelled' && (
          <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-stone-600 dark:text-stone-400">
            <PlayRating movieId={record.movieId} rating={record.rating} />
            {record.state === 'complete' && (
              <span>
                {record.category} · {formatBytes(record.size)} · {t('downloads.play.onPhone')}
              </span>
            )}
          </p>
        )}
        {deleteWatched && record?.state === 'complete' && (
          <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{t('downloads.play.deleteWatched')}</p>
        )}
        <div className="mt-5">{body}</div>
      </main>
    </div>
  );
}
