import { contracts } from '@filamu/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, LinkButton } from '../../../components/ui/Button.tsx';
import { Card } from '../../../components/ui/Card.tsx';
import { FilmIcon } from '../../../components/ui/icons.tsx';
import { PageSpinner } from '../../../components/ui/Spinner.tsx';
import { api, errorMessage, isApiError } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-client.ts';
import { VideoPlayer } from '../../watching/player/VideoPlayer.tsx';
import { removeAfterWatching } from '../after-watching.ts';
import type { LocalDownload } from '../engine/record.ts';
import { noRedownloadsLeft, redownloadCost } from '../redownload-words.ts';
import { useSubtitleTracks } from '../subtitles.ts';
import { fetchLicence, usePlayable } from './playable.ts';
import { cannotPlayWords, type CannotPlay } from './play-words.ts';
import { useDownloadsT } from '../messages.ts';

const alertText = 'text-red-700 dark:text-red-400';

function CannotPlayCard({ why, children }: { why: CannotPlay; children?: ReactNode }) {
  const t = useDownloadsT();
  const words = cannotPlayWords(why);
  return (
    <Card className="flex flex-col items-center py-10 text-center">
      <FilmIcon className="size-10 text-stone-400" />
      <div role="alert">
        <p className="mt-4 text-lg font-semibold">{words.title}</p>
        <p className="mt-1 max-w-md text-stone-600 dark:text-stone-400">{words.text}</p>
      </div>
      <div className="mt-6 flex w-full max-w-md flex-col items-center gap-3">
        {children}
        <LinkButton to="/downloads" variant="outline">
          {t('downloads.page.title')}
        </LinkButton>
      </div>
    </Card>
  );
}

/**
 * Bringing a film whose licence is on another phone (or not on this one) here: says first that it uses one of the
 * person's re-downloads (decision 0230), as Download again does, then asks Filamu to move the licence.
 */
function GetItHere({ record, onMoved }: { record: LocalDownload; onMoved: () => void }) {
  const t = useDownloadsT();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const allowance = useQuery({
    queryKey: queryKeys.redownloads,
    queryFn: () => api(contracts.downloads.redownloadAllowance),
    staleTime: 0,
  });
  const cost = allowance.data ? redownloadCost(allowance.data) : null;
  const noneLeft = allowance.data !== undefined && cost === null;

  const move = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await fetchLicence(record, true);
      onMoved();
    } catch (error) {
      setFailure(
        isApiError(error) && error.code === 'licence_elsewhere'
          ? t('downloads.play.moveFailed')
          : errorMessage(error, t('downloads.play.unreachable')),
      );
    } finally {
      setBusy(false);
    }
  };

  if (noneLeft) {
    return (
      <p className="max-w-md text-sm">
        {noRedownloadsLeft(allowance.data)}{' '}
        <Link
          to="/contact-us"
          className="font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-300"
        >
          {t('downloads.again.support')}
        </Link>
      </p>
    );
  }
  return (
    <>
      <p className="max-w-md text-sm font-semibold text-stone-900 dark:text-stone-100">
        {cost ?? (allowance.isError ? t('downloads.play.costOffline') : t('downloads.again.checking'))}
      </p>
      <Button onClick={() => void move()} loading={busy} disabled={!cost}>
        {t('downloads.play.getItHere')}
      </Button>
      {failure && (
        <p role="alert" className={`max-w-md text-sm ${alertText}`}>
          {failure}
        </p>
      )}
    </>
  );
}

/**
 * An encrypted film (decision 0232): `<video>` points at the service worker's play address, once the film's licence,
 * its file and the service worker are known to be there; otherwise the screen says why and what to do. An error of
 * the player is said in words too, after checking the licence again (it may have been revoked meanwhile).
 */
export function LicensedPlayer({ record }: { record: LocalDownload }) {
  const t = useDownloadsT();
  const [attempt, setAttempt] = useState(0);
  const [broken, setBroken] = useState(false);
  const playable = usePlayable(record, attempt);
  const subtitles = useSubtitleTracks(record.key, record.movieId);
  const boxRef = useRef<HTMLDivElement>(null);
  const again = () => {
    setBroken(false);
    setAttempt((n) => n + 1);
  };

  // A media error does not bubble; caught on the way down. A subtitle `<track>` failing is not the film's error.
  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const onError = (event: Event) => {
      if (!(event.target instanceof HTMLMediaElement)) return;
      setBroken(true);
      setAttempt((n) => n + 1);
    };
    box.addEventListener('error', onError, true);
    return () => box.removeEventListener('error', onError, true);
  }, [playable.state]);

  if (playable.state === 'checking') return <PageSpinner label={t('downloads.play.opening')} />;
  if (playable.state === 'cannot') {
    const { why } = playable;
    return (
      <CannotPlayCard why={why}>
        {why === 'elsewhere' && <GetItHere record={record} onMoved={again} />}
        {(why === 'needs-licence' || why === 'broken-copy') && (
          <Button onClick={again}>{t('downloads.play.tryAgain')}</Button>
        )}
        {why === 'no-worker' && <Button onClick={() => window.location.reload()}>{t('downloads.play.reload')}</Button>}
      </CannotPlayCard>
    );
  }
  if (broken) {
    // Checked again above: a licence revoked since says so; otherwise it is this copy.
    return (
      <CannotPlayCard why="broken-copy">
        <Button onClick={again}>{t('downloads.play.tryAgain')}</Button>
      </CannotPlayCard>
    );
  }
  return (
    <div ref={boxRef}>
      <VideoPlayer
        src={playable.src}
        movie={record}
        subtitles={subtitles}
        onLeave={(left) => void removeAfterWatching(record, left)}
      />
    </div>
  );
}
