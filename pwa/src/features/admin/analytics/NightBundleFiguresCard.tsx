import { formatBytes, formatUgx, type PlatformAnalytics } from '@filamu/shared';
import { Card, CardTitle } from '../../../components/ui/Card.tsx';

type NightFigures = Pick<PlatformAnalytics, 'nightBytes' | 'nightShare' | 'nightSavedUgx'>;

/**
 * The night bundle in the chosen range (issue 21/22 §5): the data served inside the night windows, its share of all
 * the data served, and what fetching it at the night price saved subscribers.
 */
export function NightBundleFiguresCard({ figures, days }: { figures: NightFigures | undefined; days: number }) {
  const facts = figures
    ? [
        { label: 'Data at night prices', value: figures.nightBytes > 0 ? formatBytes(figures.nightBytes) : 'None' },
        { label: 'Share of all data served', value: `${Math.round(figures.nightShare * 100)}%` },
        {
          label: 'Saved subscribers',
          value: figures.nightSavedUgx > 0 ? `≈ ${formatUgx(figures.nightSavedUgx)}` : 'UGX 0',
        },
      ]
    : [];
  return (
    <Card role="region" aria-labelledby="night-bundle-figures">
      <CardTitle id="night-bundle-figures" className="mb-1">
        Downloads on the night bundle
      </CardTitle>
      <p className="mb-4 text-sm text-stone-600 dark:text-stone-400">
        In the last {days} days: data served while a night window was open (by the server&apos;s clock), and what it
        saved at your day and night prices per GB.
      </p>
      {figures ? (
        <dl className="grid gap-3 sm:grid-cols-3">
          {facts.map(({ label, value }) => (
            <div key={label} className="rounded-xl bg-stone-50 p-3 dark:bg-stone-800">
              <dt className="text-sm text-stone-600 dark:text-stone-300">{label}</dt>
              <dd className="text-xl font-bold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p role="status" className="text-sm text-stone-600 dark:text-stone-400">
          Loading…
        </p>
      )}
    </Card>
  );
}
