import { formatBytes } from '@filamu/shared';
import { useId } from 'react';
import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import { useDataPrice } from '../data-price.ts';
import { dayWords, monthWords } from '../describe.ts';
import { summarizeDataUse } from '../engine/data-days.ts';
import { useDataDays } from '../hooks.ts';
import { costText } from '../sizes.ts';
import { useDownloadsT } from '../messages.ts';

/** One month's total: its bytes and what they cost at the price the size dialog uses. */
function MonthTotal({
  label,
  bytes,
  nightBytes,
  price,
}: {
  label: string;
  bytes: number;
  nightBytes: number;
  price: number;
}) {
  const t = useDownloadsT();
  return (
    <div className="min-w-0">
      <dt className="text-sm text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="mt-0.5 text-lg font-bold tabular-nums">
        {bytes > 0 ? formatBytes(bytes) : t('downloads.data.none')}
      </dd>
      {bytes > 0 && <dd className="text-sm text-stone-700 dark:text-stone-300">{costText(bytes, price)}</dd>}
      {/* Issue 21/22 §5: the part fetched on the night bundle (films downloaded tonight). */}
      {nightBytes > 0 && (
        <dd className="text-sm text-stone-700 dark:text-stone-300">
          {t('downloads.used.night', { bytes: formatBytes(Math.min(nightBytes, bytes)) })}
        </dd>
      )}
    </div>
  );
}

/**
 * My Downloads' "Data used" (issue 30 §16, decision 0216): this Kampala month's total and its days, and last month's
 * total to compare, as this phone received them — re-fetches after a drop included, because that data was paid for.
 */
export function DataUsedCard() {
  const t = useDownloadsT();
  const headingId = useId();
  const days = useDataDays();
  const price = useDataPrice();
  const now = days?.readAt ?? 0;
  const use = days ? summarizeDataUse(days.rows, now) : null;
  const busiest = use ? Math.max(...use.days.map((d) => d.bytes), 1) : 1;

  return (
    <Card className="mt-6" role="region" aria-labelledby={headingId}>
      <CardTitle id={headingId}>{t('downloads.data.title')}</CardTitle>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{t('downloads.data.lead')}</p>
      {!use ? (
        <p role="status" className="mt-4 text-sm text-stone-600 dark:text-stone-400">
          {t('downloads.data.counting')}
        </p>
      ) : (
        <>
          <dl className="mt-4 grid grid-cols-2 gap-3">
            <MonthTotal
              label={t('downloads.data.thisMonth', { month: monthWords(use.month) })}
              bytes={use.monthBytes}
              nightBytes={use.monthNightBytes}
              price={price}
            />
            <MonthTotal
              label={t('downloads.data.lastMonth', { month: monthWords(use.lastMonth) })}
              bytes={use.lastMonthBytes}
              nightBytes={use.lastMonthNightBytes}
              price={price}
            />
          </dl>
          {use.days.length === 0 ? (
            <p className="mt-4 text-sm text-stone-600 dark:text-stone-400">{t('downloads.data.noneYet')}</p>
          ) : (
            <table className="mt-4 w-full table-fixed text-sm">
              <caption className="mb-1 text-left font-medium text-stone-800 dark:text-stone-200">
                {t('downloads.data.days')}
              </caption>
              <thead className="sr-only">
                <tr>
                  <th scope="col">{t('downloads.data.day')}</th>
                  <th scope="col">{t('downloads.data.used')}</th>
                </tr>
              </thead>
              <tbody>
                {use.days.map(({ day, bytes }) => (
                  <tr key={day}>
                    <th scope="row" className="w-24 py-1 pr-2 text-left font-normal">
                      {dayWords(day, now)}
                    </th>
                    <td className="py-1">
                      <div className="flex items-center gap-2">
                        {/* The bar only shows the busy days at a glance; the figure beside it is what is read out. */}
                        <span
                          aria-hidden="true"
                          className="h-2 min-w-0 flex-1 rounded-full bg-stone-100 dark:bg-stone-800"
                        >
                          <span
                            className="block h-2 rounded-full bg-brand-600 dark:bg-brand-400"
                            style={{ width: `${Math.max(2, Math.round((bytes / busiest) * 100))}%` }}
                          />
                        </span>
                        <span className="w-20 shrink-0 text-right tabular-nums">{formatBytes(bytes)}</span>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </Card>
  );
}
