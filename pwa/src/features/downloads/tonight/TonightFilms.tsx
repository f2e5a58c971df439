import { formatBytes } from '@filamu/shared';
import { cn } from '../../../components/ui/cn.ts';
import { ProgressBar } from '../../../components/ui/ProgressBar.tsx';
import { sizeName, stateWords } from '../describe.ts';
import { useDownloadsT } from '../messages.ts';
import type { LocalDownload } from '../engine/record.ts';
import { useLiveFigures } from '../hooks.ts';
import { percentOf } from '../movie-action.ts';
import { bothPricesText } from './night-words.ts';
import type { NightPrices } from './night-bundle.ts';

function TonightFilm({ record, prices, dim }: { record: LocalDownload; prices: NightPrices; dim: boolean }) {
  const t = useDownloadsT();
  const live = useLiveFigures(record.movieId);
  const complete = record.state === 'complete';
  const received = complete ? record.size : Math.min(record.size, Math.max(record.committed, live?.received ?? 0));
  const percent = complete ? 100 : percentOf(received, record.size);
  const titleId = `tonight-film-${record.movieId}`;
  const quiet = dim ? 'text-stone-400' : 'text-stone-600 dark:text-stone-400';
  return (
    <li className={cn('py-3', dim ? 'border-stone-800' : 'border-stone-200 dark:border-stone-800')}>
      <p id={titleId} className="font-semibold break-words">
        {record.title}
      </p>
      <p className={cn('text-sm', quiet)}>
        {record.sizeChoice ? `${sizeName(record.sizeChoice)} · ` : ''}
        {formatBytes(record.size)} · {bothPricesText(record.size, prices.dayPricePerGbUgx, prices.nightPricePerGbUgx)}
      </p>
      <p className={cn('text-sm', quiet)} data-testid="tonight-film-state">
        {stateWords(record)}
      </p>
      {!complete && received > 0 && (
        <ProgressBar
          percent={percent}
          labelledBy={titleId}
          valueText={`${percent}%, ${t('downloads.item.ofSize', { received: formatBytes(received), size: formatBytes(record.size) })}`}
          tone="brand"
          className="mt-2"
        />
      )}
    </li>
  );
}

/** Tonight's films with their sizes, both prices and where each stands. `dim`: on night mode's dark screen. */
export function TonightFilms({
  records,
  prices,
  dim = false,
  label,
}: {
  records: LocalDownload[];
  prices: NightPrices;
  dim?: boolean;
  label: string;
}) {
  return (
    <ul
      aria-label={label}
      className={cn('divide-y', dim ? 'divide-stone-800' : 'divide-stone-200 dark:divide-stone-800')}
    >
      {records.map((record) => (
        <TonightFilm key={record.key} record={record} prices={prices} dim={dim} />
      ))}
    </ul>
  );
}
