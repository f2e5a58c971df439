import { KINAYUGANDA_FIRST, type UserMovie } from '@filamu/shared';
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, LinkButton } from '../../components/ui/Button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { CheckIcon, DownloadIcon, LockIcon, PlayIcon } from '../../components/ui/icons.tsx';
import { RedownloadDialog } from './components/RedownloadDialog.tsx';
import { SizeChoiceDialog } from './components/SizeChoiceDialog.tsx';
import { RESUMABLE_STATES } from './engine/record.ts';
import { useChecking, useLiveFigures, useLocalDownload } from './hooks.ts';
import { pauseDownload, resumeDownload, startDownload } from './actions.ts';
import { movieAction, type MovieAction } from './movie-action.ts';
import { downloadSettings } from './settings.ts';
import { phoneSizes } from './phone-sizes.ts';
import { preselectSize } from './sizes.ts';
import { libraryHref } from '../movie/library-url.ts';
import { ProgressBar } from '../../components/ui/ProgressBar.tsx';
import { useOnline } from '../../lib/online.ts';
import { reasonWords } from './describe.ts';
import { downloadsT, useDownloadsT, type DownloadsMessageId } from './messages.ts';

const LABELS: Record<Exclude<MovieAction['kind'], 'downloading'>, DownloadsMessageId> = {
  download: 'downloads.button.download',
  checking: 'downloads.button.checking',
  resume: 'downloads.action.resume',
  'on-phone': 'downloads.button.onPhone',
  'not-on-phone': 'downloads.button.notOnPhone',
  locked: 'downloads.button.locked',
  subscribe: 'downloads.button.subscribe',
  'not-in-plan': 'downloads.button.notInPlan',
};

/** The button's words in the person's language (`movieAction` says them in English). */
function actionLabel(action: MovieAction): string {
  if (action.kind !== 'downloading') return downloadsT(LABELS[action.kind]);
  if (!action.waiting) return downloadsT('downloads.button.downloading', { percent: action.percent });
  const waiting = reasonWords(action.waiting);
  return action.percent > 0 ? `${waiting} · ${action.percent}%` : waiting;
}

const linkClasses =
  'self-start font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800 ' +
  ' dark:text-brand-300 dark:hover:text-brand-200';

export interface DownloadButtonProps {
  movie: UserMovie;
  /** `card`: compact, for the grid; `page`: the detail page, reasons in full. */
  layout?: 'card' | 'page';
  /** Id of the element naming the movie (the card title), so a row of identical buttons says which movie. */
  describedBy?: string;
}

/** What the person sees and does for one movie, from the server's verdict and this device's download. */
export function useMovieAction(movie: UserMovie): MovieAction {
  const local = useLocalDownload(movie.id);
  const live = useLiveFigures(movie.id);
  const checking = useChecking(movie.id);
  return movieAction({
    access: movie.access,
    size: movie.size,
    serverDownload: movie.download,
    local,
    checking,
    received: live?.received,
  });
}

/**
 * The one download control of the library card and the detail page: Download Now, Checking..., Downloading...
 * (progress, waiting reason, Pause), Resume, On this phone (Play), Not on this phone (Download again, a re-download),
 * Download Locked (with its reason), Subscribe Now, Not in your plan.
 */
export function DownloadButton({ movie, layout = 'card', describedBy }: DownloadButtonProps) {
  const t = useDownloadsT();
  const action = useMovieAction(movie);
  const label = actionLabel(action);
  const online = useOnline();
  const local = useLocalDownload(movie.id);
  const reasonId = useId();
  const [again, setAgain] = useState(false);
  const [choosing, setChoosing] = useState(false);
  const page = layout === 'page';
  const size = page ? 'lg' : 'sm';
  const width = page ? 'w-full sm:w-auto sm:min-w-56' : 'w-full text-center leading-tight';
  // Two cards side by side on a phone leave ~110 px for a label: the icon goes until the grid has room.
  const icon = page ? 'size-4 shrink-0' : 'hidden size-4 shrink-0 sm:block';
  // …and a 13 px label (set on an inner span, which wins over the button's own size whatever the CSS order).
  const text = page ? undefined : 'text-[13px] sm:text-sm';
  const note = cn(page ? 'text-sm' : 'text-xs', 'text-stone-600 dark:text-stone-400');
  const describe = (...ids: Array<string | false | null | undefined>) => ids.filter(Boolean).join(' ') || undefined;
  // Download Locked and Not in your plan: aria-disabled (not disabled) keeps it focusable, so the reason is read.
  const blocked = (leading: ReactNode, reason: ReactNode, label: string = actionLabel(action)) => (
    <div className={cn('flex flex-col', page ? 'gap-2' : 'gap-1.5')}>
      <Button
        variant="secondary"
        size={size}
        className={cn(width, 'cursor-not-allowed opacity-80')}
        aria-disabled="true"
        aria-describedby={describe(describedBy, reasonId)}
      >
        {leading}
        <span className={text}>{label}</span>
      </Button>
      {reason}
    </div>
  );

  switch (action.kind) {
    case 'download': {
      // Offline, a download cannot start: say so on the button instead of offering one that fails (issue 16/22 §3).
      if (!online) {
        return blocked(
          <DownloadIcon className={icon} />,
          <p id={reasonId} className={note}>
            {t('downloads.button.offline')}
          </p>,
          t('downloads.button.whenOnline'),
        );
      }
      // "Always ask" (the default) opens the size choice; a default size starts at once (decision 0138).
      const download = () => {
        const { defaultSize } = downloadSettings();
        // No sizes listed (an older server): nothing to choose, the server sends the original.
        if (movie.sizes.length === 0) {
          void startDownload(movie);
          return;
        }
        if (defaultSize === 'ask') {
          setChoosing(true);
          return;
        }
        // Among the sizes this phone plays: "Small" is its Small, HEVC or H.264 (decision 0252).
        void phoneSizes(movie.sizes).then((sizes) =>
          startDownload(movie, { size: preselectSize(sizes, defaultSize, null) ?? undefined }),
        );
      };
      return (
        <>
          <Button size={size} className={width} aria-describedby={describedBy} onClick={download}>
            <DownloadIcon className={icon} />
            <span className={text}>{label}</span>
          </Button>
          {choosing && <SizeChoiceDialog movie={movie} open onClose={() => setChoosing(false)} />}
        </>
      );
    }

    case 'checking':
      return (
        <Button size={size} className={width} aria-describedby={describedBy} loading>
          <span className={text}>{label}</span>
        </Button>
      );

    case 'downloading':
      return (
        <div className={cn('flex flex-col', page ? 'gap-2' : 'gap-1.5')}>
          <div
            className={cn('flex items-baseline justify-between gap-2 font-semibold', page ? 'text-base' : 'text-xs')}
          >
            <span>{label}</span>
          </div>
          <ProgressBar
            percent={action.percent}
            label={t('downloads.button.progress', { title: movie.title })}
            valueText={`${action.percent}%${action.waiting ? `, ${reasonWords(action.waiting)}` : ''}`}
          />
          {/* The label already shows the wait; this only tells a screen reader when one starts. */}
          <span className="sr-only" aria-live="polite">
            {action.waiting ? reasonWords(action.waiting) : ''}
          </span>
          <Button
            variant="outline"
            size="sm"
            className={page ? 'self-start' : 'w-full'}
            aria-describedby={describedBy}
            onClick={() => void pauseDownload(movie.id)}
          >
            {t('downloads.action.pause')}
          </Button>
        </div>
      );

    case 'resume': {
      const resume = () => {
        if (local && RESUMABLE_STATES.has(local.state)) void resumeDownload(movie.id);
        else void startDownload(movie);
      };
      return (
        <div className={cn('flex flex-col', page ? 'gap-2' : 'gap-1.5')}>
          <ProgressBar
            percent={action.percent}
            label={t('downloads.button.progress', { title: movie.title })}
            valueText={t('downloads.button.pausedValue', { percent: action.percent })}
          />
          <p className={note}>
            {t('downloads.button.percentDone', { percent: action.percent })}
            {action.reason && (
              <>
                {' · '}
                <span id={reasonId}>{reasonWords(action.reason)}</span>
              </>
            )}
          </p>
          <Button
            size={size}
            className={width}
            aria-describedby={describe(describedBy, action.reason && reasonId)}
            onClick={resume}
          >
            <DownloadIcon className={icon} />
            <span className={text}>{label}</span>
          </Button>
        </div>
      );
    }

    case 'on-phone':
      return (
        <div className={cn('flex', page ? 'flex-wrap items-center gap-3' : 'flex-col gap-1.5')}>
          <p
            className={cn(
              'inline-flex items-center gap-1 font-semibold text-green-700 dark:text-green-400',
              page ? 'text-base' : 'text-xs',
            )}
          >
            <CheckIcon className="size-4 shrink-0" /> {label}
          </p>
          <LinkButton
            to={`/downloads/${encodeURIComponent(movie.id)}/play`}
            size={size}
            className={width}
            aria-describedby={describedBy}
          >
            <PlayIcon className={icon} /> <span className={text}>{t('downloads.action.play')}</span>
          </LinkButton>
        </div>
      );

    case 'not-on-phone':
      return (
        <div className={cn('flex flex-col', page ? 'gap-2' : 'gap-1.5')}>
          <p
            id={reasonId}
            className={cn('font-semibold text-stone-700 dark:text-stone-300', page ? 'text-base' : 'text-xs')}
          >
            {label}
          </p>
          <Button
            variant="outline"
            size={size}
            className={width}
            aria-describedby={describe(describedBy, reasonId)}
            onClick={() => setAgain(true)}
          >
            <DownloadIcon className={icon} />
            <span className={text}>{t('downloads.button.again')}</span>
          </Button>
          {page && <p className={note}>{t('downloads.button.again.note')}</p>}
          <RedownloadDialog movie={movie} open={again} onClose={() => setAgain(false)} />
        </div>
      );

    case 'locked':
      return blocked(
        <LockIcon className={icon} />,
        <>
          <p id={reasonId} className={page ? note : 'sr-only'}>
            {action.reason === KINAYUGANDA_FIRST ? t('downloads.button.locked.reason') : action.reason}
          </p>
          {page && (
            <Link to={libraryHref('', 'Kinayuganda')} className={cn('text-sm', linkClasses)}>
              {t('downloads.button.showKinayuganda')}
            </Link>
          )}
        </>,
      );

    case 'subscribe':
      return (
        <LinkButton to="/subscription" size={size} className={width} aria-describedby={describedBy}>
          <span className={text}>{label}</span>
        </LinkButton>
      );

    case 'not-in-plan':
      return blocked(
        null,
        <p className={note}>
          <span id={reasonId}>{t('downloads.button.notInPlan.text')}</span>{' '}
          <Link to="/subscription" className={linkClasses}>
            {t('downloads.button.seePlans')}
          </Link>
        </p>,
      );
  }
}
