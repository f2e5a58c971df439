import { Button } from '../../../components/ui/Button.tsx';
import { DownloadIcon, FilmIcon, SparklesIcon, UserIcon } from '../../../components/ui/icons.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { DEFAULT_RANGE } from '../analytics/range.ts';
import { formatCount } from '../analytics/format.ts';
import { usePlatformAnalytics } from '../analytics/queries.ts';
import { StatCard } from '../components/StatCard.tsx';
import { TabHeading } from '../components/TabHeading.tsx';
import { RecentMovies } from './RecentMovies.tsx';

/** SPEC §2 Overview: four cards, each opening the tab behind it, and the five most recent movies. */
export default function OverviewTab() {
  // The Analytics tab's default range: opening Analytics next reuses this answer.
  const analytics = usePlatformAnalytics(DEFAULT_RANGE);
  const data = analytics.data;
  const show = (n: number | undefined) => (n === undefined ? '—' : formatCount(n));
  return (
    <>
      <TabHeading title="Overview" description="The platform at a glance." />
      {analytics.isError && (
        <div
          role="alert"
          className="mb-6 rounded-2xl border border-red-200 bg-red-50 p-5 dark:border-red-900 dark:bg-red-950/40"
        >
          <p className="text-red-800 dark:text-red-300">
            Failed to load analytics: {errorMessage(analytics.error, 'Please try again.')}
          </p>
          <Button size="sm" variant="outline" className="mt-3" onClick={() => void analytics.refetch()}>
            Retry
          </Button>
        </div>
      )}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-busy={analytics.isPending || undefined}>
        <StatCard label="Total Movies" value={show(data?.totalMovies)} to="/admin/movies" icon={<FilmIcon />} />
        <StatCard
          label="Total Downloads"
          value={show(data?.totalDownloads)}
          to="/admin/analytics"
          icon={<DownloadIcon />}
        />
        <StatCard
          label="Total Subscribers"
          value={show(data?.totalSubscribers)}
          to="/admin/subscribers"
          icon={<UserIcon />}
        />
        <StatCard
          label="New This Week"
          value={show(data?.newSubscribersThisWeek)}
          to="/admin/subscribers"
          icon={<SparklesIcon />}
          hint="Registered in the last 7 days"
        />
      </div>
      <div className="mt-6">
        <RecentMovies />
      </div>
    </>
  );
}
