import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { AccountHeader } from '../../../components/layout/AccountHeader.tsx';
import { Button, LinkButton } from '../../../components/ui/Button.tsx';
import { Card } from '../../../components/ui/Card.tsx';
import { useDocumentTitle } from '../../../lib/page.ts';
import { useLocalDownloads } from '../hooks.ts';
import { useDownloadsStore } from '../manager.ts';
import { MorningCard } from './MorningCard.tsx';
import { morningReport } from './morning.ts';
import { useNightPrices } from './night-bundle.ts';
import { openNightMode, restoreNightMode, stopNightMode, useNightMode } from './night-mode.ts';
import { hoursText } from './night-words.ts';
import { NightScreen } from './NightScreen.tsx';
import { isTonightFilm } from './queue.ts';
import { TonightFilms } from './TonightFilms.tsx';
import { useDownloadsNightT } from './messages.ts';

/**
 * /downloads/tonight: night mode (issue 21/22 §2). Before bed the person starts it; the phone, plugged in with Filamu
 * open, fetches tonight's films in the night bundle hours and pauses them at the end; in the morning it says what came.
 * `?start=1` (the tap on the window-start push) starts it at once. The screen only renders `night-mode.ts`.
 */
export default function NightModePage() {
  const t = useDownloadsNightT();
  useDocumentTitle(t('downloads-night.title'));
  const night = useNightMode();
  const prices = useNightPrices();
  const records = useLocalDownloads();
  const loaded = useDownloadsStore((s) => s.loaded);
  const [params, setParams] = useSearchParams();
  const startAsked = params.get('start') === '1';
  const started = useRef(false);

  // Opened straight after a reload: the night kept on the phone, whether or not the app's start has read it yet.
  useEffect(() => restoreNightMode(), []);

  // The push's tap: night mode starts as soon as the windows are known (the defaults if the server cannot say).
  useEffect(() => {
    if (!startAsked || !prices.settled || started.current) return;
    started.current = true;
    openNightMode(prices.windows);
    setParams({}, { replace: true });
  }, [startAsked, prices.settled, prices.windows, setParams]);

  const { phase } = night;
  const tonight = records.filter((r) => isTonightFilm(r) || (phase.at !== 'off' && r.key in night.films));

  if (phase.at === 'waiting' || phase.at === 'downloading') {
    return <NightScreen phase={phase} hold={night.hold} films={tonight} prices={prices} onStop={stopNightMode} />;
  }

  const waiting = records.filter(isTonightFilm);
  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
        <h1 className="text-3xl font-extrabold tracking-tight">{t('downloads-night.title')}</h1>
        <p className="mt-1 text-stone-600 dark:text-stone-400">
          {t('downloads-night.page.lead', { hours: hoursText(prices.windows) })}
        </p>
        {phase.at === 'morning' && (
          <MorningCard
            className="mt-6"
            report={morningReport(
              records,
              phase.night,
              night.films,
              prices.dayPricePerGbUgx,
              prices.nightPricePerGbUgx,
            )}
          />
        )}
        <Card className="mt-6">
          <h2 className="text-lg font-bold">{t('downloads-night.page.before')}</h2>
          <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm">
            <li>{t('downloads-night.page.step1')}</li>
            <li>{t('downloads-night.page.step2')}</li>
            <li>{t('downloads-night.page.step3')}</li>
          </ol>
          {!loaded ? (
            <p role="status" className="mt-4 text-sm text-stone-600 dark:text-stone-400">
              {t('downloads-night.page.loading')}
            </p>
          ) : waiting.length === 0 ? (
            <div className="mt-4">
              <p className="text-sm text-stone-600 dark:text-stone-400">{t('downloads-night.page.none')}</p>
              <LinkButton to="/movies" variant="outline" size="sm" className="mt-3">
                {t('downloads-night.page.browse')}
              </LinkButton>
            </div>
          ) : (
            <>
              <h3 className="mt-4 text-base font-semibold">{t('downloads-night.films')}</h3>
              <TonightFilms records={waiting} prices={prices} label={t('downloads-night.page.list')} />
            </>
          )}
          <div className="mt-5 flex flex-wrap gap-3">
            <Button onClick={() => openNightMode(prices.windows)} disabled={!prices.settled}>
              {t('downloads-night.page.start')}
            </Button>
            {phase.at === 'morning' && (
              <Button variant="outline" onClick={stopNightMode}>
                {t('downloads-night.page.done')}
              </Button>
            )}
          </div>
        </Card>
      </main>
    </div>
  );
}
