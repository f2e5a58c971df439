import type { PlatformAnalytics } from '@filamu/shared';
import { DownloadIcon, UserIcon, SparklesIcon } from '../../../components/ui/icons.tsx';
import { StatCard } from '../components/StatCard.tsx';
import { formatCount } from './format.ts';

/** Product §2 Analytics cards; dashes while the figures load. */
export function AnalyticsCards({ data }: { data: PlatformAnalytics | undefined }) {
  const show = (n: number | undefined) => (n === undefined ? '—' : formatCount(n));
  return (
    <div className="grid gap-4 sm:grid-cols-3" aria-busy={!data || undefined}>
      <StatCard label="Total Downloads" value={show(data?.totalDownloads)} icon={<DownloadIcon />} />
      <StatCard label="Active Subscribers" value={show(data?.activeSubscribers)} icon={<UserIcon />} />
      <StatCard
        label="New This Week"
        value={show(data?.newSubscribersThisWeek)}
        icon={<SparklesIcon />}
        hint="Registered in the last 7 days"
      />
    </div>
  );
}
