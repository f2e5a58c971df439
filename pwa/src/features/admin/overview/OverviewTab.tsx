import { formatUgx } from '@filamu/shared';
import { CreditCardIcon, DownloadIcon, FilmIcon, SparklesIcon, UserIcon } from '../../../components/ui/icons.tsx';
import { LoadFailure } from '../../../components/ui/LoadFailure.tsx';
import { DEFAULT_RANGE } from '../analytics/range.ts';
import { formatCount } from '../analytics/format.ts';
import { usePlatformAnalytics } from '../analytics/queries.ts';
import { StatCard } from '../components/StatCard.tsx';
import { TabHeading } from '../components/TabHeading.tsx';
import { DataPriceCard } from './DataPriceCard.tsx';
import { NightBundleCard } from './NightBundleCard.tsx';
import { RecentMovies } from './RecentMovies.tsx';
import { SmsBudgetCard } from './SmsBudgetCard.tsx';
import { SmsGatewayCard } from './SmsGatewayCard.tsx';

/**
 * product §2 Overview: money first (revenue today and this month on Kampala's calendar, payments waiting for a review
 * decision), then four cards, each opening the tab behind it, the five most recent movies and the data price.
 */
export default function OverviewTab() {
  // The Analytics tab's default range: opening Analytics next reuses this answer.
  const analytics = usePlatformAnalytics(DEFAULT_RANGE);
  const data = analytics.data;
  const show = (n: number | undefined) => (n === undefined ? '—' : formatCount(n));
  const money = (n: number | undefined) => (n === undefined ? '—' : formatUgx(n));
  const waiting = data?.paymentsAwaitingReview;
  return (
    <>
      <TabHeading title="Overview" description="The platform at a glance." />
      {analytics.isError && (
        <LoadFailure
          what="analytics"
          error={analytics.error}
          onRetry={() => void analytics.refetch()}
          className="mb-6"
        />
      )}
      <section aria-labelledby="overview-money" className="mb-6">
        <h2 id="overview-money" className="sr-only">
          Money
        </h2>
        <div className="grid gap-4 sm:grid-cols-3" aria-busy={analytics.isPending || undefined}>
          <StatCard
            label="Revenue today"
            value={money(data?.revenueTodayUgx)}
            to="/admin/payments"
            icon={<CreditCardIcon />}
            hint="Completed payments since midnight"
          />
          <StatCard
            label="Revenue this month"
            value={money(data?.revenueThisMonthUgx)}
            to="/admin/analytics"
            icon={<CreditCardIcon />}
            hint="Since the 1st, Kampala time"
          />
          <StatCard
            label="Waiting for review"
            value={show(waiting)}
            to="/admin/payments?status=review"
            icon={<CreditCardIcon />}
            hint={waiting ? 'Payments that need your decision' : 'Nothing to decide'}
            tone={waiting ? 'attention' : undefined}
          />
        </div>
      </section>
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
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <DataPriceCard />
        <NightBundleCard />
        <SmsGatewayCard />
        <div className="lg:col-span-2">
          <SmsBudgetCard />
        </div>
      </div>
    </>
  );
}
