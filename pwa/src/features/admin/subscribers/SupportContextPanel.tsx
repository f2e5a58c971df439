import { type SupportContext, type SupportDownload, formatBytes, formatDate, formatDayMonth } from '@filamu/shared';
import { Badge, type BadgeTone } from '../../../components/ui/Badge.tsx';
import { LoadFailure } from '../../../components/ui/LoadFailure.tsx';
import { Spinner } from '../../../components/ui/Spinner.tsx';
import { smsPlan } from './support-sms.ts';

/** `2026-11` as people say it: November 2026. */
const monthName = (month: string) =>
  new Date(`${month}-15T12:00:00Z`).toLocaleString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

const STATUS: Record<SupportDownload['status'], { label: string; tone: BadgeTone }> = {
  completed: { label: 'Downloaded', tone: 'success' },
  downloading: { label: 'Downloading', tone: 'info' },
  starting: { label: 'Starting', tone: 'info' },
  paused: { label: 'Paused', tone: 'neutral' },
  failed: { label: 'Failed', tone: 'danger' },
  not_started: { label: 'Not started', tone: 'neutral' },
};

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-xl border border-stone-200 p-3 dark:border-stone-700">
      <dt className="text-xs font-medium text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="mt-1 text-lg font-semibold text-stone-900 dark:text-white">{value}</dd>
      {hint && <dd className="text-xs text-stone-600 dark:text-stone-400">{hint}</dd>}
    </div>
  );
}

/**
 * What support reads before granting a re-download (decision 0214): this month's downloads and re-downloads against
 * the allowance, what support gave before, whether the person gets a text, and the movies they downloaded lately.
 */
export function SupportContextPanel({
  context,
  error,
  onRetry,
}: {
  context: SupportContext | undefined;
  error: unknown;
  onRetry: () => void;
}) {
  if (error) return <LoadFailure what="what they downloaded" error={error} onRetry={onRetry} />;
  if (!context) return <Spinner label="Loading what they downloaded" className="mx-auto my-6 size-6" />;
  const { redownloads: allowance } = context;
  return (
    <section aria-label="What they used this month" className="space-y-4">
      <div>
        <h3 className="text-sm font-semibold text-stone-900 dark:text-white">{monthName(context.month)}</h3>
        <dl className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-3">
          <Figure label="Downloads started" value={String(context.downloadsThisMonth)} />
          <Figure
            label="Re-downloads this month"
            value={`${allowance.usedThisMonth} of ${allowance.perMonth}`}
            hint={`Renew on ${formatDayMonth(allowance.renewsAt)}`}
          />
          <Figure
            label="Extra from support"
            value={`${allowance.extra} unused`}
            hint={`${context.grantedUsedThisMonth} used this month`}
          />
        </dl>
      </div>
      <div>
        <h3 className="text-sm font-semibold text-stone-900 dark:text-white">Recent movies</h3>
        {context.recentDownloads.length === 0 ? (
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">They have not downloaded any movie yet.</p>
        ) : (
          <ul className="mt-2 divide-y divide-stone-200 rounded-xl border border-stone-200 dark:divide-stone-700 dark:border-stone-700">
            {context.recentDownloads.map((d) => (
              <li key={d.movieId} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-3 py-2">
                <span className="min-w-0 font-medium break-words text-stone-900 dark:text-white">{d.title}</span>
                <span className="flex flex-wrap items-center gap-2 text-xs text-stone-600 dark:text-stone-400">
                  <Badge tone={STATUS[d.status].tone}>{STATUS[d.status].label}</Badge>
                  <span>{formatDate(d.completedAt ?? d.startedAt)}</span>
                  <span>{formatBytes(d.fetchedBytes)} sent</span>
                  {d.redownloadsThisMonth > 0 && (
                    <span>
                      Re-downloaded {d.redownloadsThisMonth} {d.redownloadsThisMonth === 1 ? 'time' : 'times'} this
                      month
                    </span>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <p
        className={
          context.sms === 'queued'
            ? 'text-sm text-stone-700 dark:text-stone-300'
            : 'rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100'
        }
      >
        {smsPlan(context.sms, context.phone)}
      </p>
    </section>
  );
}
