import { bothPricesText, hoursText } from './night-words.ts';
import { useNightPrices } from './night-bundle.ts';
import { useDownloadsT } from '../messages.ts';

/**
 * Under the sizes (issue 21/22 §1): the chosen size's data now and on tonight's night bundle, and the bundle's hours,
 * so the person sees what waiting saves before they choose Download or Download tonight.
 */
export function TonightPrices({ bytes }: { bytes: number }) {
  const t = useDownloadsT();
  const prices = useNightPrices();
  return (
    <div
      data-testid="tonight-prices"
      className="mt-3 rounded-xl border border-indigo-200 bg-indigo-50 p-3 text-sm text-indigo-950 dark:border-indigo-900 dark:bg-indigo-950/40 dark:text-indigo-100"
    >
      <p className="font-semibold">{bothPricesText(bytes, prices.dayPricePerGbUgx, prices.nightPricePerGbUgx)}</p>
      <p className="mt-0.5">{t('downloads.tonight.hours', { hours: hoursText(prices.windows) })}</p>
    </div>
  );
}
