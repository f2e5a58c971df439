import { formatBytes, RENDITION_ADMIN_LABELS, type AdminMovie } from '@filamu/shared';
import { Button } from '../../../components/ui/Button.tsx';
import { ProgressBar } from '../../../components/ui/ProgressBar.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { useRetryRendition } from './queries.ts';
import { renditionText } from './renditions.ts';

const TONE = {
  queued: 'text-stone-600 dark:text-stone-400',
  encoding: 'text-stone-800 dark:text-stone-200',
  ready: 'text-green-700 dark:text-green-400',
  skipped: 'text-stone-600 dark:text-stone-400',
  failed: 'text-red-700 dark:text-red-400',
  cancelled: 'text-stone-600 dark:text-stone-400',
} as const;

/**
 * A movie's sizes in the console, under the operator's names (`Small (HEVC)`, `Small (H.264)`): each rendition's state
 * (a progress bar while encoding) and Retry on a failed one.
 * A movie without renditions (ffmpeg missing, or uploaded before sizes) is offered as uploaded.
 */
export function RenditionStates({ movie }: { movie: AdminMovie }) {
  const retry = useRetryRendition();
  if (movie.renditions.length === 0) {
    return <span className="text-sm text-stone-600 dark:text-stone-400">Original only</span>;
  }
  return (
    <ul className="min-w-44 space-y-1.5 text-sm" aria-label={`Sizes of ${movie.title}`}>
      {movie.renditions.map((r) => {
        const label = RENDITION_ADMIN_LABELS[r.kind];
        const text = renditionText(r);
        return (
          <li key={r.kind}>
            <p className={cn('break-words', TONE[r.state])}>
              <span className="font-semibold text-stone-900 dark:text-stone-100">{label}:</span> {text}
            </p>
            {r.state === 'encoding' && (
              <ProgressBar
                percent={r.progress * 100}
                label={`${label} encoding of ${movie.title}`}
                valueText={text}
                className="mt-1"
              />
            )}
            {r.state === 'failed' && (
              <Button
                size="sm"
                variant="outline"
                className="mt-1"
                aria-label={`Retry ${label} of ${movie.title}`}
                loading={retry.isPending && retry.variables?.movie.id === movie.id && retry.variables.kind === r.kind}
                onClick={() =>
                  retry.mutate(
                    { movie, kind: r.kind },
                    {
                      onSuccess: () => toast.success(`${label} of "${movie.title}" is queued again.`),
                      onError: (error) => toast.error('Retry failed', errorMessage(error, 'Please try again.')),
                    },
                  )
                }
              >
                Retry
              </Button>
            )}
          </li>
        );
      })}
      {/* The uploaded file is a size people can pick too: listed so the column says everything on offer. */}
      <li>
        <p className={cn('break-words', TONE.ready)}>
          <span className="font-semibold text-stone-900 dark:text-stone-100">{RENDITION_ADMIN_LABELS.original}:</span>{' '}
          Ready · {formatBytes(movie.size)}
        </p>
      </li>
    </ul>
  );
}
