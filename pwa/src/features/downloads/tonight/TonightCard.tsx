import { groupDigits } from '@filamu/shared';
import { useId } from 'react';
import { LinkButton } from '../../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import { useLocalDownloads } from '../hooks.ts';
import { MorningCard } from './MorningCard.tsx';
import { morningReport } from './morning.ts';
import { useNightPrices } from './night-bundle.ts';
import { useNightMode } from './night-mode.ts';
import { hoursText } from './night-words.ts';
import { isTonightFilm } from './queue.ts';
import { useDownloadsNightT } from './messages.ts';

/**
 * My Downloads' Download tonight (issue 21/22): the night bundle's hours and price, the films waiting for tonight, the
 * way into night mode, and last night's report when night mode ran.
 */
export function TonightCard() {
  const t = useDownloadsNightT();
  const headingId = useId();
  const prices = useNightPrices();
  const records = useLocalDownloads();
  const night = useNightMode();
  const waiting = records.filter(isTonightFilm);
  const on = night.phase.at === 'waiting' || night.phase.at === 'downloading';

  return (
    <>
      {night.phase.at === 'morning' && (
        <MorningCard
          className="mt-6"
          report={morningReport(
            records,
            night.phase.night,
            night.films,
            prices.dayPricePerGbUgx,
            prices.nightPricePerGbUgx,
          )}
        />
      )}
      <Card className="mt-6" role="region" aria-labelledby={headingId}>
        <CardTitle id={headingId}>{t('downloads-night.card.title')}</CardTitle>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          {t('downloads-night.card.text', {
            hours: hoursText(prices.windows),
            night: groupDigits(prices.nightPricePerGbUgx),
            day: groupDigits(prices.dayPricePerGbUgx),
          })}
        </p>
        <p className="mt-2 text-sm font-medium" data-testid="tonight-count">
          {waiting.length === 0
            ? t('downloads-night.none')
            : t('downloads-night.card.count', { count: waiting.length })}
        </p>
        <LinkButton
          to="/downloads/tonight"
          size="sm"
          variant={waiting.length > 0 ? 'primary' : 'outline'}
          className="mt-3"
        >
          {on ? t('downloads-night.card.back') : t('downloads-night.title')}
        </LinkButton>
      </Card>
    </>
  );
}
