import { formatDate, type DailyFigures } from '@filamu/shared';
import { ChartFigure, ChartSkeleton } from './ChartFigure.tsx';
import { DownloadsChart, RevenueChart, SubscribersChart } from './Charts.tsx';
import { formatCount, shortDay } from './format.ts';
import { weeklyNewSubscribers } from './weeks.ts';

const TITLES = ['Downloads per day', 'Revenue per day (UGX)', 'New subscribers per week'] as const;

/** The three charts for the range on screen, or their skeletons while the first series loads. */
export function TrendCharts({ daily, days }: { daily: DailyFigures[] | undefined; days: number }) {
  if (!daily) {
    return (
      <div className="grid gap-6 lg:grid-cols-2 xl:grid-cols-3">
        {TITLES.map((title) => (
          <ChartSkeleton key={title} title={title} />
        ))}
      </div>
    );
  }
  const period = daily.length ? `${shortDay(daily[0]!.date)} – ${shortDay(daily.at(-1)!.date)}` : '';
  const sum = (pick: (d: DailyFigures) => number) => daily.reduce((total, d) => total + pick(d), 0);
  const downloads = sum((d) => d.downloads);
  const revenue = sum((d) => d.revenueUgx);
  const signups = sum((d) => d.newSubscribers);
  const weeks = weeklyNewSubscribers(daily);
  const dayRows = (pick: (d: DailyFigures) => string) =>
    daily.map((d) => ({ key: d.date, label: formatDate(d.date), value: pick(d) }));

  return (
    <div className="grid gap-6 lg:grid-cols-2 xl:grid-cols-3">
      <ChartFigure
        title={TITLES[0]}
        total={formatCount(downloads)}
        caption={`Completed downloads each day, last ${days} days (${period}, Kampala time).`}
        columns={['Date', 'Downloads']}
        rows={dayRows((d) => formatCount(d.downloads))}
        empty={downloads === 0 ? `No completed downloads in the last ${days} days.` : undefined}
      >
        <DownloadsChart daily={daily} />
      </ChartFigure>
      <ChartFigure
        title={TITLES[1]}
        total={`UGX ${formatCount(revenue)}`}
        caption={`Completed payments each day in UGX, last ${days} days (${period}, Kampala time).`}
        columns={['Date', 'Revenue (UGX)']}
        rows={dayRows((d) => formatCount(d.revenueUgx))}
        empty={revenue === 0 ? `No completed payments in the last ${days} days.` : undefined}
      >
        <RevenueChart daily={daily} />
      </ChartFigure>
      <ChartFigure
        title={TITLES[2]}
        total={formatCount(signups)}
        caption={`New registrations per week (weeks start Monday, Kampala time), last ${days} days; the first and last weeks may be partial.`}
        columns={['Week starting', 'New subscribers']}
        rows={weeks.map((w) => ({
          key: w.weekStart,
          label: w.days < 7 ? `${formatDate(w.weekStart)} (${w.days} of 7 days in range)` : formatDate(w.weekStart),
          value: formatCount(w.newSubscribers),
        }))}
        empty={signups === 0 ? `No new subscribers in the last ${days} days.` : undefined}
      >
        <SubscribersChart weeks={weeks} />
      </ChartFigure>
    </div>
  );
}
