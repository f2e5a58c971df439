import { useSearchParams } from 'react-router';
import { LoadFailure } from '../../../components/ui/LoadFailure.tsx';
import { Spinner } from '../../../components/ui/Spinner.tsx';
import { TabHeading } from '../components/TabHeading.tsx';
import { AnalyticsCards } from './Cards.tsx';
import { usePlatformAnalytics } from './queries.ts';
import { RangePicker } from './RangePicker.tsx';
import { parseRange, type Range } from './range.ts';
import { LicenceFiguresCard } from './LicenceFiguresCard.tsx';
import { NightBundleFiguresCard } from './NightBundleFiguresCard.tsx';
import { PhoneToPhoneCard } from './PhoneToPhoneCard.tsx';
import { TopDownloads } from './TopDownloads.tsx';
import { TrendCharts } from './TrendCharts.tsx';

/**
 * Product §2 Analytics (issue 10): the cards, daily/weekly charts for 7/30/90 days (`?days=`), Top Downloaded, and the
 * licences issued in the range (decision 0230).
 */
export default function AnalyticsTab() {
  const [params, setParams] = useSearchParams();
  const days = parseRange(params.get('days'));
  const analytics = usePlatformAnalytics(days);
  // keepPreviousData: the old range stays drawn while the new one loads.
  const switching = analytics.isPlaceholderData && analytics.isFetching;

  const choose = (range: Range) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('days', String(range));
        return next;
      },
      { replace: true },
    );

  return (
    <>
      <TabHeading
        title="Analytics"
        description="Downloads, revenue and sign-ups over time, and the most downloaded movies."
        actions={
          <>
            {switching && <Spinner className="size-5 text-brand-700 dark:text-brand-400" label="Loading the range" />}
            <RangePicker value={days} onChange={choose} busy={switching} />
          </>
        }
      />
      <div className="space-y-6">
        {analytics.isError && (
          <LoadFailure what="analytics" error={analytics.error} onRetry={() => void analytics.refetch()} />
        )}
        {/* After a failed range switch the previous range stays visible under the error. */}
        {(analytics.data || !analytics.isError) && (
          <>
            <AnalyticsCards data={analytics.data} />
            <TrendCharts daily={analytics.data?.daily} days={analytics.data?.daily.length ?? days} />
          </>
        )}
        <TopDownloads />
        {(analytics.data || !analytics.isError) && (
          <>
            <LicenceFiguresCard figures={analytics.data?.licences} days={analytics.data?.daily.length ?? days} />
            <PhoneToPhoneCard figures={analytics.data?.phoneToPhone} days={analytics.data?.daily.length ?? days} />
            <NightBundleFiguresCard figures={analytics.data} days={analytics.data?.daily.length ?? days} />
          </>
        )}
      </div>
    </>
  );
}
